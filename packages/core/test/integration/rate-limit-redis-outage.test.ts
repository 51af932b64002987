/**
 * Redis going away under the shared limiter, over the wire: a real redis-server (append-only file,
 * fsync always, so that it comes back with its data as a production Redis with persistence would, and
 * a password, so that messages can be checked for it), limiters on one key with their own ioredis
 * clients as separate processes would have, grants recorded as they happen. The server process is
 * killed mid-run and started again on the same port; the tests check what the module comment of
 * src/redis.ts promises: fail-closed rejects with RateLimitStoreError (never ioredis's own error),
 * every queued waiter included, fail-open keeps granting at this process's own pace, both recover by
 * themselves once Redis answers, and the shared window is never exceeded when failing closed.
 *
 * A request may reach the server anywhere between its grant and its release, so the window is checked
 * at both ends. Requests held in flight across the outage release while Redis is down: that release is
 * lost, and only their lease (longer than they are held) stops the first grants after the restart
 * from landing in the same window as their late arrivals. Against a Redis that restarts empty that
 * check fails, as it should: the module comment says the window survives only with the data.
 *
 * No timing is asserted; every wait is a bounded loop.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XError } from '../../src/errors.js';
import type { ReleaseSlot } from '../../src/rate-limit.js';
import { RateLimitStoreError, RedisRateLimiter } from '../../src/redis.js';
import { maxInWindow } from '../helpers/arrival-server.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-server.js';

const LIMIT = 5;
const INTERVAL_MS = 500;
const PASSWORD = 'outage-test-password-0123456789';
const OPTIONS = { limit: LIMIT, interval: INTERVAL_MS, inflightLeaseMs: 4000 };

let server: RedisServer;
const clients: Redis[] = [];
const limiters: RedisRateLimiter[] = [];

beforeAll(async () => {
  server = await startRedisServer({ persistent: true, password: PASSWORD });
});

afterAll(async () => {
  await Promise.all(limiters.map((limiter) => limiter.close()));
  for (const redis of clients) redis.disconnect();
  await server?.close();
});

/**
 * An ioredis client that reconnects every 100 ms. `queue: false` fails commands at once while it is
 * disconnected (enableOfflineQueue: false); otherwise ioredis queues them and gives up after one
 * reconnection attempt (MaxRetriesPerRequestError). Both are ways users configure it.
 */
async function connect(queue: boolean): Promise<Redis> {
  const options: RedisOptions = {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: queue,
    retryStrategy: () => 100,
  };
  const redis = new Redis(`redis://:${PASSWORD}@${server.host}:${server.port}`, options);
  // ioredis reports each failed reconnection here; without a listener it prints them all.
  redis.on('error', () => {});
  clients.push(redis);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

function recordingLogger() {
  const lines = { warn: [] as string[], info: [] as string[] };
  return {
    lines,
    logger: { warn: (m: string) => lines.warn.push(m), info: (m: string) => lines.info.push(m) },
  };
}

/** When each request was granted and when it was released: its arrival lies in between. */
interface Ledger {
  granted: number[];
  released: number[];
}

const ledger = (): Ledger => ({ granted: [], released: [] });

/** Acquires a slot and records the grant; the returned release records itself too. */
async function grant(limiter: RedisRateLimiter, into: Ledger): Promise<ReleaseSlot> {
  const release = await limiter.acquire();
  into.granted.push(performance.now());
  return () => {
    into.released.push(performance.now());
    release();
  };
}

const send = async (limiter: RedisRateLimiter, into: Ledger) => (await grant(limiter, into))();
const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends through `limiter` until Redis answers again (at most `attempts` tries, 100 ms apart). */
async function untilRecovered(limiter: RedisRateLimiter, into: Ledger, attempts = 100) {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const error = await settle(send(limiter, into));
    if (error === undefined && !limiter.storeUnavailable) return;
    if (error !== undefined) expect(error).toBeInstanceOf(RateLimitStoreError);
    await sleep(100);
  }
  throw new Error(`the limiter did not recover within ${attempts} attempts`);
}

