/**
 * Publishing with `RealtimeServer` against the sandbox's realtime emulator, over real sockets: each test
 * asserts what a raw `ws` subscriber actually receives. Channel auth comes from the SDK's own
 * `authorizeChannel`; encrypted events are opened with tweetnacl, the library pusher-js decrypts with.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { devApp, type RawSocket } from '../helpers/sandbox.js';
import { serverSandbox } from '../helpers/sandbox-hooks.js';

// Subscription counting on: Pusher answers `subscription_count` only for apps that enabled it.
const { box, server } = serverSandbox({ apps: [devApp({ subscriptionCounting: true })] });

/** A raw socket subscribed to `channel`, signed by the SDK when the channel needs it. */
async function subscriber(channel: string, userId?: string): Promise<RawSocket> {
  const socket = await box.connect();
  const needsAuth = /^(private-|presence-)/.test(channel);
  const auth = needsAuth
    ? await server.authorizeChannel(
        socket.socketId,
        channel,
        userId === undefined ? undefined : { user_id: userId, user_info: { name: userId } },
      )
    : {};
  const { shared_secret: _secret, ...sent } = auth as Record<string, string>;
  const answer = await socket.subscribe(channel, sent);
  expect(answer.event).toBe('pusher_internal:subscription_succeeded');
  return socket;
}

describe('trigger delivers to a raw subscriber', () => {
  it('public: the data is the JSON text the SDK encoded once', async () => {
    const socket = await subscriber('news');
    await server.trigger('news', 'headline', { title: 'hé', n: 1 });
    const got = await socket.next('headline');
    expect(got).toMatchObject({ channel: 'news', data: { title: 'hé', n: 1 } });
    expect(got.rawData).toBe('{"title":"hé","n":1}');
    await server.trigger('news', 'plain', 'not json');
    expect((await socket.next('plain')).rawData).toBe('not json');
  });

  it('private and presence channels, subscribed with authorizeChannel', async () => {
    const priv = await subscriber('private-orders');
    const pres = await subscriber('presence-lobby', 'ann');
    await server.trigger('private-orders', 'placed', { id: 7 });
    await server.trigger('presence-lobby', 'hello', ['a']);
    expect((await priv.next('placed')).data).toEqual({ id: 7 });
    const hello = await pres.next('hello');
    expect(hello).toMatchObject({ channel: 'presence-lobby', data: ['a'] });
    // Server events carry no user_id (only client events on presence channels do).
    expect(hello.user_id).toBeUndefined();
  });

  it('private-encrypted: only ciphertext on the wire, opened with the shared_secret of the authorization', async () => {
    const channel = 'private-encrypted-vault';
    const socket = await box.connect();
    const { shared_secret, ...auth } = await server.authorizeChannel(socket.socketId, channel);
    expect(shared_secret).toBeDefined();
    expect((await socket.subscribe(channel, auth)).event).toBe('pusher_internal:subscription_succeeded');
    await server.trigger(channel, 'secret', { pin: '1234', note: 'ü' });
    const got = await socket.next('secret');
    expect(Object.keys(got.data).sort()).toEqual(['ciphertext', 'nonce']);
    expect(String(got.rawData)).not.toContain('1234');
    const nacl = createRequire(createRequire(import.meta.url).resolve('pusher'))('tweetnacl');
    const plain = nacl.secretbox.open(
      Buffer.from(got.data.ciphertext, 'base64'),
      Buffer.from(got.data.nonce, 'base64'),
      Buffer.from(shared_secret!, 'base64'),
    );
    expect(plain).not.toBeNull();
    expect(JSON.parse(new TextDecoder().decode(plain))).toEqual({ pin: '1234', note: 'ü' });
  });

  it('cache channels: a late subscriber gets the last event, and channels.get shows it', async () => {
    const first = await subscriber('cache-score');
    expect((await first.next('pusher:cache_miss')).channel).toBe('cache-score');
    await server.trigger('cache-score', 'score', { home: 1 });
    await server.trigger('cache-score', 'score', { home: 2 });
    const late = await subscriber('cache-score');
    const replay = await late.next('score');
    expect(replay.data).toEqual({ home: 2 });
    expect(late.events('pusher:cache_miss')).toEqual([]);
    const info = await server.channels.get('cache-score', { info: 'cache' });
    expect(info.occupied).toBe(true);
    expect(info.cache?.data).toBe('{"home":2}');
    expect(info.cache?.ttl).toBeGreaterThan(0);
  });

  it('leaves out the socket_id given (the sender), and only that one', async () => {
    const sender = await subscriber('chat');
    const other = await subscriber('chat');
    await server.trigger('chat', 'said', 'hi', { socketId: sender.socketId });
    await server.trigger('chat', 'marker', 'done');
    // Delivery is in order per connection: once the marker is in, an excluded event would already be too.
    await sender.next('marker');
    await other.next('marker');
    expect(sender.events('said')).toEqual([]);
    expect(other.events('said').map((f) => f.data)).toEqual(['hi']);
  });

  it('to several channels in one call: each subscriber gets it once per channel it is in', async () => {
    const a = await subscriber('multi-a');
    const b = await subscriber('multi-b');
    await server.trigger(['multi-a', 'multi-b', 'multi-c'], 'fanout', { x: 1 });
    expect((await a.next('fanout')).channel).toBe('multi-a');
    expect((await b.next('fanout')).channel).toBe('multi-b');
    b.send({ event: 'pusher:subscribe', data: { channel: 'multi-c' } });
    await b.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === 'multi-c');
    await server.trigger(['multi-b', 'multi-c'], 'twice', 1);
    const twice = await b.waitForEvents('twice', 2);
    expect(twice.map((f) => f.channel).sort()).toEqual(['multi-b', 'multi-c']);
  });
});

