/**
 * The shared limiter across processes: a real redis-server started here, 3 separate, COLD Node
 * processes (test/fixtures/limiter-worker.ts; no warm-up: their first fetch loads undici and opens
 * new connections) each sending a burst of 40 through a RedisRateLimiter on one key, to one arrival
 * server in this process, releasing each slot once the response is read. Same acceptance as the
 * in-memory test: at most 20 arrivals in any 1 s window as the server sees them (so the 6th batch of
 * 20 arrives no earlier than 5 × 1 s after the first). How long the run takes depends on the machine,
 * so no test bounds it: the figures are logged, and `bench/limiter.bench.ts` compares them with the ideal
 * 5000 ms (the limiter adds the safety margin, about one round-trip and the Redis polling jitter per
 * window). Instead, Redis's MONITOR feed (helpers/redis-ledger.ts) shows every decision the scripts made,
 * with the Redis time each read: replayed under the rule, no ask was refused while the window had room
 * (a limiter stuck refusing, or waiting on an entry that no longer counts) and none granted while it was full.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAFETY_MARGIN_MS as MARGIN_MS, type RateLimitOptions } from '../../src/rate-limit.js';
import { RedisRateLimiter } from '../../src/redis.js';
import {
  type ArrivalServer,
  batchFigures,
  maxInWindow,
  minSpan,
  startArrivalServer,
} from '../helpers/arrival-server.js';
import { type LimiterWorker, startWorker, stopWorker } from '../helpers/rate-limit-workers.js';
import { misjudgedAsks, type RedisLedger, watchLedger } from '../helpers/redis-ledger.js';
import { findRedisServer, type RedisServer, startRedisServer } from '../helpers/redis-server.js';

const LIMIT = 20;
const WINDOW_MS = 1000;
const PROCESSES = 3;
const PER_PROCESS = 40;
const WINDOWS = Math.ceil((PROCESSES * PER_PROCESS) / LIMIT) - 1; // 5
const IDEAL_MS = WINDOWS * WINDOW_MS; // 5000
const OPTIONS: RateLimitOptions = { limit: LIMIT, interval: '1s' };

let redisServer: RedisServer;
let server: ArrivalServer;
let redis: Redis;
let ledger: RedisLedger;
let workers: LimiterWorker[] = [];

// Fails (never skips) when redis-server is missing, with the install hint; the suite's beforeAll fails too.
it('has a redis-server binary to test against', () => {
  expect(findRedisServer()).toMatch(/redis-server$/);
});

/** Every ask on `key` was decided by the rule (see the file comment), and `grants` of them were granted. */
function expectRuleKept(key: string, grants: number) {
  const { asks } = ledger.of(key);
  expect(misjudgedAsks(ledger.of(key), LIMIT, WINDOW_MS + MARGIN_MS)).toEqual([]);
  expect(asks.filter((a) => a.granted !== undefined)).toHaveLength(grants);
}