describe('RedisRateLimiter when Redis goes away', () => {
  it("fail-closed: rejects with RateLimitStoreError (never ioredis's error), queued waiters too; recovers by itself after the restart; never more than `limit` grants in a window", async () => {
    const [logA, logB] = [recordingLogger(), recordingLogger()];
    // `a` fails at once while disconnected, `b` after ioredis's retry: both kinds of ioredis error.
    const a = new RedisRateLimiter({ ...OPTIONS, redis: await connect(false), key: 'closed', ...logA });
    const b = new RedisRateLimiter({ ...OPTIONS, redis: await connect(true), key: 'closed', ...logB });
    limiters.push(a, b);
    const grants = ledger();

    await Promise.all(Array.from({ length: 8 }, (_, i) => send(i % 2 ? a : b, grants)));
    // Every slot in flight, so the next requests must queue; their releases will not reach Redis.
    const held = await Promise.all(Array.from({ length: LIMIT }, () => grant(a, grants)));
    const queued = [a.acquire(), a.acquire(), a.acquire(), b.acquire(), b.acquire()];
    expect(a.pending + b.pending).toBe(queued.length);

    await server.stop('SIGKILL');

    const errors = await Promise.all(queued.map(settle));
    const fresh = await settle(a.acquire());
    for (const error of [...errors, fresh]) {
      expect(error).toBeInstanceOf(RateLimitStoreError);
      expect(error).toBeInstanceOf(XError);
      const { message, cause, key, store } = error as RateLimitStoreError;
      expect(key).toBe('closed');
      expect(store).toBe(`redis://${server.host}:${server.port}`);
      expect(message).toContain('"closed"');
      expect(message).toContain(`${server.host}:${server.port}`);
      expect(message).not.toContain(PASSWORD);
      expect(JSON.stringify(error)).not.toContain(PASSWORD);
      // The ioredis error is the cause, not the error callers see.
      expect(cause).toBeInstanceOf(Error);
      expect(cause).not.toBeInstanceOf(XError);
      expect(message).toContain((cause as Error).message);
    }
    const causes = new Set(errors.map((e) => (e as Error & { cause: Error }).cause.name));
    console.log(
      `redis outage, fail-closed: causes ${[...causes].join(', ')}; message: ${(fresh as Error).message}`,
    );
    expect(a.pending + b.pending).toBe(0);
    expect(a.storeUnavailable && b.storeUnavailable).toBe(true);

    await expect(a.pause(Date.now() + 100)).resolves.toBeUndefined();
    expect(logA.lines.warn).toHaveLength(1);
    expect(logB.lines.warn).toHaveLength(1);
    expect(logA.lines.warn[0]).toContain('failing closed');
    expect(logA.lines.warn[0]).not.toContain(PASSWORD);
    expect(logA.lines.info).toHaveLength(0);

    // Cannot reach Redis: the entries stay in flight until their lease ends.
    for (const release of held) release();
    await server.start();
    await untilRecovered(a, grants);
    await untilRecovered(b, grants);
    await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 ? a : b, grants)));

    expect(logA.lines.warn).toHaveLength(1);
    expect(logA.lines.info).toHaveLength(1);
    expect(logB.lines.info).toHaveLength(1);
    expect(logA.lines.info[0]).toContain('answers again');
    const byGrant = maxInWindow(grants.granted, INTERVAL_MS);
    const byRelease = maxInWindow(grants.released, INTERVAL_MS);
    console.log(
      `redis outage, fail-closed: ${grants.granted.length} grants, at most ${byGrant} granted and ${byRelease} released in any window`,
    );
    expect(grants.granted.length).toBeGreaterThanOrEqual(8 + LIMIT + 2 + 12);
    expect(grants.released).toHaveLength(grants.granted.length);
    expect(byGrant).toBeLessThanOrEqual(LIMIT);
    expect(byRelease).toBeLessThanOrEqual(LIMIT);
  });

  it('fail-open: queued and new requests are granted at this process’s own pace while Redis is down, warned once; back to Redis by itself after the restart', async () => {
    const log = recordingLogger();
    const redis = await connect(false);
    const limiter = new RedisRateLimiter({
      ...OPTIONS,
      redis,
      key: 'open',
      onStoreError: 'fail-open',
      ...log,
    });
    limiters.push(limiter);
    const held = await Promise.all(Array.from({ length: LIMIT }, () => limiter.acquire()));
    const queued = [limiter.acquire(), limiter.acquire()];

    await server.stop('SIGTERM');

    const outage = ledger();
    const served = await Promise.all(queued);
    outage.granted.push(...served.map(() => performance.now()));
    for (const release of [...served, ...held]) release();
    await Promise.all(Array.from({ length: 2 * LIMIT }, () => send(limiter, outage)));
    expect(limiter.storeUnavailable).toBe(true);
    await expect(limiter.pause(Date.now() + 50)).resolves.toBeUndefined();
    expect(log.lines.warn).toHaveLength(1);
    expect(log.lines.warn[0]).toContain('failing open');
    expect(log.lines.warn[0]).toContain('"open"');
    expect(log.lines.warn[0]).not.toContain(PASSWORD);
    // The fallback is a real limiter: this process alone still keeps to `limit` per window.
    expect(maxInWindow(outage.granted, INTERVAL_MS)).toBeLessThanOrEqual(LIMIT);

    await server.start();
    await untilRecovered(limiter, ledger());
    expect(log.lines.info).toHaveLength(1);

    const admin = await connect(true);
    const before = new Set(await admin.zrange(limiter.keys.inflight, 0, -1));
    const release = await limiter.acquire();
    const added = (await admin.zrange(limiter.keys.inflight, 0, -1)).filter((m) => !before.has(m));
    expect(added).toHaveLength(1); // this grant went through Redis
    release();
    expect(log.lines.warn).toHaveLength(1);
  });
});
