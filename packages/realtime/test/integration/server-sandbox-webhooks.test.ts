/**
 * Webhooks posted by the sandbox's realtime emulator to a node:http receiver on port 0, each verified with
 * `server.verifyWebhook(rawBody, headers)` exactly as an app's handler would: what raw sockets do (subscribe,
 * join a presence channel, send a client event, leave) must arrive as signed, typed events; anything not
 * signed with the app's secret must be refused.
 */
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealtimeServer, type WebhookEvent, WebhookVerificationError } from '../../src/server.js';
import {
  devApp,
  type RawSocket,
  type RealtimeBox,
  startRealtimeBox,
  startWebhookReceiver,
  type WebhookReceiver,
  waitFor,
} from '../helpers/sandbox.js';

let box: RealtimeBox;
let server: RealtimeServer;
let receiver: WebhookReceiver;
/** Every event the receiver verified, in arrival order; and every refusal. */
const verified: WebhookEvent[] = [];
const refused: WebhookVerificationError[] = [];

/** The app's webhook handler: verify first, answer 401 to anything not provably from the service. */
async function handle(rawBody: string, headers: IncomingHttpHeaders): Promise<number> {
  try {
    const payload = await server.verifyWebhook(rawBody, headers, { maxAgeMs: 60_000 });
    expect(payload.unrecognized).toEqual([]);
    verified.push(...payload.events);
    return 200;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    refused.push(error);
    return 401;
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver(handle);
  box = await startRealtimeBox({
    apps: [
      devApp({ webhooks: { url: receiver.url }, subscriptionCounting: true }),
      // Another app posting to the same URL: its key is not this server's, so its webhooks are refused.
      { appId: '200002', key: 'other-key', secret: 'other-secret', webhooks: { url: receiver.url } },
    ],
    webhooks: { attempts: 2, retryDelayMs: 10, maxRetryDelayMs: 10 },
  });
  server = box.server();
});
afterAll(async () => {
  await box?.close();
  await receiver?.close();
});

/** Waits until the emulator has delivered (or given up on) every webhook. */
async function settled(): Promise<void> {
  await box.rt.idle();
}

const named = <N extends WebhookEvent['name']>(name: N, channel: string) =>
  verified.filter((e): e is Extract<WebhookEvent, { name: N }> => e.name === name && e.channel === channel);

async function joinPresence(channel: string, userId: string): Promise<RawSocket> {
  const socket = await box.connect();
  const auth = await server.authorizeChannel(socket.socketId, channel, { user_id: userId });
  expect((await socket.subscribe(channel, auth)).event).toBe('pusher_internal:subscription_succeeded');
  return socket;
}

describe('webhooks from the emulator, verified by verifyWebhook', () => {
  it('channel_occupied and channel_vacated, signed with the app secret and content-type JSON', async () => {
    const socket = await box.connect();
    await socket.subscribe('hooked');
    socket.unsubscribe('hooked');
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    await settled();
    expect(named('channel_occupied', 'hooked')).toHaveLength(1);
    expect(named('channel_vacated', 'hooked')).toHaveLength(1);
    const sample = receiver.received.find((r) => r.rawBody.includes('"hooked"'))!;
    expect(sample.headers['content-type']).toMatch(/^application\/json/);
    expect(sample.headers['x-pusher-key']).toBe(box.rt.key);
    expect(sample.status).toBe(200);
  });

  it('member_added and member_removed: once per user, not per connection', async () => {
    const ann = await joinPresence('presence-hooks', 'ann');
    const annAgain = await joinPresence('presence-hooks', 'ann');
    const bob = await joinPresence('presence-hooks', 'bob');
    await settled();
    expect(
      named('member_added', 'presence-hooks')
        .map((e) => e.user_id)
        .sort(),
    ).toEqual(['ann', 'bob']);
    const subscriptions = () => box.rt.channels().find((c) => c.name === 'presence-hooks')?.subscriptionCount;
    annAgain.close();
    // ann's second connection is gone (ann stays a member through the first) before bob leaves.
    await waitFor(() => subscriptions() === 2);
    bob.close();
    await ann.next('pusher_internal:member_removed');
    await settled();
    expect(named('member_removed', 'presence-hooks').map((e) => e.user_id)).toEqual(['bob']);
  });

  it('client_event: the event, data, socket_id, and user_id on presence channels', async () => {
    const sender = await box.connect();
    const auth = await server.authorizeChannel(sender.socketId, 'private-typing');
    await sender.subscribe('private-typing', auth);
    sender.send({ event: 'client-typing', channel: 'private-typing', data: { who: 'me' } });
    const member = await joinPresence('presence-typing', 'carol');
    member.send({ event: 'client-wave', channel: 'presence-typing', data: { hand: 'left' } });
    // Client events are sent back to nobody; a ping after them tells when both were read.
    for (const socket of [sender, member]) {
      socket.send({ event: 'pusher:ping', data: {} });
      await socket.next('pusher:pong');
    }
    await settled();
    const [typing] = named('client_event', 'private-typing');
    expect(typing).toMatchObject({ event: 'client-typing', socket_id: sender.socketId });
    expect(JSON.parse(typing!.data as string)).toEqual({ who: 'me' });
    expect(typing!.user_id).toBeUndefined();
    const [wave] = named('client_event', 'presence-typing');
    expect(wave).toMatchObject({ event: 'client-wave', socket_id: member.socketId, user_id: 'carol' });
  });

  it('cache_miss and subscription_count', async () => {
    const first = await box.connect();
    await first.subscribe('cache-hooks');
    const second = await box.connect();
    await second.subscribe('cache-hooks');
    await settled();
    expect(named('cache_miss', 'cache-hooks').length).toBeGreaterThanOrEqual(1);
    const counts = named('subscription_count', 'cache-hooks').map((e) => e.subscription_count);
    expect(counts).toContain(2);
  });

  it('refuses a forged or altered webhook, and another app’s', async () => {
    const genuine = receiver.received.find((r) => r.status === 200 && r.rawBody.includes('channel_'))!;
    const headers = { ...genuine.headers } as Record<string, string>;
    const altered = genuine.rawBody.replace(/"channel":"[^"]*"/, '"channel":"private-admin"');
    await expect(server.verifyWebhook(altered, headers)).rejects.toMatchObject({ reason: 'bad_signature' });
    // Posted to the handler by someone who knows the key but not the secret: answered 401.
    const body = JSON.stringify({
      time_ms: Date.now(),
      events: [{ name: 'channel_occupied', channel: 'x' }],
    });
    const forged = {
      'content-type': 'application/json',
      'x-pusher-key': box.rt.key,
      'x-pusher-signature': createHmac('sha256', 'guessed-secret').update(body).digest('hex'),
    };
    const answer = await fetch(receiver.url, { method: 'POST', headers: forged, body });
    expect(answer.status).toBe(401);
    expect(refused.at(-1)?.reason).toBe('bad_signature');
    expect(verified.some((e) => e.channel === 'x')).toBe(false);
    // The emulator's webhooks for the other app reach the receiver, which refuses them: unknown key.
    const before = box.rt.stats().webhooks;
    const other = await box.connect('other-key');
    await other.subscribe('other-channel');
    await settled();
    const after = box.rt.stats().webhooks;
    expect(after.abandoned - before.abandoned).toBe(1);
    expect(after.failedAttempts - before.failedAttempts).toBe(2);
    expect(refused.at(-1)?.reason).toBe('unknown_key');
    expect(verified.some((e) => e.channel === 'other-channel')).toBe(false);
  });
});