describe('RedisRateLimiter across processes', () => {
  beforeAll(async () => {
    redisServer = await startRedisServer();
    server = await startArrivalServer();
    redis = new Redis(redisServer.url);
    ledger = await watchLedger(redis);
    workers = await Promise.all(Array.from({ length: PROCESSES }, () => startWorker(redisServer.url)));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    ledger?.stop();
    redis?.disconnect();
    await server?.close();
    await redisServer?.stop();
  });

  it('3 processes × 40 on one key: never more than 20 in any 1 s window, and does not get stuck', async () => {
    const replies = await Promise.all(
      workers.map((w) =>
        w.request({
          type: 'burst',
          key: 'acceptance',
          options: OPTIONS,
          url: `${server.url}/burst`,
          count: PER_PROCESS,
        }),
      ),
    );

    const times = server.times();
    const maxPerWindow = maxInWindow(times, WINDOW_MS);
    const elapsed = times.at(-1)! - times[0]!;
    console.log(
      `redis limiter (${PROCESSES} processes): ${times.length} arrivals, max per 1 s window ${maxPerWindow} ` +
        `(closest arrivals ${LIMIT} apart: ${minSpan(times, LIMIT).toFixed(1)} ms), ` +
        `first→last ${elapsed.toFixed(1)} ms, ideal ${IDEAL_MS} ms (${((elapsed / IDEAL_MS - 1) * 100).toFixed(1)}%); batches of ${LIMIT} (start+span ms): ${batchFigures(times, LIMIT)}`,
    );
    for (const reply of replies) {
      expect(reply).toEqual({ type: 'burst-done', statuses: Array(PER_PROCESS).fill(200), errors: [] });
    }
    expect(times).toHaveLength(PROCESSES * PER_PROCESS);
    expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
    expect(elapsed).toBeGreaterThanOrEqual(IDEAL_MS);
    expectRuleKept('acceptance', PROCESSES * PER_PROCESS);
  });

  it('3 processes × 40, responses delayed by a random 0-300 ms: still never more than 20 in any 1 s window', async () => {
    const MAX_DELAY_MS = 300;
    const slow = await startArrivalServer({
      respond: (_request, response) => {
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
          Math.random() * MAX_DELAY_MS,
        );
      },
    });
    try {
      const replies = await Promise.all(
        workers.map((w) =>
          w.request({
            type: 'burst',
            key: 'slow',
            options: OPTIONS,
            url: `${slow.url}/slow`,
            count: PER_PROCESS,
          }),
        ),
      );
      const times = slow.times();
      const maxPerWindow = maxInWindow(times, WINDOW_MS);
      const elapsed = times.at(-1)! - times[0]!;
      console.log(
        `redis limiter (${PROCESSES} processes), responses delayed 0-${MAX_DELAY_MS} ms: ${times.length} arrivals, ` +
          `max per 1 s window ${maxPerWindow} (closest arrivals ${LIMIT} apart: ${minSpan(times, LIMIT).toFixed(1)} ms), ` +
          `first→last ${elapsed.toFixed(1)} ms, ideal ${IDEAL_MS} ms (${((elapsed / IDEAL_MS - 1) * 100).toFixed(1)}%); batches of ${LIMIT} (start+span ms): ${batchFigures(times, LIMIT)}`,
      );
      for (const reply of replies) {
        expect(reply).toEqual({ type: 'burst-done', statuses: Array(PER_PROCESS).fill(200), errors: [] });
      }
      expect(times).toHaveLength(PROCESSES * PER_PROCESS);
      expect(maxPerWindow).toBeLessThanOrEqual(LIMIT);
      // Each window starts once the previous batch has completed (the run grows by the delay per window),
      // and no ask was refused once it had.
      expectRuleKept('slow', PROCESSES * PER_PROCESS);
    } finally {
      await slow.close();
    }
  });

  it('pause() in one process delays the requests of the others until the pause ends', async () => {
    server.reset();
    const [pauser, ...others] = workers;
    const PAUSE_MS = 1500;
    const before = performance.now();
    await pauser!.request({ type: 'pause', key: 'pause', options: OPTIONS, ms: PAUSE_MS });
    const replies = await Promise.all(
      others.map((w) =>
        w.request({ type: 'burst', key: 'pause', options: OPTIONS, url: `${server.url}/paused`, count: 3 }),
      ),
    );

    const times = server.times();
    const firstAfter = times[0]! - before;
    console.log(
      `redis pause: ${PAUSE_MS} ms pause, first arrival from another process after ${firstAfter.toFixed(1)} ms`,
    );
    expect(replies.every((r) => r.type === 'burst-done' && r.errors.length === 0)).toBe(true);
    expect(times).toHaveLength(3 * others.length);
    // The pause ends PAUSE_MS after the pauser read its clock, which was after `before`; 5 ms covers
    // the whole-millisecond rounding of Date.now() and of the pause length.
    expect(firstAfter).toBeGreaterThanOrEqual(PAUSE_MS - 5);
    // Not longer either: Redis holds the pause for PAUSE_MS from when it was set, and the first ask past it
    // (the only ones listed: an ask the pause refuses stops before reading the window) is granted.
    const { pauses, asks } = ledger.of('pause');
    expect(pauses).toHaveLength(1);
    // The worker asks for Date.now() + PAUSE_MS and the limiter writes what is left of it when it runs, so a
    // millisecond that ticks in between makes it PAUSE_MS - 1 (seen on a busy CI machine); never more.
    expect(pauses[0]!.px).toBeLessThanOrEqual(PAUSE_MS);
    expect(pauses[0]!.px).toBeGreaterThan(0);
    expect(asks[0]!.now).toBeGreaterThanOrEqual(pauses[0]!.until);
    expect(asks[0]!.granted).toBeDefined();
    expectRuleKept('pause', 3 * others.length);
  });

  it("a crashed process's unreleased slots stop blocking when their lease expires", async () => {
    const LEASE_MS = 500;
    const options: RateLimitOptions = { ...OPTIONS, inflightLeaseMs: LEASE_MS };
    const crashing = await startWorker(redisServer.url);
    const before = performance.now();
    await crashing.request({ type: 'hold', key: 'crash', options, count: LIMIT });
    const exited = new Promise((resolve) => crashing.child.once('exit', resolve));
    crashing.child.kill('SIGKILL');
    await exited;

    const limiter = new RedisRateLimiter({ ...options, redis, key: 'crash' });
    expect(await redis.zcard(limiter.keys.inflight)).toBe(LIMIT);
    const release = await limiter.acquire();
    const waited = performance.now() - before;
    release();
    await limiter.close();
    // Counted as completed at lease expiry, so recent for one more interval + margin after that.
    const expected = LEASE_MS + WINDOW_MS + MARGIN_MS;
    console.log(
      `redis lease: ${LIMIT} slots held by a killed process; next grant after ${waited.toFixed(1)} ms (lease + window = ${expected} ms)`,
    );
    expect(waited).toBeGreaterThanOrEqual(expected - 5);
    expect(await redis.zcard(limiter.keys.inflight)).toBe(0);
    // Not longer either: each held slot was logged as completed at its own lease expiry (not when it was
    // found expired), and the new grant came at the first ask once those had aged out of the window.
    const { asks, completions } = ledger.of('crash');
    const byMember = (a: { member: string }, b: { member: string }) => a.member.localeCompare(b.member);
    const held = asks.filter((a) => a.granted !== undefined).slice(0, LIMIT);
    expect(completions.slice(0, LIMIT).sort(byMember)).toEqual(
      held.map((a) => ({ member: a.granted!, at: a.leaseUntil! })).sort(byMember),
    );
    expectRuleKept('crash', LIMIT + 1);
  });

  it('keys expire: in-flight after its lease, the log one window after the last completion, the pause when it ends; nothing is left behind', async () => {
    const limiter = new RedisRateLimiter({ ...OPTIONS, redis, key: 'expiry' });
    const releases = [await limiter.acquire(), await limiter.acquire()];
    const inflightTtl = await redis.pttl(limiter.keys.inflight);
    expect(inflightTtl).toBeGreaterThan(0);
    expect(inflightTtl).toBeLessThanOrEqual(120_000 + WINDOW_MS + MARGIN_MS); // default lease + window
    expect(await redis.zcard(limiter.keys.inflight)).toBe(2);
    for (const release of releases) release();
    await limiter.pause(Date.now() + 300);
    await limiter.close(); // waits for the release scripts
    const [logTtl, pauseTtl] = await Promise.all([
      redis.pttl(limiter.keys.log),
      redis.pttl(limiter.keys.pause),
    ]);
    expect(await redis.exists(limiter.keys.inflight)).toBe(0); // emptied, hence deleted
    expect(logTtl).toBeGreaterThan(0);
    expect(logTtl).toBeLessThanOrEqual(WINDOW_MS + MARGIN_MS); // interval + default safety margin
    expect(pauseTtl).toBeGreaterThan(0);
    expect(pauseTtl).toBeLessThanOrEqual(300);
    expect(await redis.zcard(limiter.keys.log)).toBe(2);

    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + MARGIN_MS + 100));
    expect(await redis.exists(limiter.keys.log, limiter.keys.inflight, limiter.keys.pause)).toBe(0);
    // Every key of the earlier tests (acceptance, pause, crash) has expired too.
    expect(await redis.keys('*')).toEqual([]);
  });

  it('a fresh process after a Redis restart (NOSCRIPT) still works: EVALSHA falls back to EVAL', async () => {
    await redis.script('FLUSH');
    const limiter = new RedisRateLimiter({ ...OPTIONS, redis, key: 'noscript' });
    const release = await limiter.acquire();
    expect(await redis.zcard(limiter.keys.inflight)).toBe(1);
    release();
    await limiter.close();
    expect(await redis.zcard(limiter.keys.inflight)).toBe(0);
    expect(await redis.zcard(limiter.keys.log)).toBe(1);
  });
});
