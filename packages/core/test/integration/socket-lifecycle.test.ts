/**
 * The reconnecting socket over real sockets: a `ws` server on port 0 that greets (`hello <n>`), answers
 * `ping`, and misbehaves on request (terminates, refuses with a code, goes silent). The client side is `ws`
 * too, and once undici's WebSocket, which cannot terminate a socket. Waits are bounded; nothing asserts
 * a duration.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { WebSocket as UndiciWebSocket } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SocketConstructor, untilConnected, type WebSocketFactory } from '../../src/socket/index.js';
import { FakeClock, LineSocket } from '../helpers/socket-fakes.js';

/** The part of `ws`'s server API the peer uses. */
interface PeerSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
}
interface PeerServer {
  on(event: 'connection', listener: (socket: PeerSocket, request: { url?: string }) => void): void;
  once(event: 'listening', listener: () => void): void;
  address(): AddressInfo;
  clients: Set<PeerSocket>;
  close(callback: () => void): void;
}

// `ws` is a dependency of the packages that speak WebSocket, never of @x/core (installing a store client
// must not install it), so this test borrows the copy @x/realtime declares.
const ws = createRequire(new URL('../../../realtime/package.json', import.meta.url))('ws') as {
  WebSocket: SocketConstructor;
  WebSocketServer: new (options: { port: number; host: string }) => PeerServer;
};

class Peer {
  /** The URL of every connection, in order. */
  urls: string[] = [];
  /** The close code of every connection that ended, as the server saw it. */
  closes: number[] = [];
  /** Greet no new connection (say `wait` instead, so the test knows the socket is open). */
  silent = false;
  /** Close each new connection with this code instead of greeting it. */
  refuseWith: number | null = null;
  /** Connections that no longer answer pings: dead links as the client sees them. */
  private readonly muted = new Set<PeerSocket>();
  /** Connections of the current test: an earlier test's that end late are not counted. */
  private current = new Set<PeerSocket>();

  constructor(private readonly server: PeerServer) {
    server.on('connection', (socket, request) => {
      const current = this.current;
      current.add(socket);
      this.urls.push(request.url ?? '');
      socket.on('close', (code) => {
        if (current === this.current) this.closes.push(code);
      });
      if (this.refuseWith !== null) return socket.close(this.refuseWith, 'refused');
      socket.send(this.silent ? 'wait' : `hello ${this.urls.length}`);
      socket.on('message', (data) => {
        if (String(data) === 'ping' && !this.muted.has(socket)) socket.send('pong');
      });
    });
  }

  get base(): string {
    return `ws://127.0.0.1:${this.server.address().port}/`;
  }

  /** Forgets what earlier tests did to it. */
  reset(): void {
    for (const socket of this.server.clients) socket.terminate();
    this.current = new Set();
    this.urls = [];
    this.closes = [];
    this.silent = false;
    this.refuseWith = null;
    this.muted.clear();
  }

  terminateAll(): void {
    for (const socket of this.server.clients) socket.terminate();
  }

  /** The connections open now stop answering pings (new ones still do). */
  muteAll(): void {
    for (const socket of this.server.clients) this.muted.add(socket);
  }
}

let server: PeerServer;
let peer: Peer;
const live: LineSocket[] = [];

beforeAll(async () => {
  server = new ws.WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  peer = new Peer(server);
});
beforeEach(() => peer.reset());
afterEach(() => {
  for (const socket of live.splice(0)) socket.disconnect();
});
afterAll(async () => {
  for (const socket of server.clients) socket.terminate();
  await new Promise<void>((resolve) => server.close(resolve));
});

/** Polls until `check` holds; fails after `ms`, so a broken lifecycle ends the test instead of hanging it. */
async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function session(
  options: {
    Impl?: SocketConstructor;
    clock?: FakeClock;
    activityTimeoutMs?: number;
    random?: () => number;
  } = {},
) {
  const Impl = options.Impl ?? ws.WebSocket;
  let opened = 0;
  const factory: WebSocketFactory = (url) => {
    opened += 1;
    return new Impl(url);
  };
  const socket = new LineSocket({
    factory: () => factory,
    connectTimeoutMs: 2000,
    activityTimeoutMs: options.activityTimeoutMs,
    pongTimeoutMs: 30,
    backoff: { baseDelayMs: 10, maxDelayMs: 40 },
    clock: options.clock,
    random: options.random,
  });
  socket.base = peer.base;
  live.push(socket);
  const states: string[] = [];
  socket.events.bind('state_change', ({ current }) => states.push(current));
  return { socket, states, opened: () => opened };
}

