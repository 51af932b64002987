import { describe, expect, expectTypeOf, it } from 'vitest';
import { AbortError, RateLimitQueueError } from '../../src/errors.js';
import {
  type Clock,
  DEFAULT_SAFETY_MARGIN_MS,
  type Duration,
  isRateLimiter,
  MemoryRateLimiter,
  parseDuration,
  type RateLimiter,
} from '../../src/rate-limit.js';

/** A clock that only moves when told to; `sleep` resolves as `advance` passes its due time. */
class FakeClock implements Clock {
  #now = 1_700_000_000_000;
  readonly #sleepers: { at: number; resolve(): void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const sleeper = { at: this.#now + ms, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        this.#sleepers.splice(this.#sleepers.indexOf(sleeper), 1);
        reject(new AbortError('sleep aborted'));
      });
    });
  }

  /** Pending sleeps: the limiter promises at most one. */
  get timers(): number {
    return this.#sleepers.length;
  }

  /** Moves time forward by `ms`, waking sleepers in due order and letting their callbacks run. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flush();
    for (;;) {
      this.#sleepers.sort((a, b) => a.at - b.at);
      const next = this.#sleepers[0];
      if (!next || next.at > target) break;
      this.#sleepers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
      await flush();
    }
    this.#now = target;
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Acquires and records the clock time at which each call resolved (or the error it rejected with). */
function track(limiter: RateLimiter, clock: FakeClock, signal?: AbortSignal) {
  const state: { grantedAt?: number; error?: unknown } = {};
  limiter.acquire(signal).then(
    () => {
      state.grantedAt = clock.now();
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}

describe('parseDuration', () => {
  it.each([
    [250, 250],
    [0, 0],
    ['250ms', 250],
    ['1s', 1000],
    ['1.5s', 1500],
    ['.5s', 500],
    ['1m', 60_000],
    ['2h', 7_200_000],
  ] as const)('%j is %d ms', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });

  it.each(['1 s', '1d', '', 's', '-1s', '1e3ms', ' 1s', '1S'])(
    'rejects %j with a TypeError naming it',
    (input) => {
      expect(() => parseDuration(input as Duration)).toThrow(TypeError);
      expect(() => parseDuration(input as Duration)).toThrow(JSON.stringify(input));
    },
  );

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the number %d', (input) => {
    expect(() => parseDuration(input)).toThrow(new RegExp(`Invalid duration ${input}`));
  });

  it('types the accepted strings', () => {
    expectTypeOf<'1s'>().toExtend<Duration>();
    expectTypeOf<'250ms'>().toExtend<Duration>();
    expectTypeOf<'1d'>().not.toExtend<Duration>();
  });
});

describe('MemoryRateLimiter options', () => {
  it.each([
    [{ limit: 0, interval: '1s' }, /rate limit 0/],
    [{ limit: 1.5, interval: '1s' }, /rate limit 1.5/],
    [{ limit: 1, interval: '0s' }, /interval 0s/],
    [{ limit: 1, interval: '1 s' }, /"1 s"/],
    [{ limit: 1, interval: '1s', maxQueue: -1 }, /maxQueue -1/],
    [{ limit: 1, interval: '1s', maxWaitMs: Number.NaN }, /maxWaitMs NaN/],
    [{ limit: 1, interval: '1s', safetyMarginMs: -5 }, /safetyMarginMs -5/],
  ] as const)('rejects %j', (options, message) => {
    expect(() => new MemoryRateLimiter(options as never)).toThrow(message);
  });
});

