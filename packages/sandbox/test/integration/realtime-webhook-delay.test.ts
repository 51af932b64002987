/**
 * member_removed and channel_vacated webhooks wait as Pusher's do (3 s by default; "If a user disconnects and
 * then reconnects within 3 seconds, neither event will be delivered via webhook",
 * https://docs.bird.com/pusher/channels/channels/webhooks/why-is-my-server-not-receiving-webhooks-channels).
 * Nothing here is timed: "within the delay" uses a delay of a minute (the return certainly comes first) and
 * `idle()` then sends what is still pending; "after the delay" uses a tiny delay and waits for the webhook
 * itself. Every POST is checked with the official server SDK's `webhook().isValid()`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeEmulator, type Sandbox, startSandbox } from '../../src/index.js';
import { TestSocket, waitFor } from '../helpers/realtime.js';

interface Hook {
  path: string;
  name: string;
  channel: string;
  user_id?: string;
}

const APP = { appId: '950', key: 'delay-key', secret: 'delay-secret' };
let receiver: http.Server;
const hooks: Hook[] = [];
let slow: Sandbox<false>;
let quick: Sandbox<false>;
let verifier: PusherServer;
let invalid = 0;

async function sandbox(path: string, leaveDelayMs: number): Promise<Sandbox<false>> {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
  return startSandbox({
    store: false,
    realtime: { apps: [{ ...APP, webhooks: { url } }], webhooks: { leaveDelayMs } },
  });
}

beforeAll(async () => {
  verifier = new PusherServer({ ...APP, host: '127.0.0.1' });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const hook = verifier.webhook({ headers: req.headers, rawBody });
      if (!hook.isValid()) invalid += 1;
      for (const e of hook.getEvents() as Omit<Hook, 'path'>[]) hooks.push({ path: req.url!, ...e });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  slow = await sandbox('/slow', 60_000);
  quick = await sandbox('/quick', 5);
});

afterAll(async () => {
  await slow?.close();
  await quick?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  expect(invalid).toBe(0);
});

const count = (path: string, name: string, channel: string, userId?: string) =>
  hooks.filter(
    (h) =>
      h.path === path &&
      h.name === name &&
      h.channel === channel &&
      (userId === undefined || h.user_id === userId),
  ).length;

async function member(box: Sandbox<false>, channel: string, userId: string): Promise<TestSocket> {
  const s = await TestSocket.connect(box.realtime!.wsUrl, APP.key);
  const answer = await s.subscribe(channel, { ...APP, channelData: JSON.stringify({ user_id: userId }) });
  expect(answer.event).toBe('pusher_internal:subscription_succeeded');
  return s;
}

const gone = (box: Sandbox<false>, channel: string) => () =>
  box.realtime!.channels().every((c) => c.name !== channel);

describe('delayed leave webhooks', () => {
  it('a member who leaves and rejoins within the delay: no member_removed, no second member_added', async () => {
    const first = await member(slow, 'presence-blip', 'ann');
    first.close();
    // The leave is processed (the channel is empty, its webhooks pending) before ann comes back.
    await waitFor(gone(slow, 'presence-blip'));
    const again = await member(slow, 'presence-blip', 'ann');
    await slow.realtime!.idle();
    expect(count('/slow', 'member_added', 'presence-blip', 'ann')).toBe(1);
    expect(count('/slow', 'member_removed', 'presence-blip', 'ann')).toBe(0);
    expect(count('/slow', 'channel_occupied', 'presence-blip')).toBe(1);
    expect(count('/slow', 'channel_vacated', 'presence-blip')).toBe(0);
    again.close();
    await waitFor(gone(slow, 'presence-blip'));
    await slow.realtime!.idle();
    expect(count('/slow', 'member_removed', 'presence-blip', 'ann')).toBe(1);
    expect(count('/slow', 'channel_vacated', 'presence-blip')).toBe(1);
    // Each event is its own POST (Pusher's unbatched default), so only the earlier idle() orders them.
    const order = hooks.filter((h) => h.path === '/slow' && h.channel === 'presence-blip').map((h) => h.name);
    expect(order.slice(0, 2)).toEqual(['channel_occupied', 'member_added']);
    expect(order.slice(2).sort()).toEqual(['channel_vacated', 'member_removed']);
  });

  it('a channel re-occupied within the delay produces no vacated/occupied pair', async () => {
    const a = await TestSocket.connect(slow.realtime!.wsUrl, APP.key);
    await a.subscribe('reoccupied');
    a.send({ event: 'pusher:unsubscribe', data: { channel: 'reoccupied' } });
    await waitFor(gone(slow, 'reoccupied'));
    const b = await TestSocket.connect(slow.realtime!.wsUrl, APP.key);
    await b.subscribe('reoccupied');
    await slow.realtime!.idle();
    expect(count('/slow', 'channel_occupied', 'reoccupied')).toBe(1);
    expect(count('/slow', 'channel_vacated', 'reoccupied')).toBe(0);
    a.close();
    b.close();
  });

  it('another member leaving within the delay is still removed once', async () => {
    const stays = await member(slow, 'presence-pair', 'bea');
    const leaves = await member(slow, 'presence-pair', 'cy');
    leaves.close();
    await stays.next('pusher_internal:member_removed');
    const other = await member(slow, 'presence-pair', 'dee');
    await slow.realtime!.idle();
    expect(count('/slow', 'member_removed', 'presence-pair', 'cy')).toBe(1);
    expect(count('/slow', 'member_added', 'presence-pair', 'dee')).toBe(1);
    stays.close();
    other.close();
  });

  it('a return after the delay: exactly one member_removed, then member_added again', async () => {
    const first = await member(quick, 'presence-late', 'eve');
    first.close();
    await waitFor(() => count('/quick', 'member_removed', 'presence-late', 'eve') === 1);
    await waitFor(() => count('/quick', 'channel_vacated', 'presence-late') === 1);
    const again = await member(quick, 'presence-late', 'eve');
    await quick.realtime!.idle();
    expect(count('/quick', 'member_removed', 'presence-late', 'eve')).toBe(1);
    expect(count('/quick', 'member_added', 'presence-late', 'eve')).toBe(2);
    expect(count('/quick', 'channel_occupied', 'presence-late')).toBe(2);
    again.close();
  });
});

describe('leave delay setting', () => {
  it('takes 0 (no delay) and refuses a negative or fractional one, naming it', () => {
    expect(() => createRealtimeEmulator({ webhooks: { leaveDelayMs: 0 } })).not.toThrow();
    for (const bad of [-1, 0.5, Number.POSITIVE_INFINITY, '3000' as unknown as number]) {
      expect(() => createRealtimeEmulator({ webhooks: { leaveDelayMs: bad } })).toThrow(
        /webhooks\.leaveDelayMs/,
      );
    }
  });
});
