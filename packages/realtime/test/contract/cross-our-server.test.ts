/**
 * Contract (c): OUR server SDK publishing to the official pusher-js (Node build) through the sandbox: every
 * channel kind, our encryption decrypted by pusher-js (with the official server's shared_secret too), batch
 * and coalesced triggers in order, sendToUser, terminateConnections (pusher-js sees 4009 and stays away),
 * and the emulator's webhooks verified by both `pusher.webhook().isValid()` and our `verifyWebhook`.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/server.js';
import { pjRecord, pjSignedIn, pjSubscribed } from '../helpers/cross.js';
import { waitFor } from '../helpers/sandbox.js';
import { crossSandbox } from '../helpers/sandbox-hooks.js';

const cross = crossSandbox();

describe('@x/realtime/server publishing to pusher-js', () => {
  it('public channel: JSON and plain-string data arrive as sent', async () => {
    const c = cross.pusherJs();
    await pjSubscribed(c, 'cross-public-c');
    const got = pjRecord(c, 'cross-public-c');
    await cross.ours.trigger('cross-public-c', 'greeting', { hello: 'world', n: [1, 2] });
    await cross.ours.trigger('cross-public-c', 'note', 'just a string');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([
      { event: 'greeting', channel: 'cross-public-c', data: { hello: 'world', n: [1, 2] } },
      { event: 'note', channel: 'cross-public-c', data: 'just a string' },
    ]);
  });

  it('private channel: pusher-js authorised by the official server gets our event', async () => {
    const c = cross.pusherJs({ id: 'p' }, 'official');
    await pjSubscribed(c, 'private-cross-c');
    const got = pjRecord(c, 'private-cross-c');
    await cross.ours.trigger('private-cross-c', 'order-shipped', { id: 'o-1' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ event: 'order-shipped', channel: 'private-cross-c', data: { id: 'o-1' } }]);
  });

  it('presence channel: members as pusher-js sees them and as our API lists them; events and client events', async () => {
    const alice = cross.pusherJs({ id: 'alice', info: { name: 'Alice' } });
    const bob = cross.pusherJs({ id: 'bob', info: { name: 'Bob' } }, 'official');
    const members = await pjSubscribed(alice, 'presence-cross-c');
    await pjSubscribed(bob, 'presence-cross-c');
    await waitFor(() => members.count === 2);
    expect(members.get('bob')).toEqual({ id: 'bob', info: { name: 'Bob' } });
    const listed = await cross.ours.channels.users('presence-cross-c');
    expect(listed.users.map((u) => u.id).sort()).toEqual(['alice', 'bob']);

    const aliceGot = pjRecord(alice, 'presence-cross-c', ['client-typing']);
    const bobGot = pjRecord(bob, 'presence-cross-c');
    await cross.ours.trigger('presence-cross-c', 'announcement', { text: 'hi all' });
    await waitFor(() => aliceGot.length === 1 && bobGot.length === 1);
    expect(bob.channel('presence-cross-c')!.trigger('client-typing', { on: true })).toBe(true);
    await waitFor(() => aliceGot.length === 2);
    expect(aliceGot).toEqual([
      { event: 'announcement', channel: 'presence-cross-c', data: { text: 'hi all' } },
      { event: 'client-typing', channel: 'presence-cross-c', data: { on: true }, userId: 'bob' },
    ]);
    expect(bobGot).toEqual([
      { event: 'announcement', channel: 'presence-cross-c', data: { text: 'hi all' } },
    ]);
  });

  it('encrypted channel: pusher-js decrypts our encryption, with our shared_secret or the official one', async () => {
    const viaOurs = cross.pusherJs({ id: 'e1' }, 'ours');
    const viaOfficial = cross.pusherJs({ id: 'e2' }, 'official');
    await Promise.all([
      pjSubscribed(viaOurs, 'private-encrypted-cross-c'),
      pjSubscribed(viaOfficial, 'private-encrypted-cross-c'),
    ]);
    const failures: unknown[] = [];
    for (const c of [viaOurs, viaOfficial])
      c.channel('private-encrypted-cross-c')!.bind('pusher:decryption_error', (e: unknown) =>
        failures.push(e),
      );
    const got = [
      pjRecord(viaOurs, 'private-encrypted-cross-c'),
      pjRecord(viaOfficial, 'private-encrypted-cross-c'),
    ];
    await cross.ours.trigger('private-encrypted-cross-c', 'secret', { code: 42, note: 'é ✓' });
    await cross.ours.trigger('private-encrypted-cross-c', 'secret-text', 'plain words');
    await waitFor(() => got.every((g) => g.length === 2));
    for (const g of got) {
      expect(g).toEqual([
        { event: 'secret', channel: 'private-encrypted-cross-c', data: { code: 42, note: 'é ✓' } },
        { event: 'secret-text', channel: 'private-encrypted-cross-c', data: 'plain words' },
      ]);
    }
    expect(failures).toEqual([]);
  });

  it('triggerBatch: 12 events over three channel kinds arrive in order (two calls of 10 and 2)', async () => {
    const c = cross.pusherJs();
    const names = ['cross-batch', 'private-cross-batch', 'private-encrypted-cross-batch'];
    await Promise.all(names.map((n) => pjSubscribed(c, n)));
    const got = names.map((n) => pjRecord(c, n));
    const before = cross.box.requests();
    const events = Array.from({ length: 12 }, (_, i) => ({
      channel: names[i % 3]!,
      name: 'step',
      data: { i },
    }));
    await cross.ours.triggerBatch(events);
    expect(cross.box.requests() - before).toBe(2);
    await waitFor(() => got.flat().length === 12);
    for (const [k, name] of names.entries()) {
      expect(got[k]).toEqual(
        events.filter((e) => e.channel === name).map((e) => ({ event: 'step', channel: name, data: e.data })),
      );
    }
  });

  it('coalesced triggers of one tick: fewer requests, every event, in call order', async () => {
    const c = cross.pusherJs();
    await Promise.all([
      pjSubscribed(c, 'cross-coalesce'),
      pjSubscribed(c, 'private-encrypted-cross-coalesce'),
    ]);
    const plain = pjRecord(c, 'cross-coalesce');
    const secret = pjRecord(c, 'private-encrypted-cross-coalesce');
    const before = cross.box.requests();
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        cross.ours.trigger(i % 5 === 4 ? 'private-encrypted-cross-coalesce' : 'cross-coalesce', 'tick', {
          i,
        }),
      ),
    );
    const requests = cross.box.requests() - before;
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(requests).toBeLessThan(15);
    await waitFor(() => plain.length === 12 && secret.length === 3);
    expect(plain.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13]);
    expect(secret.map((e) => (e.data as { i: number }).i)).toEqual([4, 9, 14]);
    expect(new Set([...plain, ...secret].map((e) => e.event))).toEqual(new Set(['tick']));
  });

  it('sendToUser reaches the signed-in pusher-js user, and no one else', async () => {
    const frank = cross.pusherJs({ id: 'frank', info: { name: 'Frank' } });
    const gina = cross.pusherJs({ id: 'gina' });
    await Promise.all([pjSignedIn(frank), pjSignedIn(gina)]);
    const toFrank: unknown[] = [];
    const toGina: unknown[] = [];
    frank.user.bind('direct', (data: unknown) => toFrank.push(data));
    gina.user.bind('direct', (data: unknown) => toGina.push(data));
    await cross.ours.sendToUser('frank', 'direct', { hi: 1 });
    await cross.ours.sendToUser('gina', 'direct', { hi: 2 });
    await waitFor(() => toFrank.length === 1 && toGina.length === 1);
    expect(toFrank).toEqual([{ hi: 1 }]);
    expect(toGina).toEqual([{ hi: 2 }]);
  });

  it('users.terminateConnections: pusher-js gets 4009, goes to disconnected, and does not reconnect', async () => {
    const c = cross.pusherJs({ id: 'erin' });
    await pjSignedIn(c);
    const errors: any[] = [];
    const states: string[] = [];
    c.connection.bind('error', (e: unknown) => errors.push(e));
    c.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
    const opened = cross.box.rt.stats().sockets.opened;
    await cross.ours.users.terminateConnections('erin');
    await waitFor(() => c.connection.state === 'disconnected');
    expect(errors).toContainEqual({
      type: 'PusherError',
      data: { code: 4009, message: expect.stringContaining('terminate') },
    });
    // pusher-js's protocol maps 4000..4099 to "refused": no retry. Longer than its 1 s backoff step.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(states).toEqual(['disconnected']);
    expect(c.connection.state).toBe('disconnected');
    expect(cross.box.rt.stats().sockets.opened).toBe(opened);
  });

  it('webhooks from the emulator: pusher.webhook().isValid() and our verifyWebhook agree on each delivery', async () => {
    // A member joins and leaves a presence channel, so member_removed and channel_vacated are posted too.
    const leaver = cross.pusherJs({ id: 'leaver' });
    await pjSubscribed(leaver, 'presence-cross-hooks');
    leaver.unsubscribe('presence-cross-hooks');
    await waitFor(() => cross.box.rt.channels().every((ch) => ch.name !== 'presence-cross-hooks'));
    await cross.box.rt.idle();
    expect(cross.deliveries.length).toBeGreaterThan(0);
    const names = new Set<string>();
    for (const delivery of cross.deliveries) {
      const theirs = cross.official.webhook({ headers: delivery.headers, rawBody: delivery.rawBody });
      expect(theirs.isValid()).toBe(true);
      const ours = await cross.ours.verifyWebhook(delivery.rawBody, delivery.headers, { maxAgeMs: 60_000 });
      expect(ours.unrecognized).toEqual([]);
      expect(ours.time_ms).toBe(theirs.getTime().getTime());
      expect(ours.events).toEqual(theirs.getEvents());
      for (const event of ours.events as WebhookEvent[]) names.add(event.name);
    }
    expect([...names]).toEqual(
      expect.arrayContaining([
        'channel_occupied',
        'channel_vacated',
        'member_added',
        'member_removed',
        'client_event',
        'subscription_count',
      ]),
    );

    // The same delivery with one byte changed: both refuse it.
    const [first] = cross.deliveries;
    const forged = { ...first!, rawBody: first!.rawBody.replace('"name"', '"nome"') };
    expect(forged.rawBody).not.toBe(first!.rawBody);
    expect(cross.official.webhook(forged).isValid()).toBe(false);
    await expect(cross.ours.verifyWebhook(forged.rawBody, forged.headers)).rejects.toMatchObject({
      name: 'WebhookVerificationError',
    });
  });
});
