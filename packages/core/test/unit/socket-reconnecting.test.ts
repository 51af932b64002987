/**
 * The reconnecting socket with a hand-driven clock and sockets the test plays the server for: every
 * transition, verdict and heartbeat step, the network hints, and that nothing is left hanging on close.
 * Over real sockets: test/integration/socket-lifecycle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { untilConnected } from '../../src/socket/index.js';
import { FakeSocket, flush, lineSetup } from '../helpers/socket-fakes.js';

describe('ReconnectingSocket: states', () => {
  it('initialized -> connecting -> connected, with per-state events, one URL per attempt, the session id', async () => {
    const t = lineSetup();
    const named: string[] = [];
    t.socket.events.bind('connecting', () => named.push('connecting'));
    t.socket.events.bind('connected', () => named.push('connected'));
    expect(t.socket.state).toBe('initialized');
    t.socket.connect();
    expect(t.socket.state).toBe('connecting');
    await flush();
    expect(t.last().url).toBe('ws://fake/?token=t1');
    t.last().frame('hello s1');
    expect(t.states).toEqual(['connecting', 'connected']);
    expect(named).toEqual(['connecting', 'connected']);
    expect(t.socket.socketId).toBe('s1');
    expect(t.socket.say('x')).toBe(true);
    expect(t.last().sent).toEqual(['x']);
  });

  it('connect() is a no-op while connecting or connected; disconnect() is idempotent and leaves no timer', async () => {
    const t = lineSetup();
    t.socket.connect();
    t.socket.connect();
    await flush();
    t.last().frame('hello s1');
    t.socket.connect();
    await flush();
    expect(t.sockets).toHaveLength(1);
    t.socket.disconnect();
    t.socket.disconnect();
    expect(t.states).toEqual(['connecting', 'connected', 'disconnected']);
    expect(t.sockets[0]?.closedWith).toEqual({ code: 1000, reason: 'client disconnect' });
    expect(t.socket.socketId).toBeNull();
    expect(t.socket.say('late')).toBe(false);
    expect(t.clock.pending).toBe(0);
  });

  it('ignores frames and closes from a socket it already dropped', async () => {
    const t = lineSetup();
    const lines: string[] = [];
    t.socket.events.bind('line', (line) => lines.push(line));
    t.socket.connect();
    await flush();
    const first = t.last();
    first.frame('hello s1');
    first.serverClose(1006);
    t.clock.advance(30_000);
    await flush();
    expect(t.sockets).toHaveLength(2);
    first.onmessage?.({ data: 'stale' });
    first.onclose?.({ code: 1006, reason: '' });
    expect(lines).toEqual([]);
    expect(t.socket.state).toBe('connecting');
  });

  it('a connect timeout drops the socket (terminated) and backs off as a close 1006', async () => {
    const t = lineSetup({ connectTimeoutMs: 2000 });
    const delays: number[] = [];
    t.socket.events.bind('connecting_in', (ms) => delays.push(ms));
    t.socket.connect();
    await flush();
    t.clock.advance(1999);
    expect(t.socket.state).toBe('connecting');
    t.clock.advance(1);
    expect(t.last().terminated).toBe(true);
    expect(t.socket.closes.map((c) => c.close)).toEqual([{ code: 1006, reason: 'connect timeout' }]);
    expect(t.socket.state).toBe('unavailable');
    expect(delays).toEqual([500]);
    expect(t.logged).toContain('warn no handshake in 2000 ms');
  });

  it('closes a socket it cannot terminate with dropCode, and only with a code a browser accepts', async () => {
    FakeSocket.canTerminate = false;
    try {
      const t = lineSetup({ connectTimeoutMs: 100 });
      t.socket.connect();
      await flush();
      t.clock.advance(100);
      expect(t.last().closedWith).toEqual({ code: 1000, reason: 'connect timeout' });
      t.clock.advance(10_000);
      await flush();
      t.last().frame('hello s2');
      // 4201 may be sent; 1006 may not (browsers throw), so it goes as 1000.
      t.clock.advance(1500);
      expect(t.sockets[1]?.closedWith).toEqual({ code: 4201, reason: 'no pong' });
    } finally {
      FakeSocket.canTerminate = true;
    }
  });
});

describe('ReconnectingSocket: verdicts', () => {
  async function connected(setup = lineSetup()) {
    setup.socket.connect();
    await flush();
    setup.last().frame('hello s1');
    return setup;
  }

  it("'backoff' grows with each consecutive failure (full jitter) and never fails", async () => {
    const t = lineSetup({ backoff: { baseDelayMs: 1000, maxDelayMs: 8000 } });
    const delays: number[] = [];
    t.socket.events.bind('connecting_in', (ms) => delays.push(ms));
    t.socket.connect();
    for (let i = 0; i < 6; i += 1) {
      await flush();
      t.last().serverClose(1006);
      t.clock.advance(10_000);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    expect(t.states).not.toContain('failed');
  });

  it('a number is a floor: back off, but never sooner than that', async () => {
    const t = await connected();
    t.socket.verdict = () => 1000;
    const delays: number[] = [];
    t.socket.events.bind('connecting_in', (ms) => delays.push(ms));
    t.last().serverClose(4100);
    expect(delays).toEqual([1000]);
    t.clock.advance(999);
    await flush();
    expect(t.sockets).toHaveLength(1);
    t.clock.advance(1);
    await flush();
    expect(t.sockets).toHaveLength(2);
  });

  it("'retry' reopens at once the first time; again before the link was stable, it backs off", async () => {
    const t = await connected(lineSetup({ activityTimeoutMs: undefined }));
    t.socket.verdict = () => 'retry';
    t.clock.advance(500);
    t.last().serverClose(4200);
    expect(t.socket.state).toBe('connecting');
    await flush();
    t.last().frame('hello s2');
    t.last().serverClose(4200);
    expect(t.socket.state).toBe('unavailable');
    // A connection that lasted 10 s resets the count: at once again.
    t.clock.advance(60_000);
    await flush();
    t.last().frame('hello s3');
    t.clock.advance(10_000);
    t.last().serverClose(4200);
    expect(t.socket.state).toBe('connecting');
  });

  it("'now' reopens at once without counting a failure", async () => {
    const t = await connected();
    const delays: number[] = [];
    t.socket.events.bind('connecting_in', (ms) => delays.push(ms));
    t.socket.verdict = () => 'now';
    t.last().serverClose(4000);
    await flush();
    t.socket.verdict = () => 'backoff';
    t.last().serverClose(1006);
    expect(delays).toEqual([500]);
  });

  it('{ fail } ends it: error event, failure, state failed, no timer, and connect() starts again', async () => {
    const t = await connected();
    const refusal = new Error('refused');
    t.socket.verdict = () => ({ fail: refusal });
    const errors: unknown[] = [];
    t.socket.events.bind('error', (error) => errors.push(error));
    t.last().serverClose(4001, 'no such app');
    expect(t.socket.state).toBe('failed');
    expect(errors).toEqual([refusal]);
    expect(t.socket.failure).toBe(refusal);
    expect(t.clock.pending).toBe(0);
    expect(t.socket.closes.at(-1)).toEqual({
      close: { code: 4001, reason: 'no such app' },
      wasConnected: true,
      errorEvent: undefined,
    });
    t.socket.connect();
    await flush();
    expect(t.sockets).toHaveLength(2);
  });

  it('a throwing url() or factory asks openFailed: fail by default here, or back off', async () => {
    const t = lineSetup({
      factory: () => {
        throw new Error('no sockets');
      },
    });
    t.socket.connect();
    await flush();
    expect(t.socket.state).toBe('failed');
    expect((t.socket.failure as Error).message).toBe('no sockets');
    const u = lineSetup({
      factory: async () => {
        throw new Error('token endpoint down');
      },
    });
    u.socket.onOpenFailed = () => 'backoff';
    u.socket.connect();
    await flush();
    expect(u.socket.state).toBe('unavailable');
    u.clock.advance(500);
    await flush();
    expect(u.socket.urls).toBe(2);
  });

  it('hands the socket error event that came before a close to classify', async () => {
    const t = lineSetup();
    t.socket.connect();
    await flush();
    t.last().onerror?.({ error: { code: 'EPROTO' } });
    t.last().serverClose(1006);
    expect(t.socket.closes[0]).toMatchObject({
      wasConnected: false,
      errorEvent: { error: { code: 'EPROTO' } },
    });
  });
});

describe('ReconnectingSocket: heartbeat', () => {
  async function connected(options = {}) {
    const t = lineSetup(options);
    t.socket.connect();
    await flush();
    t.last().frame('hello s1');
    return t;
  }

  it('pings after activityMs of silence; no answer within pongTimeoutMs is dead, and it reconnects', async () => {
    const t = await connected({ activityTimeoutMs: 1000, pongTimeoutMs: 500 });
    t.clock.advance(999);
    expect(t.last().sent).toEqual([]);
    t.clock.advance(1);
    expect(t.last().sent).toEqual(['ping']);
    t.clock.advance(499);
    expect(t.socket.state).toBe('connected');
    t.clock.advance(1);
    expect(t.socket.deaths).toBe(1);
    expect(t.sockets[0]?.terminated).toBe(true);
    expect(t.socket.closes.map((c) => c.close)).toEqual([{ code: 4201, reason: 'no pong' }]);
    expect(t.logged).toContain('warn no pong in 500 ms');
  });

  it('any traffic is the answer and restarts the clock', async () => {
    const t = await connected({ activityTimeoutMs: 1000, pongTimeoutMs: 500 });
    t.clock.advance(1000);
    t.clock.advance(400);
    t.last().frame('pong');
    t.clock.advance(999);
    expect(t.last().sent).toEqual(['ping']);
    t.clock.advance(1);
    expect(t.last().sent).toEqual(['ping', 'ping']);
    expect(t.socket.deaths).toBe(0);
  });

  it('without pongTimeoutMs it only pings, every activityMs while nothing comes (a keep-alive)', async () => {
    const t = await connected({ activityTimeoutMs: 1000, pongTimeoutMs: undefined });
    t.clock.advance(3500);
    expect(t.socket.pings).toBe(3);
    t.last().frame('data');
    t.clock.advance(999);
    expect(t.socket.pings).toBe(3);
    t.clock.advance(1);
    expect(t.socket.pings).toBe(4);
    expect(t.socket.state).toBe('connected');
    expect(t.clock.pending).toBe(1);
  });

  it('without activityTimeoutMs there is no heartbeat, and no timer while connected', async () => {
    const t = await connected({ activityTimeoutMs: undefined });
    expect(t.clock.pending).toBe(0);
    t.clock.advance(1_000_000);
    expect(t.socket.pings).toBe(0);
  });
});

describe('ReconnectingSocket: network hints', () => {
  it('offline drops the socket and schedules a retry; online retries at once', async () => {
    const t = lineSetup();
    t.socket.connect();
    await flush();
    t.last().frame('hello s1');
    t.socket.offline();
    expect(t.socket.state).toBe('unavailable');
    expect(t.socket.socketId).toBeNull();
    expect(t.sockets[0]?.terminated).toBe(true);
    t.socket.online();
    expect(t.socket.state).toBe('connecting');
    await flush();
    expect(t.sockets).toHaveLength(2);
    // Neither does anything while no connection is wanted.
    t.socket.disconnect();
    t.socket.online();
    t.socket.offline();
    expect(t.socket.state).toBe('disconnected');
  });
});

describe('untilConnected and disconnect(): nothing is left hanging', () => {
  const reason = (state: string) => new Error(`ended ${state}`);

  it('resolves on connected, through retries', async () => {
    const t = lineSetup();
    t.socket.connect();
    const ready = untilConnected(t.socket, reason);
    await flush();
    t.last().serverClose(1006);
    t.clock.advance(1000);
    await flush();
    t.last().frame('hello s2');
    await expect(ready).resolves.toBeUndefined();
    await expect(untilConnected(t.socket, reason)).resolves.toBeUndefined();
  });

  it('rejects on failed, on disconnect(), and at once before connect()', async () => {
    const t = lineSetup();
    await expect(untilConnected(t.socket, reason)).rejects.toThrow('ended initialized');
    t.socket.verdict = () => ({ fail: new Error('refused') });
    t.socket.connect();
    const failing = untilConnected(t.socket, reason);
    await flush();
    t.last().serverClose(4001);
    await expect(failing).rejects.toThrow('ended failed');
    t.socket.connect();
    const closing = untilConnected(t.socket, reason);
    t.socket.disconnect();
    await expect(closing).rejects.toThrow('ended disconnected');
  });

  it('a url() still in flight at disconnect() opens nothing when it resolves', async () => {
    const t = lineSetup();
    let release = () => {};
    t.socket.urlGate = new Promise((resolve) => {
      release = resolve;
    });
    t.socket.connect();
    const ready = untilConnected(t.socket, reason);
    await flush();
    t.socket.disconnect();
    release();
    await flush();
    expect(t.sockets).toHaveLength(0);
    expect(t.socket.state).toBe('disconnected');
    expect(t.clock.pending).toBe(0);
    await expect(ready).rejects.toThrow('ended disconnected');
  });

  it('a listener that throws is logged and does not stop the machine', async () => {
    const t = lineSetup();
    t.socket.events.bind('connected', () => {
      throw new Error('app bug');
    });
    t.socket.connect();
    await flush();
    t.last().frame('hello s1');
    expect(t.socket.state).toBe('connected');
    expect(t.logged).toContain('error a "connected" callback threw');
  });
});
