/**
 * Acceptance, over the wire, from a COLD client (no warm-up: the first batch pays for loading
 * Node's fetch and opening 20 connections, 20-150 ms between release and arrival, while later
 * batches take 1-10 ms): what the SERVER observes when 3 concurrent bursts of 40 go through one
 * MemoryRateLimiter({ limit: 20, interval: '1s' }), each request releasing its slot once its response
 * has been read.
 *
 * What is asserted is the guarantee: never more than 20 arrivals in any 1 s window. Under it, requests
 * 101-120 (the 6th batch of 20) cannot arrive before 5 × 1 s = 5000 ms after the first, so that is a
 * lower bound too. How close to 5000 ms the run comes depends on the machine (the limiter adds the
 * safety margin and about one round-trip per window; a busy machine adds more), so no test bounds it:
 * the figures are logged, and `bench/limiter.bench.ts` measures them against the ideal. What the tests
 * check instead of a duration is the limiter's decision: the limiter runs on a recording clock, and
 * every timer it arms while completed requests fill the window must be due at the instant the oldest
 * of them ages out (completion + interval + margin, computed here from the releases the test made),
 * never later; while in-flight requests fill it, only a release can free a slot, which re-arms the
 * timer. A limiter that waited a window too long, or one that never woke, fails that (or never ends).
 *
 * Two harsher setups check the guarantee does not depend on latency: a server that delays each
 * RESPONSE by a random 0-300 ms, and a TCP proxy in front of the server that holds the first 20
 * connections for 300 ms before passing their bytes on (a slow first hop: the first batch arrives
 * late). There the elapsed time grows by the latency per window, by design.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY_MARGIN_MS as MARGIN_MS, MemoryRateLimiter } from '../../src/rate-limit.js';
import {
  type ArrivalServer,
  type ArrivalServerOptions,
  batchFigures,
  maxInWindow,
  minSpan,
  startArrivalServer,
} from '../helpers/arrival-server.js';
import { RecordingClock } from '../helpers/recording-clock.js';

const LIMIT = 20;
const WINDOW_MS = 1000;
const BURSTS = 3;
const PER_BURST = 40;
const WINDOWS = Math.ceil((BURSTS * PER_BURST) / LIMIT) - 1; // 5
const IDEAL_MS = WINDOWS * WINDOW_MS; // 5000

const servers: { close(): Promise<void> }[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * A TCP proxy to `port` that holds the first `count` connections for `ms` before connecting them
 * upstream. (Pausing the socket inside the HTTP server does not work: Node's HTTP parser reads the
 * connection's handle directly, so the request still arrives at once.)
 */