describe.each([
  ['ws', undefined],
  ["undici's WebSocket (no terminate)", UndiciWebSocket as unknown as SocketConstructor],
] as const)('over %s', (_name, Impl) => {
  it('reconnects after the server terminates the socket, with a fresh URL for each attempt', async () => {
    const t = session(Impl ? { Impl } : {});
    t.socket.connect();
    await untilConnected(t.socket, (state) => new Error(state));
    expect(t.socket.socketId).toBe('1');
    peer.terminateAll();
    await waitFor(() => t.socket.socketId === '2');
    expect(t.states).toEqual(['connecting', 'connected', 'unavailable', 'connecting', 'connected']);
    expect(t.socket.closes[0]).toMatchObject({ close: { code: 1006 }, wasConnected: true });
    expect(peer.urls).toEqual(['/?token=t1', '/?token=t2']);
    expect([t.socket.urls, t.opened()]).toEqual([2, 2]);
  });
});

describe('over ws', () => {
  it('gives up on a code the protocol calls permanent: failed, no timer, no second attempt', async () => {
    const clock = new FakeClock();
    const t = session({ clock });
    const refusal = new Error('refused');
    t.socket.verdict = (close) => (close.code === 4001 ? { fail: refusal } : 'backoff');
    peer.refuseWith = 4001;
    t.socket.connect();
    await expect(untilConnected(t.socket, () => t.socket.failure)).rejects.toBe(refusal);
    expect(t.socket.closes.map((c) => c.close)).toEqual([{ code: 4001, reason: 'refused' }]);
    expect(t.states).toEqual(['connecting', 'failed']);
    // A retry would be a pending timer on this clock; there is none, and the server saw one connection.
    expect(clock.pending).toBe(0);
    expect(peer.urls).toHaveLength(1);
  });

  it('a silent server: the heartbeat finds the link dead (4201), terminates it and reconnects', async () => {
    const t = session({ activityTimeoutMs: 30 });
    t.socket.connect();
    await untilConnected(t.socket, (state) => new Error(state));
    peer.muteAll();
    await waitFor(() => t.socket.deaths === 1);
    expect(t.socket.closes[0]?.close).toEqual({ code: 4201, reason: 'no pong' });
    expect(t.socket.pings).toBeGreaterThan(0);
    await waitFor(() => t.socket.state === 'connected' && t.socket.socketId !== '1');
    // The server saw the dead link end abnormally (terminated), not a polite close.
    await waitFor(() => peer.closes.length >= 1);
    expect(peer.closes[0]).toBe(1006);
  });

  it('an attempt the server never greets times out and the next one connects', async () => {
    const clock = new FakeClock();
    const t = session({ clock, random: () => 0 });
    peer.silent = true;
    t.socket.connect();
    await waitFor(() => peer.urls.length === 1);
    // The timeout, then the retry (a jitter of 0 draws no delay) whose socket opens after this test's turn.
    clock.advance(2000);
    expect(t.socket.closes.map((c) => c.close)).toEqual([{ code: 1006, reason: 'connect timeout' }]);
    expect(t.states).toEqual(['connecting', 'unavailable', 'connecting']);
    peer.silent = false;
    await untilConnected(t.socket, (state) => new Error(state));
    expect(peer.urls).toEqual(['/?token=t1', '/?token=t2']);
    // The abandoned attempt was terminated, which the server sees as an abnormal close.
    await waitFor(() => peer.closes.length === 1);
    expect(peer.closes).toEqual([1006]);
  });

  it('disconnect() settles every wait: a pending connection, a URL still being fetched; the server sees 1000', async () => {
    const t = session();
    const lines: string[] = [];
    t.socket.events.bind('line', (line) => lines.push(line));
    peer.silent = true;
    t.socket.connect();
    const waiting = untilConnected(t.socket, (state) => new Error(`ended ${state}`));
    await waitFor(() => lines.length === 1);
    t.socket.disconnect();
    await expect(waiting).rejects.toThrow('ended disconnected');
    await waitFor(() => peer.closes.length === 1);
    expect(peer.closes).toEqual([1000]);

    let release = () => {};
    t.socket.urlGate = new Promise((resolve) => {
      release = resolve;
    });
    t.socket.connect();
    const again = untilConnected(t.socket, (state) => new Error(`ended ${state}`));
    t.socket.disconnect();
    release();
    await expect(again).rejects.toThrow('ended disconnected');
    await t.socket.urlGate;
    await new Promise((resolve) => setImmediate(resolve));
    // The URL came after the close: no socket was made from it.
    expect(t.opened()).toBe(1);
    expect(t.socket.state).toBe('disconnected');
  });
});
