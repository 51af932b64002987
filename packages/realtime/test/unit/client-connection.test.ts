/**
 * The connection state machine and the client around it, driven by a fake clock and fake sockets the
 * test plays the server for: every transition, timer and close code, with no network.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/client/clock.js';
import type { SocketLike } from '../../src/client/socket/websocket.js';
import { RealtimeClient, type RealtimeClientOptions, type StateChange } from '../../src/index.js';

/** A clock whose timers run only when the test advances it. */
class FakeClock implements Clock {
  time = 0;
  private timers: { id: number; at: number; callback: () => void }[] = [];
  private next = 1;

  now = (): number => this.time;
  setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.next++;
    this.timers.push({ id, at: this.time + ms, callback });
    return id;
  };
  clearTimeout = (handle: unknown): void => {
    this.timers = this.timers.filter((t) => t.id !== handle);
  };

  /** Runs every timer due within `ms`, in order, including timers they set. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const timer = this.timers[0];
      if (!timer || timer.at > end) break;
      this.timers.shift();
      this.time = timer.at;
      timer.callback();
    }
    this.time = end;
  }

  get pending(): number {
    return this.timers.length;
  }
}

/** A socket the test plays the server for. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: { event: string; data?: unknown; channel?: string }[] = [];
  closedWith: number | null = null;
  terminated = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number): void {
    this.closedWith = code ?? 1005;
  }
  terminate(): void {
    this.terminated = true;
  }

  /** Server → client, double-encoded as the real server does. */
  frame(event: string, data?: unknown, channel?: string): void {
    const frame: Record<string, unknown> = { event };
    if (data !== undefined) frame.data = typeof data === 'string' ? data : JSON.stringify(data);
    if (channel !== undefined) frame.channel = channel;
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  established(socketId = '123.456', activityTimeout = 120): void {
    this.readyState = 1;
    this.frame('pusher:connection_established', { socket_id: socketId, activity_timeout: activityTimeout });
  }

  serverClose(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

function socketFactory(): { sockets: FakeSocket[]; factory: (url: string) => FakeSocket } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  };
}