async function startStallProxy(port: number, count: number, ms: number) {
  let stalled = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const proxy: Server = createServer((client) => {
    sockets.add(client);
    client.pause();
    const forward = () => {
      const upstream = connect(port, '127.0.0.1');
      sockets.add(upstream);
      client.on('error', () => upstream.destroy()).pipe(upstream);
      upstream.on('error', () => client.destroy()).pipe(client);
      client.resume();
    };
    if (stalled >= count) return forward();
    stalled++;
    const timer = setTimeout(() => {
      timers.delete(timer);
      forward();
    }, ms);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

/**
 * Sends 3 concurrent bursts of 40 through a fresh limiter to a fresh server (through a stalling proxy
 * when `stall` is given); returns what the server saw and when the first request was sent.
 */
async function run(label: string, options: ArrivalServerOptions = {}, stall?: { count: number; ms: number }) {
  const server: ArrivalServer = await startArrivalServer(options);
  servers.push(server);
  const proxy = stall && (await startStallProxy(Number(new URL(server.url).port), stall.count, stall.ms));
  if (proxy) servers.push(proxy);
  const base = proxy ? proxy.url : server.url;
  // Completion times as the limiter read them (each release runs with the clock held), and, per timer
  // armed while the window held fewer than LIMIT in-flight requests, when the window frees by the rule.
  const completions: number[] = [];
  const windowTimers: { due: number; frees: number }[] = [];
  const clock = new RecordingClock((timer) => {
    const flying = limiter.inflight;
    if (flying >= LIMIT) return; // a release decides, not a timer (the lease is 120 s)
    const sorted = [...completions].sort((a, b) => a - b);
    const blocking = sorted[sorted.length - (LIMIT - flying)];
    windowTimers.push({
      due: timer.due,
      frees: blocking === undefined ? timer.from : blocking + WINDOW_MS + MARGIN_MS,
    });
  });
  const limiter = new MemoryRateLimiter({ limit: LIMIT, interval: '1s' }, clock);
  let firstSent: number | undefined;
  const send = async () => {
    const release = await limiter.acquire();
    firstSent ??= performance.now();
    try {
      const response = await fetch(`${base}/burst`);
      await response.arrayBuffer();
      return response.status;
    } finally {
      clock.hold((now) => {
        completions.push(now);
        release();
      });
    }
  };
  const burst = () => Promise.all(Array.from({ length: PER_BURST }, send));
  const statuses = (await Promise.all(Array.from({ length: BURSTS }, burst))).flat();

  const times = server.times();
  const maxPerWindow = maxInWindow(times, WINDOW_MS);
  const elapsed = times.at(-1)! - times[0]!;
  console.log(
    `memory limiter, ${label}: ${times.length} arrivals, max per 1 s window ${maxPerWindow} ` +
      `(closest arrivals ${LIMIT} apart: ${minSpan(times, LIMIT).toFixed(1)} ms), ` +
      `first→last ${elapsed.toFixed(1)} ms, ideal ${IDEAL_MS} ms (${((elapsed / IDEAL_MS - 1) * 100).toFixed(1)}%); batches of ${LIMIT} (start+span ms): ${batchFigures(times, LIMIT)}`,
  );
  const offsets = (from: number) => times.slice(from, from + LIMIT).map((t) => (t - times[0]!).toFixed(0));
  if (maxPerWindow > LIMIT) console.log('batch 1 arrivals', offsets(0), 'batch 2', offsets(LIMIT));
  return {
    statuses,
    times,
    maxPerWindow,
    elapsed,
    firstSent: firstSent!,
    windowTimers,
    pending: limiter.pending,
  };
}

/**
 * The limiter woke each waiting batch when the window freed, not later: one timer (at least) per
 * window that completed requests filled, each due at the instant the blocking completion aged out
 * (the limiter rounds the delay up to a whole millisecond), and nobody left waiting.
 */
function expectWokeWhenWindowFreed({ windowTimers, pending }: Awaited<ReturnType<typeof run>>) {
  expect(pending).toBe(0);
  expect(windowTimers.length).toBeGreaterThanOrEqual(WINDOWS);
  for (const { due, frees } of windowTimers) {
    expect(due).toBeGreaterThanOrEqual(frees);
    expect(due - frees).toBeLessThan(1);
  }
}

describe('MemoryRateLimiter over the wire', () => {
  it('cold start: never lets the server see more than 20 in any 1 s window, and does not get stuck', async () => {
    const result = await run('cold start');
    const { statuses, times, maxPerWindow, elapsed } = result;
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(times).toHaveLength(BURSTS * PER_BURST);
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    expect(elapsed).toBeGreaterThanOrEqual(IDEAL_MS);
    expectWokeWhenWindowFreed(result);
  });

  it('responses delayed by a random 0-300 ms: still never more than 20 in any 1 s window', async () => {
    const MAX_DELAY_MS = 300;
    const result = await run('responses delayed 0-300 ms', {
      respond: (_request, response) => {
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
          Math.random() * MAX_DELAY_MS,
        );
      },
    });
    const { statuses, maxPerWindow } = result;
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    // Each window starts once the previous batch has completed (the run grows by the delay per window),
    // and not later than that.
    expectWokeWhenWindowFreed(result);
  });

  it('first 20 connections stalled for 300 ms (the first batch arrives late): still never more than 20 in any 1 s window', async () => {
    const STALL_MS = 300;
    const result = await run('first 20 connections stalled 300 ms', {}, { count: LIMIT, ms: STALL_MS });
    const { statuses, times, maxPerWindow, firstSent } = result;
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    console.log(
      `stall: first arrival ${(times[0]! - firstSent).toFixed(1)} ms after the first request was sent`,
    );
    // The stall really delayed the first batch: a connection opens after its request was sent, and
    // the proxy holds it STALL_MS (a timer may fire up to 1 ms early).
    expect(times[0]! - firstSent).toBeGreaterThanOrEqual(STALL_MS - 1);
    expectWokeWhenWindowFreed(result);
  });
});