describe('batches and coalescing', () => {
  it('triggerBatch of 25 events: 3 HTTP calls of at most 10, delivered in order', async () => {
    const socket = await subscriber('batch-room');
    const before = box.requests();
    const result = await server.triggerBatch(
      Array.from({ length: 25 }, (_, i) => ({ channel: 'batch-room', name: 'item', data: { i } })),
    );
    expect(result).toEqual({});
    expect(box.requests() - before).toBe(3);
    const items = await socket.waitForEvents('item', 25);
    expect(items.map((f) => f.data.i)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('single-channel triggers of one tick leave as batch_events: 30 triggers, 3 HTTP calls', async () => {
    const sockets = await Promise.all([0, 1, 2].map((n) => subscriber(`burst-${n}`)));
    const before = box.requests();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => server.trigger(`burst-${i % 3}`, 'tick', i)),
    );
    expect(results).toEqual(Array(30).fill({}));
    expect(box.requests() - before).toBe(3);
    for (const [n, socket] of sockets.entries()) {
      const ticks = await socket.waitForEvents('tick', 10);
      expect(ticks.map((f) => f.data)).toEqual(Array.from({ length: 10 }, (_, k) => k * 3 + n));
    }
    // With coalescing off each trigger is its own request.
    const plain = box.server({ coalesce: false });
    const mark = box.requests();
    await Promise.all(Array.from({ length: 5 }, (_, i) => plain.trigger('burst-0', 'solo', i)));
    expect(box.requests() - mark).toBe(5);
    expect((await sockets[0]!.waitForEvents('solo', 5)).length).toBe(5);
  });

  it('info attributes: user_count and subscription_count as the emulator counts them', async () => {
    const ann = await subscriber('presence-stats', 'ann');
    await subscriber('presence-stats', 'bob');
    // A second connection of ann: one more subscription, not one more user.
    await subscriber('presence-stats', 'ann');
    const sent = await server.trigger('presence-stats', 'counted', 1, {
      info: ['user_count', 'subscription_count'],
    });
    expect(sent).toEqual({ channels: { 'presence-stats': { user_count: 2, subscription_count: 3 } } });
    await ann.next('counted');
    const batch = await server.triggerBatch([
      { channel: 'presence-stats', name: 'b', data: 1, info: 'user_count' },
      { channel: 'presence-empty', name: 'b', data: 2, info: 'subscription_count' },
    ]);
    expect(batch).toEqual({ batch: [{ user_count: 2 }, { subscription_count: 0 }] });
  });
});
