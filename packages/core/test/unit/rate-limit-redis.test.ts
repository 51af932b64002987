/**
 * The Redis limiter's outage handling as pure logic: a scripted stand-in for ioredis whose calls the
 * test answers (or never answers) one by one, and a clock that moves only when told to. The same
 * behaviour against a real redis-server that is killed and restarted is in
 * test/integration/rate-limit-redis-outage.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { XError } from '../../src/errors.js';
import { ACQUIRE, PAUSE, RELEASE } from '../../src/internal/redis-store.js';
import { RateLimitStoreError, RedisRateLimiter, type RedisRateLimiterOptions } from '../../src/redis.js';
import { FakeClock, flush } from '../helpers/rate-limit-clock.js';

interface Call {
  script: 'acquire' | 'release' | 'pause';
  args: (string | number)[];
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

const SCRIPTS = new Map([
  [ACQUIRE.sha, 'acquire'],
  [RELEASE.sha, 'release'],
  [PAUSE.sha, 'pause'],
] as const);

/** Records every EVALSHA and leaves it pending until the test settles it. */
class ScriptedRedis {
  readonly calls: Call[] = [];
  readonly options: Record<string, unknown> = {
    host: '10.0.0.5',
    port: 6380,
    db: 2,
    password: 'hunter2-secret',
  };

  evalsha(sha: string, numKeys: number, ...rest: (string | number)[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.calls.push({ script: SCRIPTS.get(sha)!, args: rest.slice(numKeys), resolve, reject });
    });
  }

  /** The pending calls of one script, oldest first. */
  of(script: Call['script']): Call[] {
    return this.calls.filter((c) => c.script === script);
  }
}