describe('MemoryRateLimiter', () => {
  it('grants `limit` at once, then the next exactly one interval plus the default margin after the first', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 3, interval: '1s' }, clock);
    const calls = Array.from({ length: 4 }, () => track(limiter, clock));
    await clock.advance(0);
    expect(calls.map((c) => c.grantedAt)).toEqual([start, start, start, undefined]);
    await clock.advance(1000 + DEFAULT_SAFETY_MARGIN_MS - 1);
    expect(calls[3]!.grantedAt).toBeUndefined();
    await clock.advance(1);
    expect(calls[3]!.grantedAt).toBe(start + 1000 + DEFAULT_SAFETY_MARGIN_MS);
  });

  it('keeps a sliding window: each grant waits for the one `limit` grants earlier', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 3, interval: 1000, safetyMarginMs: 0 }, clock);
    track(limiter, clock);
    await clock.advance(400);
    track(limiter, clock);
    track(limiter, clock);
    await clock.advance(100);
    const fourth = track(limiter, clock);
    const fifth = track(limiter, clock);
    const sixth = track(limiter, clock);
    const seventh = track(limiter, clock);
    await clock.advance(5000);
    expect([fourth, fifth, sixth, seventh].map((c) => c.grantedAt! - start)).toEqual([
      1000, 1400, 1400, 2000,
    ]);
  });

  it('sends 120 requests at 20/s in exactly 5 windows, never more than 20 in any window, with one timer', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 20, interval: '1s' }, clock);
    const calls = Array.from({ length: 120 }, () => track(limiter, clock));
    let maxTimers = 0;
    for (let step = 0; step < 60; step++) {
      await clock.advance(100);
      maxTimers = Math.max(maxTimers, clock.timers);
    }
    const times = calls.map((c) => c.grantedAt!);
    expect(times.every((t) => t !== undefined)).toBe(true);
    const window = 1000 + DEFAULT_SAFETY_MARGIN_MS;
    expect(Math.max(...times) - start).toBe(5 * window);
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + window).length).toBeLessThanOrEqual(20);
    expect(maxTimers).toBe(1);
    expect(clock.timers).toBe(0);
  });

  it('serves waiters first in, first out', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 2, interval: '1s', safetyMarginMs: 0 }, clock);
    const order: number[] = [];
    const all = Array.from({ length: 7 }, (_, i) => limiter.acquire().then(() => order.push(i)));
    await clock.advance(3000);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("rejects with RateLimitQueueError('queue_full') beyond maxQueue waiters", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', maxQueue: 2 }, clock);
    await limiter.acquire(); // granted at once: not a waiter
    const waiting = [limiter.acquire(), limiter.acquire()];
    const error = await limiter.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitQueueError);
    expect(error).toMatchObject({
      reason: 'queue_full',
      message: expect.stringContaining('2 requests waiting'),
    });
    expect(limiter.pending).toBe(2);
    await clock.advance(5000);
    await expect(Promise.all(waiting)).resolves.toEqual([undefined, undefined]);
  });

  it("rejects with RateLimitQueueError('wait_timeout') a request that would wait longer than maxWaitMs", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter(
      { limit: 1, interval: '1s', maxWaitMs: 1500, safetyMarginMs: 0 },
      clock,
    );
    await limiter.acquire();
    const second = limiter.acquire(); // waits 1000 ms: fine
    await expect(limiter.acquire()).rejects.toMatchObject({
      name: 'RateLimitQueueError',
      reason: 'wait_timeout',
      message: expect.stringContaining('2000 ms'),
    });
    await clock.advance(1000);
    await expect(second).resolves.toBeUndefined();
  });

  it('an aborted waiter rejects with AbortError, leaves the queue, and the next one takes its slot', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', safetyMarginMs: 0 }, clock);
    await limiter.acquire();
    const controller = new AbortController();
    const aborted = track(limiter, clock, controller.signal);
    const next = track(limiter, clock);
    expect(limiter.pending).toBe(2);
    controller.abort(new Error('user cancelled'));
    await clock.advance(0);
    expect(aborted.error).toBeInstanceOf(AbortError);
    expect((aborted.error as AbortError).cause).toEqual(new Error('user cancelled'));
    expect(limiter.pending).toBe(1);
    await clock.advance(1000);
    expect(next.grantedAt).toBe(start + 1000);
  });

  it('rejects an already aborted signal without using a slot', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s' }, clock);
    await expect(limiter.acquire(AbortSignal.abort())).rejects.toBeInstanceOf(AbortError);
    const next = track(limiter, clock);
    await clock.advance(0);
    expect(next.grantedAt).toBe(clock.now());
  });

  it('pause() delays everyone, current waiters and new arrivals, and keeps the later pause', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 5, interval: '1s', safetyMarginMs: 0 }, clock);
    await limiter.acquire();
    const limited = Array.from({ length: 5 }, () => track(limiter, clock)); // 4 now, 1 at +1000
    await clock.advance(0);
    expect(limited.filter((c) => c.grantedAt !== undefined)).toHaveLength(4);
    limiter.pause(start + 3000);
    limiter.pause(start + 2000); // earlier: ignored
    const later = track(limiter, clock);
    await clock.advance(2999);
    expect(limited[4]!.grantedAt).toBeUndefined();
    expect(later.grantedAt).toBeUndefined();
    await clock.advance(1);
    expect(limited[4]!.grantedAt).toBe(start + 3000);
    expect(later.grantedAt).toBe(start + 3000);
  });

  it("pause() beyond a waiter's maxWaitMs rejects it with wait_timeout at once", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', maxWaitMs: 10_000 }, clock);
    await limiter.acquire();
    const waiter = track(limiter, clock);
    limiter.pause(clock.now() + 60_000);
    await clock.advance(0);
    expect(waiter.error).toMatchObject({ reason: 'wait_timeout' });
    expect(limiter.pending).toBe(0);
  });

  it('close() rejects waiters with AbortError, stops the timer and refuses new requests', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s' }, clock);
    await limiter.acquire();
    const waiter = limiter.acquire();
    expect(clock.timers).toBe(1);
    limiter.close();
    await expect(waiter).rejects.toBeInstanceOf(AbortError);
    expect(clock.timers).toBe(0);
    await expect(limiter.acquire()).rejects.toThrow('closed');
  });
});

describe('isRateLimiter', () => {
  it('recognises limiters by shape', () => {
    expect(isRateLimiter(new MemoryRateLimiter({ limit: 1, interval: '1s' }))).toBe(true);
    expect(isRateLimiter({ acquire: async () => {}, pause: () => {} })).toBe(true);
    expect(isRateLimiter({ acquire: async () => {} })).toBe(false);
    expect(isRateLimiter({ limit: 60, interval: '1m' })).toBe(false);
    expect(isRateLimiter(null)).toBe(false);
    expect(isRateLimiter('limiter')).toBe(false);
  });

  it('narrows the type', () => {
    const value: unknown = new MemoryRateLimiter({ limit: 1, interval: '1s' });
    if (isRateLimiter(value)) expectTypeOf(value).toEqualTypeOf<RateLimiter>();
  });
});