/** Lets awaited factory/auth promises settle. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
}

/** Lets every pending promise chain settle (an auth handler's takes more than `flush()`'s five turns). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function setup(options: RealtimeClientOptions = {}) {
  const clock = new FakeClock();
  const { sockets, factory } = socketFactory();
  const client = new RealtimeClient('app-key', {
    wsHost: 'localhost',
    wsPort: 6001,
    forceTLS: false,
    clock,
    random: () => 0.5,
    webSocketFactory: factory,
    channelAuthorization: {
      customHandler: async ({ channelName }) => ({ auth: `app-key:sig-${channelName}` }),
    },
    ...options,
  });
  const states: string[] = [];
  client.connection.bind('state_change', ({ current }: StateChange) => states.push(current));
  const last = () => sockets.at(-1) as FakeSocket;
  return { clock, sockets, client, states, last };
}

async function connected(options: RealtimeClientOptions = {}) {
  const t = setup(options);
  t.client.connect();
  await flush();
  t.last().established();
  return t;
}

describe('connection state machine', () => {
  it('initialized -> connecting -> connected, with per-state events and the socket id', async () => {
    const t = setup();
    expect(t.client.connection.state).toBe('initialized');
    let connectedEvents = 0;
    t.client.connection.bind('connected', () => connectedEvents++);
    t.client.connect();
    expect(t.client.connection.state).toBe('connecting');
    await flush();
    expect(t.last().url).toMatch(/^ws:\/\/localhost:6001\/app\/app-key\?protocol=7&client=js&version=/);
    t.last().established('1.2');
    expect(t.states).toEqual(['connecting', 'connected']);
    expect(connectedEvents).toBe(1);
    expect(t.client.connection.socketId).toBe('1.2');
  });

  it('connect() is idempotent while connecting or connected; disconnect() is idempotent', async () => {
    const t = await connected();
    t.client.connect();
    await flush();
    expect(t.sockets).toHaveLength(1);
    t.client.disconnect();
    t.client.disconnect();
    expect(t.states).toEqual(['connecting', 'connected', 'disconnected']);
    expect(t.sockets[0]?.closedWith).toBe(1000);
    t.clock.advance(120_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('pings after min(activityTimeout, server activity_timeout) of silence and reconnects when no pong comes', async () => {
    const t = setup({ activityTimeout: 120_000, pongTimeout: 30_000 });
    t.client.connect();
    await flush();
    t.last().established('1.1', 30);
    t.clock.advance(29_999);
    expect(t.last().sent).toEqual([]);
    t.clock.advance(1);
    expect(t.last().sent).toEqual([{ event: 'pusher:ping', data: {} }]);
    t.clock.advance(29_999);
    expect(t.client.connection.state).toBe('connected');
    t.clock.advance(1);
    expect(t.sockets[0]?.terminated).toBe(true);
    // First fault after a stable connection: 4201 means "reconnect at once".
    expect(t.client.connection.state).toBe('connecting');
    await flush();
    expect(t.sockets).toHaveLength(2);
  });

  it.each([0, -5, 0.0001, Number.NaN])(
    'ignores a server activity_timeout of %s instead of pinging in a busy loop',
    async (seconds) => {
      const t = setup({ activityTimeout: 10_000 });
      t.client.connect();
      await flush();
      t.last().readyState = 1;
      t.last().frame('pusher:connection_established', { socket_id: '1.1', activity_timeout: seconds });
      t.clock.advance(9_999);
      expect(t.last().sent).toEqual([]);
      t.clock.advance(1);
      expect(t.last().sent).toEqual([{ event: 'pusher:ping', data: {} }]);
    },
  );

  it('any frame counts as the pong and restarts the activity clock', async () => {
    const t = await connected({ activityTimeout: 1000, pongTimeout: 500 });
    t.clock.advance(1000);
    expect(t.last().sent.at(-1)?.event).toBe('pusher:ping');
    t.clock.advance(400);
    t.last().frame('pusher:pong', {});
    t.clock.advance(999);
    expect(t.client.connection.state).toBe('connected');
    expect(t.last().sent).toHaveLength(1);
  });

  it('answers a server ping with a pong', async () => {
    const t = await connected();
    t.last().frame('pusher:ping', {});
    expect(t.last().sent).toEqual([{ event: 'pusher:pong', data: {} }]);
  });

  it('4009 (4001-4099): failed with the close code, no reconnect', async () => {
    const t = await connected();
    const errors: unknown[] = [];
    t.client.connection.bind('error', (e) => errors.push(e));
    t.last().serverClose(4009, 'unauthorized');
    expect(t.client.connection.state).toBe('failed');
    expect(errors[0]).toMatchObject({ name: 'RealtimeError', closeCode: 4009 });
    t.clock.advance(600_000);
    expect(t.sockets).toHaveLength(1);
  });

  it('4100: unavailable, then a jittered backoff of at least 1 s', async () => {
    const t = await connected();
    const delays: number[] = [];
    t.client.connection.bind('connecting_in', (ms) => delays.push(ms));
    t.last().serverClose(4100);
    expect(t.client.connection.state).toBe('unavailable');
    expect(delays).toEqual([1000]); // random 0.5 of a 1 s step is 500, floored to the protocol's 1 s
    t.clock.advance(999);
    await flush();
    expect(t.sockets).toHaveLength(1);
    t.clock.advance(1);
    await flush();
    expect(t.sockets).toHaveLength(2);
    expect(t.client.connection.state).toBe('connecting');
  });

  it('4200: reconnects at once; a second 4200 before the link is stable backs off', async () => {
    const t = await connected();
    t.clock.advance(60_000);
    t.last().serverClose(4200);
    expect(t.client.connection.state).toBe('connecting');
    await flush();
    expect(t.sockets).toHaveLength(2);
    t.last().established();
    t.last().serverClose(4200);
    expect(t.client.connection.state).toBe('unavailable');
  });

  it('abnormal closes back off exponentially with full jitter and never fail', async () => {
    const t = setup({ reconnect: { baseDelayMs: 1000, maxDelayMs: 8000 } });
    const delays: number[] = [];
    t.client.connection.bind('connecting_in', (ms) => delays.push(ms));
    t.client.connect();
    for (let i = 0; i < 6; i += 1) {
      await flush();
      t.last().serverClose(1006);
      t.clock.advance(10_000);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(t.states).not.toContain('failed');
  });

  it('4000 switches to TLS and retries at once', async () => {
    const t = await connected({ wssPort: 6002 });
    t.last().serverClose(4000);
    await flush();
    expect(t.last().url).toMatch(/^wss:\/\/localhost:6002\/app\/app-key/);
  });

  it('an attempt without a handshake times out and backs off', async () => {
    const t = setup({ connectTimeout: 5000 });
    t.client.connect();
    await flush();
    t.clock.advance(5000);
    expect(t.sockets[0]?.terminated).toBe(true);
    expect(t.client.connection.state).toBe('unavailable');
  });

  it('a factory that throws fails the connection: there is no WebSocket to retry with', async () => {
    const t = setup({
      webSocketFactory: () => {
        throw new Error('no sockets here');
      },
    });
    t.client.connect();
    await flush();
    expect(t.client.connection.state).toBe('failed');
  });

  it('surfaces pusher:error as an error event with the code', async () => {
    const t = await connected();
    const errors: { code?: number }[] = [];
    t.client.connection.bind('error', (e) => errors.push(e));
    t.last().onmessage?.({ data: '{"event":"pusher:error","data":{"message":"rate limited","code":4301}}' });
    expect(errors[0]).toMatchObject({ code: 4301 });
  });
});

describe('channels over the state machine', () => {
  it('subscribes on connect, resubscribes after a drop, and signals the gap', async () => {
    const t = setup();
    const channel = t.client.subscribe('private-orders');
    const events: string[] = [];
    channel.bindGlobal((event) => events.push(event));
    t.client.connect();
    await flush();
    t.last().established('1.1');
    await flush();
    expect(t.last().sent).toEqual([
      { event: 'pusher:subscribe', data: { auth: 'app-key:sig-private-orders', channel: 'private-orders' } },
    ]);
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-orders');
    await expect(channel.subscribed).resolves.toBe(channel);
    t.clock.advance(20_000);
    t.last().serverClose(1006);
    expect(channel.isSubscribed).toBe(false);
    t.clock.advance(5_000);
    await flush();
    t.last().established('2.2');
    await flush();
    expect(t.last().sent[0]?.event).toBe('pusher:subscribe');
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-orders');
    expect(events).toEqual([
      'pusher:subscription_succeeded',
      'pusher:subscription_succeeded',
      'pusher:resubscribed',
    ]);
  });

  it('queues client events while reconnecting and sends them once subscribed', async () => {
    const t = await connected();
    const channel = t.client.subscribe('private-chat');
    await flush();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-chat');
    expect(channel.trigger('client-typing', { n: 1 })).toBe(true);
    expect(t.last().sent.at(-1)).toEqual({ event: 'client-typing', data: { n: 1 }, channel: 'private-chat' });
    t.last().serverClose(1006);
    expect(channel.trigger('client-typing', { n: 2 })).toBe(true);
    t.clock.advance(1000);
    await flush();
    t.last().established();
    await flush();
    expect(t.last().sent.map((f) => f.event)).toEqual(['pusher:subscribe']);
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-chat');
    expect(t.last().sent.at(-1)).toEqual({ event: 'client-typing', data: { n: 2 }, channel: 'private-chat' });
  });

  it('unsubscribe sends pusher:unsubscribe and ignores a late auth answer', async () => {
    const t = await connected();
    const channel = t.client.subscribe('public-news');
    await flush();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'public-news');
    channel.unsubscribe();
    expect(t.last().sent.at(-1)).toEqual({ event: 'pusher:unsubscribe', data: { channel: 'public-news' } });
    const slow = t.client.subscribe('private-slow');
    slow.unsubscribe();
    await flush();
    expect(t.last().sent.filter((f) => f.event === 'pusher:subscribe')).toHaveLength(1);
  });

  it('auth failures surface as pusher:subscription_error and reject subscribed', async () => {
    const t = await connected({
      channelAuthorization: {
        customHandler: async () => {
          throw new Error('nope');
        },
      },
    });
    const channel = t.client.subscribe('private-x');
    const errors: unknown[] = [];
    channel.bind('pusher:subscription_error', (e) => errors.push(e));
    await expect(channel.subscribed).rejects.toThrow(/subscription to private-x failed/);
    expect(errors).toEqual([{ type: 'AuthError', error: 'the auth handler threw: nope' }]);
  });

  it("Pusher's channel-less pusher:error refuses the pending channel its message names (the longest)", async () => {
    const t = await connected();
    const done = t.client.subscribe('private-a');
    await settle();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-a');
    const a = t.client.subscribe('private-ab');
    const b = t.client.subscribe('private-b');
    const refused = a.subscribed;
    await settle();
    const errors: unknown[] = [];
    a.bind('pusher:subscription_error', (e) => errors.push(e));
    // Real Pusher's bytes for a bad signature: no channel on the envelope, code null.
    t.last().onmessage?.({
      data: JSON.stringify({
        event: 'pusher:error',
        data: {
          code: null,
          message: 'Invalid signature: Expected HMAC SHA256 hex digest of 123.456:private-ab, but got 00',
        },
      }),
    });
    await expect(refused).rejects.toThrow(/private-ab failed: Invalid signature/);
    expect(errors).toEqual([{ type: 'AuthError', error: expect.stringMatching(/^Invalid signature/) }]);
    // Neither the subscribed `private-a` nor the other pending channel is blamed.
    expect(done.isSubscribed).toBe(true);
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-b');
    await expect(b.subscribed).resolves.toBe(b);
    // A later refusal naming no pending channel goes nowhere; the connection stays up.
    t.last().frame('pusher:error', { code: null, message: 'something about private-ab' });
    expect(t.client.connection.state).toBe('connected');
  });

  it('subscriptionTimeout: an unanswered subscribe fails typed after the timeout, not before', async () => {
    const t = await connected({ subscriptionTimeout: 5000 });
    const channel = t.client.subscribe('private-slow');
    const subscribed = channel.subscribed;
    const errors: unknown[] = [];
    channel.bind('pusher:subscription_error', (e) => errors.push(e));
    await settle();
    t.clock.advance(4999);
    expect(errors).toEqual([]);
    t.clock.advance(1);
    expect(errors).toEqual([{ type: 'SubscriptionTimeout', error: 'no answer in 5000 ms' }]);
    await expect(subscribed).rejects.toThrow(/no answer in 5000 ms/);
    // Subscribing again is the retry.
    t.client.subscribe('private-slow');
    await settle();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-slow');
    await expect(channel.subscribed).resolves.toBe(channel);
    t.clock.advance(10_000);
    expect(errors).toHaveLength(1);
  });
});

describe('a failed connection', () => {
  it('settles every channel: subscription_error ConnectionFailed with the close code, subscribed rejects', async () => {
    const t = setup();
    const orders = t.client.subscribe('private-orders');
    const waiting = orders.subscribed;
    const errors: unknown[] = [];
    orders.bind('pusher:subscription_error', (e) => errors.push(e));
    t.client.connect();
    await flush();
    t.last().serverClose(4001, 'no such app');
    expect(t.client.connection.state).toBe('failed');
    expect(errors).toEqual([
      { type: 'ConnectionFailed', error: 'connection refused: 4001 no such app', closeCode: 4001 },
    ]);
    await expect(waiting).rejects.toMatchObject({ cause: { type: 'ConnectionFailed', closeCode: 4001 } });
    // Asked for later, or for a channel subscribed while failed: rejected at once, not left hanging.
    await expect(orders.subscribed).rejects.toThrow(/4001/);
    await expect(t.client.subscribe('news').subscribed).rejects.toThrow(/4001/);
    // connect() is a new attempt: waiters wait for it, and the subscription succeeds.
    t.client.connect();
    const again = orders.subscribed;
    await flush();
    t.last().established();
    await settle();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-orders');
    await expect(again).resolves.toBe(orders);
  });

  it('settles a subscribe already sent (its subscriptionTimeout is cancelled) and one still authorizing', async () => {
    const gate: { release?: () => void } = {};
    const t = await connected({
      channelAuthorization: {
        customHandler: ({ channelName }) =>
          channelName === 'private-slow-auth'
            ? new Promise((resolve) => {
                gate.release = () => resolve({ auth: 'k:sig' });
              })
            : Promise.resolve({ auth: 'k:sig' }),
      },
    });
    const sent = t.client.subscribe('private-sent');
    const authorizing = t.client.subscribe('private-slow-auth');
    await settle();
    expect(t.last().sent.map((f) => f.event)).toEqual(['pusher:subscribe']);
    const results = Promise.allSettled([sent.subscribed, authorizing.subscribed]);
    t.last().serverClose(4009, 'terminated');
    const [a, b] = await results;
    expect(a).toMatchObject({ status: 'rejected', reason: { cause: { closeCode: 4009 } } });
    expect(b).toMatchObject({ status: 'rejected', reason: { cause: { closeCode: 4009 } } });
    // The late auth answer and the timeout that would have fired add nothing.
    const errors: unknown[] = [];
    sent.bind('pusher:subscription_error', (e) => errors.push(e));
    gate.release?.();
    await settle();
    t.clock.advance(60_000);
    expect(errors).toEqual([]);
  });

  it('without a WebSocket: ConnectionFailed, no close code', async () => {
    const t = setup({
      webSocketFactory: () => {
        throw new Error('no sockets here');
      },
    });
    const news = t.client.subscribe('news');
    t.client.connect();
    await flush();
    await expect(news.subscribed).rejects.toMatchObject({
      cause: { type: 'ConnectionFailed', error: 'cannot open a WebSocket: no sockets here' },
    });
  });

  it('disconnect() moves it to disconnected, and connect() after that connects', async () => {
    const t = await connected();
    t.last().serverClose(4009, 'terminated');
    t.client.disconnect();
    expect(t.client.connection.state).toBe('disconnected');
    expect(t.states).toEqual(['connecting', 'connected', 'failed', 'disconnected']);
    t.client.connect();
    await flush();
    t.last().established('9.9');
    expect(t.client.connection.state).toBe('connected');
    expect(t.sockets).toHaveLength(2);
  });
});

describe('user watchlist', () => {
  it('bind / unbind online and offline, like the rest of the API', async () => {
    const t = await connected();
    const seen: string[][] = [];
    const onOnline = ({ user_ids }: { user_ids: string[] }) => seen.push(user_ids);
    expect(t.client.user.watchlist.bind('online', onOnline)).toBe(t.client.user.watchlist);
    const frame = (name: string, ids: string[]) =>
      t.last().frame('pusher_internal:watchlist_events', { events: [{ name, user_ids: ids }] });
    frame('online', ['u1', 'u2']);
    frame('offline', ['u3']);
    t.client.user.watchlist.unbind('online', onOnline);
    frame('online', ['u4']);
    expect(seen).toEqual([['u1', 'u2']]);
  });
});

describe('logLevel', () => {
  function lines(logLevel?: RealtimeClientOptions['logLevel']) {
    const out: string[] = [];
    const log = (level: string) => (message: string) => out.push(`${level} ${message}`);
    const t = setup({
      logLevel,
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    });
    t.client.connection.bind('connected', () => {
      throw new Error('boom');
    });
    t.client.connect();
    return { out, t };
  }

  it("defaults to 'warn': state changes (debug) are left out, a throwing callback (error) is not", async () => {
    const { out, t } = lines();
    await flush();
    t.last().established();
    expect(out).toEqual(['error [x/realtime] a "connected" callback threw']);
  });

  it("'debug' passes everything; 'off' nothing", async () => {
    const debug = lines('debug');
    await flush();
    debug.t.last().established();
    expect(debug.out).toContain('debug [x/realtime] state initialized -> connecting');
    expect(debug.out.at(-1)).toMatch(/^error /);
    const off = lines('off');
    await flush();
    off.t.last().established();
    expect(off.out).toEqual([]);
  });
});
