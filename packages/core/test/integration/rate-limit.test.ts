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
 * safety margin and about one round-trip per window; a busy machine adds more), so the tests only
 * check that the run finishes under twice its ideal, which catches a stuck limiter and nothing else.
 * The measured figures are logged; `bench/limiter.bench.ts` measures them against the ideal.
 *
 * Two harsher servers check the guarantee does not depend on latency: one delays each RESPONSE by a
 * random 0-300 ms, one stalls the first 20 connections for 300 ms (the first batch arrives late).
 * There the elapsed time grows by the latency per window, by design.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/rate-limit.js';
import {
  type ArrivalServer,
  type ArrivalServerOptions,
  batchFigures,
  maxInWindow,
  minSpan,
  startArrivalServer,
} from '../helpers/arrival-server.js';

const LIMIT = 20;
const WINDOW_MS = 1000;
const BURSTS = 3;
const PER_BURST = 40;
const WINDOWS = Math.ceil((BURSTS * PER_BURST) / LIMIT) - 1; // 5
const IDEAL_MS = WINDOWS * WINDOW_MS; // 5000

const servers: ArrivalServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Sends 3 concurrent bursts of 40 through a fresh limiter to a fresh server; returns what it saw. */
async function run(label: string, options: ArrivalServerOptions = {}) {
  const server = await startArrivalServer(options);
  servers.push(server);
  const limiter = new MemoryRateLimiter({ limit: LIMIT, interval: '1s' });
  const send = async () => {
    const release = await limiter.acquire();
    try {
      const response = await fetch(`${server.url}/burst`);
      await response.arrayBuffer();
      return response.status;
    } finally {
      release();
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
  return { statuses, times, maxPerWindow, elapsed };
}

describe('MemoryRateLimiter over the wire', () => {
  it('cold start: never lets the server see more than 20 in any 1 s window, and does not get stuck', async () => {
    const { statuses, times, maxPerWindow, elapsed } = await run('cold start');
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(times).toHaveLength(BURSTS * PER_BURST);
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    expect(elapsed).toBeGreaterThanOrEqual(IDEAL_MS);
    expect(elapsed).toBeLessThan(2 * IDEAL_MS);
  });

  it('responses delayed by a random 0-300 ms: still never more than 20 in any 1 s window', async () => {
    const MAX_DELAY_MS = 300;
    const { statuses, maxPerWindow, elapsed } = await run('responses delayed 0-300 ms', {
      respond: (_request, response) => {
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
          Math.random() * MAX_DELAY_MS,
        );
      },
    });
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    // Each window starts once the previous batch has completed: the ideal grows by the delay per window.
    expect(elapsed).toBeLessThan(2 * WINDOWS * (WINDOW_MS + MAX_DELAY_MS));
  });

  it('first 20 connections stalled for 300 ms (the first batch arrives late): still never more than 20 in any 1 s window', async () => {
    const STALL_MS = 300;
    const { statuses, times, maxPerWindow, elapsed } = await run('first 20 connections stalled 300 ms', {
      stallConnections: { count: LIMIT, ms: STALL_MS },
    });
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    // The stall really delayed the first batch: the 21st arrival comes more than a window after the 20th.
    expect(times[LIMIT]! - times[LIMIT - 1]!).toBeGreaterThan(WINDOW_MS);
    expect(elapsed).toBeLessThan(2 * (IDEAL_MS + STALL_MS));
  });
});
