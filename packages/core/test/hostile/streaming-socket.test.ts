/**
 * Hostile review of @x/core/socket (issue 18, the lifecycle the streaming transcriber runs on), over real
 * `ws` sockets with the system clock:
 * - a delay past setTimeout's range (2^31 - 1 ms) is not a 1 ms delay: runtimes fire those after 1 ms
 *   (Node warns TimeoutOverflowWarning), so a heartbeat of 2^31 ms pinged in a tight loop and a connect
 *   timeout of 2^31 ms timed out at once;
 * - the debug log of a socket error names no secret: it was handed `ws`'s ErrorEvent, whose target holds
 *   the URL with its `?token=` and the upgrade request with its `Authorization` header.
 * Nothing asserts a duration: a wait only gives a broken timer the chance to fire.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, Timer } from '../../src/socket/index.js';
import { LineSocket } from '../helpers/socket-fakes.js';

interface PeerSocket {
  send(data: string): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  terminate(): void;
}
interface PeerServer {
  on(event: 'connection', listener: (socket: PeerSocket) => void): void;
  once(event: 'listening', listener: () => void): void;
  address(): AddressInfo;
  clients: Set<PeerSocket>;
  close(callback: () => void): void;
}

// `ws` is not a dependency of @x/core: borrowed from @x/realtime, as the lifecycle test does.
const ws = createRequire(new URL('../../../realtime/package.json', import.meta.url))('ws') as {
  WebSocket: new (url: string, options?: { headers?: Record<string, string> }) => never;
  WebSocketServer: new (options: { port: number; host: string }) => PeerServer;
};

const BEYOND_SET_TIMEOUT = 2 ** 31;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: PeerServer;
let base: string;
/** Ms the peer waits before its greeting. */
let greetAfterMs = 0;

beforeAll(async () => {
  server = new ws.WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => {
    setTimeout(() => socket.send('hello 1'), greetAfterMs);
    socket.on('message', (data) => {
      if (String(data) === 'ping') socket.send('pong');
    });
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `ws://127.0.0.1:${server.address().port}/`;
});

afterAll(async () => {
  for (const socket of server.clients) socket.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function lineSocket(options: { connectTimeoutMs?: number; activityTimeoutMs?: number }) {
  const socket = new LineSocket({
    factory: () => (url) => new ws.WebSocket(url) as never,
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    activityTimeoutMs: options.activityTimeoutMs,
  });
  socket.base = base;
  return socket;
}

function untilState(socket: LineSocket, state: 'connected' | 'unavailable' | 'failed'): Promise<void> {
  return new Promise((resolve) => {
    if (socket.state === state) resolve();
    else socket.events.bind(state, () => resolve());
  });
}

describe('@x/core/socket, hostile', () => {
  it('Timer.set past 2^31 - 1 ms does not fire after 1 ms', async () => {
    let fired = 0;
    const timer = new Timer(systemClock);
    timer.set(BEYOND_SET_TIMEOUT, () => {
      fired += 1;
    });
    await sleep(30);
    const pending = timer.pending;
    timer.clear();
    expect(fired).toBe(0);
    expect(pending).toBe(true);
  });

  it('a heartbeat of 2^31 ms (no pong timeout, as AssemblyAI runs it) does not ping in a tight loop', async () => {
    greetAfterMs = 0;
    const socket = lineSocket({ activityTimeoutMs: BEYOND_SET_TIMEOUT });
    socket.connect();
    await untilState(socket, 'connected');
    await sleep(50);
    const pings = socket.pings;
    socket.disconnect();
    expect(pings).toBe(0);
  });

  it('a connect timeout of 2^31 ms waits for a handshake that takes 50 ms', async () => {
    greetAfterMs = 50;
    const socket = lineSocket({ connectTimeoutMs: BEYOND_SET_TIMEOUT });
    socket.connect();
    await Promise.race([untilState(socket, 'connected'), untilState(socket, 'unavailable')]);
    const { state, closes } = socket;
    socket.disconnect();
    expect(closes.map((c) => c.close)).toEqual([]);
    expect(state).toBe('connected');
  });

  it("the debug log of a socket error names neither the URL's token nor the Authorization header", async () => {
    const secretToken = 'tok_0123456789abcdef0123456789';
    const secretKey = 'key_fedcba9876543210fedcba9876';
    const lines: string[] = [];
    const log = (level: string, message: string, ...args: unknown[]) =>
      lines.push(`${level} ${message} ${inspect(args, { depth: 8 })}`);
    const socket = new LineSocket({
      // Nothing listens on port 1: the attempt ends with ECONNREFUSED, an `error` event, then a close.
      factory: () => (url) =>
        new ws.WebSocket(url.replace(/\?.*/, `?token=${secretToken}`), {
          headers: { Authorization: secretKey },
        }) as never,
      connectTimeoutMs: 5000,
      log,
    });
    socket.base = 'ws://127.0.0.1:1/';
    socket.verdict = () => ({ fail: new Error('refused') });
    socket.connect();
    await untilState(socket, 'failed');
    const all = lines.join('\n');
    expect(all).toContain('socket error');
    // What the error was is still told.
    expect(all).toContain('ECONNREFUSED');
    expect(all).not.toContain(secretToken);
    expect(all).not.toContain(secretKey);
  });
});
