/**
 * The client's frame handling, fuzzed: a `ws` server on port 0 plays Pusher to one connected client
 * subscribed to a public, a private, a presence and an encrypted channel, then sends random frames: JSON of
 * any depth, wrong types for event, channel and data, deeply nested `data` strings, binary frames, non-JSON,
 * `pusher:error` with random codes, `subscription_succeeded` with garbage presence data, member events and
 * signin answers with garbage. After each input the server pings; the client must answer (it is alive and
 * processed the frames in order), stay in a valid state, and never throw out of a callback or the socket.
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WS, { type WebSocket, WebSocketServer } from 'ws';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { ConnectionStates, RealtimeClient, type SocketLike } from '../../src/index.js';

const CHANNELS = ['fuzz', 'private-fuzz', 'presence-fuzz', 'private-encrypted-fuzz'];
const KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i)));

let wss: WebSocketServer;
let current: WebSocket | null = null;
let pongs = 0;
let connections = 0;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

function greet(ws: WebSocket): void {
  current = ws;
  connections++;
  ws.on('message', (raw) => {
    let frame: { event?: string; data?: { channel?: string } } = {};
    try {
      frame = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (frame.event === 'pusher:pong') pongs++;
    else if (frame.event === 'pusher:ping') ws.send('{"event":"pusher:pong","data":"{}"}');
    else if (frame.event === 'pusher:subscribe') {
      const channel = frame.data?.channel;
      const data = channel?.startsWith('presence-')
        ? { presence: { ids: ['me'], hash: { me: { name: 'me' } }, count: 1 } }
        : {};
      ws.send(
        JSON.stringify({
          event: 'pusher_internal:subscription_succeeded',
          channel,
          data: JSON.stringify(data),
        }),
      );
    }
  });
  ws.send(
    JSON.stringify({
      event: 'pusher:connection_established',
      data: '{"socket_id":"1.1","activity_timeout":120}',
    }),
  );
}

let client: RealtimeClient;

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', greet);
  client = new RealtimeClient('fuzz-key', {
    wsHost: '127.0.0.1',
    wsPort: (wss.address() as AddressInfo).port,
    forceTLS: false,
    webSocketFactory: (url) => new WS(url) as unknown as SocketLike,
    reconnect: { baseDelayMs: 5, maxDelayMs: 20 },
    channelAuthorization: {
      customHandler: async ({ channelName }) => ({
        auth: 'fuzz-key:00',
        ...(channelName.startsWith('presence-')
          ? { channel_data: '{"user_id":"me","user_info":{"name":"me"}}' }
          : {}),
        ...(channelName.startsWith('private-encrypted-') ? { shared_secret: KEY } : {}),
      }),
    },
    userAuthentication: { customHandler: async () => ({ auth: 'fuzz-key:00', user_data: '{"id":"me"}' }) },
  });
  client.connect();
  for (const name of CHANNELS) {
    // Touch whatever arrives, as an app would.
    client.subscribe(name).bindGlobal((event, data) => void `${event}${JSON.stringify(data)?.length}`);
  }
  void client.signin().catch(() => {});
  await Promise.all(CHANNELS.map((name) => client.channel(name)!.subscribed));
});
afterAll(async () => {
  client?.disconnect();
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

/** Pings the client and waits for its pong, on whatever socket it has by then; fails after `ms`. */
async function alive(ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  const before = pongs;
  let pinged: WebSocket | null = null;
  while (pongs === before) {
    if (Date.now() > deadline) throw new Error(`no pong within ${ms} ms (state ${client.connection.state})`);
    if (current && current !== pinged && current.readyState === 1) {
      pinged = current;
      current.send('{"event":"pusher:ping","data":"{}"}');
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const anyJson = fc.jsonValue({ maxDepth: 8 });
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object());
const event = fc.oneof(
  fc.constantFrom(
    'pusher:connection_established',
    'pusher:error',
    'pusher:ping',
    'pusher:pong',
    'pusher:subscription_count',
    'pusher:cache_miss',
    'pusher:signin_success',
    'pusher_internal:subscription_succeeded',
    'pusher_internal:member_added',
    'pusher_internal:member_removed',
    'pusher_internal:watchlist_events',
    'pusher:subscription_error',
    'client-typing',
    'order-shipped',
  ),
  fc.string({ maxLength: 20 }),
  wrongType,
);
const channel = fc.oneof(
  fc.constantFrom(...CHANNELS, '#server-to-user-me', ''),
  fc.string({ maxLength: 20 }),
  wrongType,
);
const depth = fc.integer({ min: 1, max: 20_000 });
const data = fc.oneof(
  anyJson.map((value) => JSON.stringify(value)),
  anyJson,
  depth.map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
  depth.map((d) => `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`),
  depth.map((d) => '['.repeat(d)),
  fc.record({ presence: fc.anything() }).map((value) => JSON.stringify(value) ?? '{}'),
  fc
    .record({ presence: fc.record({ ids: fc.anything(), hash: fc.anything(), count: fc.anything() }) })
    .map((value) => JSON.stringify(value) ?? '{}'),
  fc
    .record({ user_id: fc.anything(), user_info: fc.anything() })
    .map((value) => JSON.stringify(value) ?? '{}'),
  fc.record({ nonce: fc.string(), ciphertext: fc.string() }).map((value) => JSON.stringify(value)),
  fc.record({
    code: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
    message: fc.anything(),
  }),
  fc.record({
    socket_id: fc.oneof(fc.string(), wrongType),
    activity_timeout: fc.oneof(fc.integer({ min: 1 }), wrongType),
  }),
  wrongType,
);
/** One thing the server sends: a frame object, text that is not one, or bytes. */
const message = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ event, channel, data }, { requiredKeys: ['event'] }).map((f) => JSON.stringify(f)),
  },
  { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
);

for (const run of fuzzRuns(1000)) {
  it(`client frames ${run.label}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (messages) => {
        n++;
        const ws = current;
        for (const m of messages) ws?.send(m, { binary: typeof m !== 'string' });
        await alive();
        expect(Object.values(ConnectionStates)).toContain(client.connection.state);
        expect(uncaught).toEqual([]);
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('client frames', run, n);
    // Still working: still connected (frames cannot close it) and events still reach a channel.
    expect(client.connection.state).toBe('connected');
    const got = new Promise((resolve) => client.subscribe('fuzz').bind('after-fuzz', resolve));
    current!.send(JSON.stringify({ event: 'after-fuzz', channel: 'fuzz', data: '{"ok":true}' }));
    await expect(got).resolves.toEqual({ ok: true });
    expect(connections).toBeGreaterThanOrEqual(1);
  }, 120_000);
}
