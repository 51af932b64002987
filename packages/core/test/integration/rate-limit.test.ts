/**
 * Acceptance, over the wire: what the SERVER observes when 3 concurrent bursts of 40 go through one
 * MemoryRateLimiter({ limit: 20, interval: '1s' }).
 *
 * Ideal: under a strict sliding window, 20 may arrive at t = 0, the next 20 no earlier than 1 s after
 * those, and so on, so request 101-120 (the 6th batch of 20) cannot be sent before 5 × 1 s = 5000 ms
 * after the first. We accept first-to-last arrival within 10% of that: 4500-5500 ms (the default
 * 50 ms safety margin adds 5 × 50 = 250 ms by design).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/rate-limit.js';
import { type ArrivalServer, maxInWindow, minSpan, startArrivalServer } from '../helpers/arrival-server.js';

const LIMIT = 20;
const WINDOW_MS = 1000;
const BURSTS = 3;
const PER_BURST = 40;
const IDEAL_MS = (Math.ceil((BURSTS * PER_BURST) / LIMIT) - 1) * WINDOW_MS; // 5000

let server: ArrivalServer;

beforeAll(async () => {
  server = await startArrivalServer();
});

afterAll(async () => {
  await server?.close();
});

describe('MemoryRateLimiter over the wire', () => {
  it('never lets the server see more than 20 in any 1 s window, and finishes within 10% of the ideal', async () => {
    // Warm the client first, through the same code path. Cold, Node's fetch (undici) is loaded lazily,
    // not yet optimised and opens 20 new connections, so the first batch reaches the server 20-150 ms
    // after its grant while later batches, on kept-alive connections, take ~1-10 ms. That one-off
    // difference can exceed the 50 ms safety margin (a real limitation for cold clients, documented in
    // rate-limit.ts); this test measures the limiter, so it starts from a warm client.
    const rehearsal = new MemoryRateLimiter({ limit: 1000, interval: '1s' });
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: LIMIT }, async () => {
          await rehearsal.acquire();
          await (await fetch(`${server.url}/warm-up`)).arrayBuffer();
        }),
      );
    }
    server.reset();
    const limiter = new MemoryRateLimiter({ limit: LIMIT, interval: '1s' });
    const send = async () => {
      await limiter.acquire();
      const response = await fetch(`${server.url}/burst`);
      await response.arrayBuffer();
      return response.status;
    };
    const burst = () => Promise.all(Array.from({ length: PER_BURST }, send));
    const statuses = (await Promise.all(Array.from({ length: BURSTS }, burst))).flat();

    const times = server.times();
    const maxPerWindow = maxInWindow(times, WINDOW_MS);
    const elapsed = times.at(-1)! - times[0]!;
    console.log(
      `memory limiter: ${times.length} arrivals, max per 1 s window ${maxPerWindow} ` +
        `(closest arrivals ${LIMIT} apart: ${minSpan(times, LIMIT).toFixed(1)} ms), ` +
        `first→last ${elapsed.toFixed(1)} ms, ideal ${IDEAL_MS} ms (${((elapsed / IDEAL_MS - 1) * 100).toFixed(1)}%)`,
    );
    const offsets = (from: number) => times.slice(from, from + LIMIT).map((t) => (t - times[0]!).toFixed(0));
    if (maxPerWindow > LIMIT) console.log('batch 1 arrivals', offsets(0), 'batch 2', offsets(LIMIT));
    expect(statuses).toEqual(Array(BURSTS * PER_BURST).fill(200));
    expect(times).toHaveLength(BURSTS * PER_BURST);
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    expect(Math.abs(elapsed - IDEAL_MS)).toBeLessThanOrEqual(IDEAL_MS * 0.1);
  });
});