function setup(options: Partial<RedisRateLimiterOptions> = {}) {
  const redis = new ScriptedRedis();
  const clock = new FakeClock();
  const lines = { warn: [] as string[], info: [] as string[] };
  const limiter = new RedisRateLimiter({
    redis: redis as never,
    key: 'acct_42',
    limit: 2,
    interval: '1s',
    jitterMs: 0,
    storeTimeoutMs: 1000,
    clock,
    logger: { warn: (m) => lines.warn.push(m), info: (m) => lines.info.push(m) },
    ...options,
  });
  return { redis, clock, lines, limiter };
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('RedisRateLimiter when Redis fails', () => {
  it.each([
    [{ storeTimeoutMs: 0 }, /storeTimeoutMs 0/],
    [{ storeTimeoutMs: Number.NaN }, /storeTimeoutMs NaN/],
    [{ onStoreError: 'ignore' }, /onStoreError "ignore"/],
  ] as const)('rejects the option %j', (options, message) => {
    expect(() => setup(options as never)).toThrow(message);
  });

  it('fail-closed: rejects the head and every queued waiter with RateLimitStoreError, the ioredis error as cause, never the password', async () => {
    const { redis, lines, limiter } = setup();
    const waiting = [limiter.acquire(), limiter.acquire(), limiter.acquire()].map(settle);
    await flush();
    expect(redis.of('acquire')).toHaveLength(1); // only the head talks to Redis
    const ioredisError = new Error('Connection is closed. (auth hunter2-secret)');
    redis.calls[0]!.reject(ioredisError);

    const errors = await Promise.all(waiting);
    for (const error of errors) {
      expect(error).toBeInstanceOf(RateLimitStoreError);
      expect(error).toBeInstanceOf(XError);
      expect(error).toMatchObject({
        name: 'RateLimitStoreError',
        key: 'acct_42',
        store: 'redis://10.0.0.5:6380/2',
      });
      expect((error as Error).cause).toBe(ioredisError);
      expect((error as Error).message).toContain('"acct_42"');
      expect((error as Error).message).toContain('Connection is closed.');
      expect((error as Error).message).not.toContain('hunter2-secret');
      expect(JSON.stringify(error)).not.toContain('hunter2-secret');
    }
    expect(limiter.pending).toBe(0);
    expect(limiter.storeUnavailable).toBe(true);
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain('failing closed');
  });

  it('warns once per outage, tells when Redis answers again, and the next acquire() is served by Redis', async () => {
    const { redis, lines, limiter } = setup();
    for (let i = 0; i < 3; i++) {
      const attempt = settle(limiter.acquire());
      await flush();
      redis.calls.at(-1)!.reject(new Error('connect ECONNREFUSED 10.0.0.5:6380'));
      expect(await attempt).toBeInstanceOf(RateLimitStoreError);
    }
    expect(lines.warn).toHaveLength(1);

    const granted = limiter.acquire();
    await flush();
    redis.calls.at(-1)!.resolve(0);
    await expect(granted).resolves.toBeTypeOf('function');
    expect(limiter.storeUnavailable).toBe(false);
    expect(lines.info).toHaveLength(1);
    expect(lines.info[0]).toContain('answers again');

    const again = settle(limiter.acquire());
    await flush();
    redis.calls.at(-1)!.reject(new Error('Connection is closed.'));
    expect(await again).toBeInstanceOf(RateLimitStoreError);
    expect(lines.warn).toHaveLength(2); // a new outage
  });

  it('a call Redis does not answer within storeTimeoutMs fails; a grant that arrives after that goes back unused', async () => {
    const { redis, clock, limiter } = setup({ storeTimeoutMs: 1000 });
    const attempt = settle(limiter.acquire());
    await clock.advance(999);
    expect(limiter.pending).toBe(1);
    await clock.advance(1);
    const error = await attempt;
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect((error as Error).message).toContain('did not answer within 1000 ms');

    const [acquire] = redis.of('acquire');
    acquire!.resolve(0); // Redis granted after all: the slot must not stay in flight until its lease
    await flush();
    const [release] = redis.of('release');
    expect(release!.args[0]).toBe(acquire!.args[2]); // the same member
    expect(release!.args[3]).toBe('0'); // handed back unused, not logged as sent
  });

  it('pause() resolves when Redis fails (the client does not wait for it), and counts as a failure', async () => {
    const { redis, lines, limiter } = setup();
    const paused = limiter.pause(Date.now() + 60_000);
    await flush();
    redis.of('pause')[0]!.reject(new Error('Connection is closed.'));
    await expect(paused).resolves.toBeUndefined();
    expect(limiter.storeUnavailable).toBe(true);
    expect(lines.warn).toHaveLength(1);
  });

  it('a release that cannot reach Redis is dropped (the lease ends it) and close() does not wait longer than storeTimeoutMs', async () => {
    const { redis, clock, limiter } = setup({ storeTimeoutMs: 1000 });
    const granted = limiter.acquire();
    await flush();
    redis.calls[0]!.resolve(0);
    (await granted)();
    await flush();
    expect(redis.of('release')).toHaveLength(1); // never answered
    let closed = false;
    void limiter.close().then(() => {
      closed = true;
    });
    await clock.advance(999);
    expect(closed).toBe(false);
    await clock.advance(1);
    expect(closed).toBe(true);
  });

  it('fail-open: queued waiters and new requests are paced by this process alone; Redis is probed at most once a second and used again once it answers', async () => {
    const { redis, clock, lines, limiter } = setup({ onStoreError: 'fail-open' });
    const start = clock.now();
    const first = [limiter.acquire(), limiter.acquire(), limiter.acquire()];
    await flush();
    redis.calls[0]!.reject(new Error('Connection is closed.'));
    const granted: number[] = [];
    for (const p of first) {
      void p.then((release) => {
        granted.push(clock.now() - start);
        release();
      });
    }
    await clock.advance(0);
    expect(granted).toEqual([0, 0]); // limit 2 at once, from the fallback
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain('failing open');

    const callsBefore = redis.calls.length;
    const during = limiter.acquire();
    await clock.advance(500);
    expect(redis.calls.length).toBe(callsBefore); // too soon to probe
    await clock.advance(600);
    expect(granted).toEqual([0, 0, 1020]); // one window (plus the default margin) later
    (await during)();

    const probing = limiter.acquire(); // a second has passed: this one also probes
    await flush();
    const probe = redis.calls.at(-1)!;
    expect(probe).toMatchObject({ script: 'release', args: ['probe', 1020, 2, '0'] });
    probe.resolve(0);
    await flush();
    expect(limiter.storeUnavailable).toBe(false);
    expect(lines.info).toHaveLength(1);
    (await Promise.race([probing, clock.advance(2000).then(() => probing)]))();

    const shared = limiter.acquire();
    await flush();
    expect(redis.calls.at(-1)!.script).toBe('acquire');
    redis.calls.at(-1)!.resolve(0);
    await expect(shared).resolves.toBeTypeOf('function');
  });

  it('names the store in errors without credentials: a cluster, a unix socket, TLS over IPv6', async () => {
    for (const [redis, store] of [
      [{ isCluster: true }, 'cluster'],
      [{ options: { path: '/run/redis.sock', password: 'pw-1234' } }, 'unix:/run/redis.sock'],
      [{ options: { host: '::1', port: 6379, tls: {} } }, 'rediss://[::1]:6379'],
    ] as const) {
      const failing = Object.assign(Object.create(null), redis, {
        evalsha: () => Promise.reject(new Error('Connection is closed.')),
      });
      const limiter = new RedisRateLimiter({ redis: failing, key: 'k', limit: 1, interval: '1s' });
      await expect(limiter.acquire()).rejects.toMatchObject({ name: 'RateLimitStoreError', store });
    }
  });
});
