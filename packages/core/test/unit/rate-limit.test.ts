import { describe, expect, expectTypeOf, it } from 'vitest';
import { AbortError, RateLimitQueueError } from '../../src/errors.js';
import {
  DEFAULT_SAFETY_MARGIN_MS,
  type Duration,
  isRateLimiter,
  MemoryRateLimiter,
  parseDuration,
  type RateLimiter,
  type ReleaseSlot,
} from '../../src/rate-limit.js';
import { FakeClock, granted, type Tracked, track, trackReleasing } from '../helpers/rate-limit-clock.js';

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
    [{ limit: 1, interval: '1s', inflightLeaseMs: 0 }, /inflightLeaseMs 0/],
  ] as const)('rejects %j', (options, message) => {
    expect(() => new MemoryRateLimiter(options as never)).toThrow(message);
  });
});

describe('MemoryRateLimiter', () => {
  it('grants `limit` at once, holds the next while they are in flight, then one window after the limit-th most recent completion', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 3, interval: '1s' }, clock);
    const calls = Array.from({ length: 4 }, () => track(limiter, clock));
    await clock.advance(0);
    expect(calls.map((c) => c.grantedAt)).toEqual([start, start, start, undefined]);
    expect(limiter.inflight).toBe(3);
    await clock.advance(2000); // far beyond one window: in flight still counts
    expect(calls[3]!.grantedAt).toBeUndefined();
    calls[0]!.release!();
    await clock.advance(100);
    calls[1]!.release!();
    calls[2]!.release!();
    // 3 recent entries (completed at +2000, +2100, +2100); the oldest stops counting after interval + margin.
    await clock.advance(1000 + DEFAULT_SAFETY_MARGIN_MS - 101);
    expect(calls[3]!.grantedAt).toBeUndefined();
    await clock.advance(1);
    expect(calls[3]!.grantedAt).toBe(start + 2000 + 1000 + DEFAULT_SAFETY_MARGIN_MS);
  });

  it('keeps a sliding window over completions: each grant waits for the entry `limit` grants earlier', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 3, interval: 1000, safetyMarginMs: 0 }, clock);
    trackReleasing(limiter, clock);
    await clock.advance(400);
    trackReleasing(limiter, clock);
    trackReleasing(limiter, clock);
    await clock.advance(100);
    const later = Array.from({ length: 4 }, () => trackReleasing(limiter, clock));
    await clock.advance(5000);
    expect(later.map((c) => c.grantedAt! - start)).toEqual([1000, 1400, 1400, 2000]);
  });

  it('sends 120 requests at 20/s with a 10 ms round-trip in 5 × (window + round-trip), never more than 20 arrivals in any window, with one timer', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 20, interval: '1s' }, clock);
    const calls = Array.from({ length: 120 }, () => track(limiter, clock));
    const released = new Set<Tracked>();
    let maxTimers = 0;
    for (let step = 0; step < 600; step++) {
      await clock.advance(10);
      for (const call of calls) {
        if (call.grantedAt !== undefined && call.grantedAt <= clock.now() - 10 && !released.has(call)) {
          released.add(call);
          call.release!();
        }
      }
      maxTimers = Math.max(maxTimers, clock.timers);
    }
    const times = calls.map((c) => c.grantedAt!);
    expect(times.every((t) => t !== undefined)).toBe(true);
    const window = 1000 + DEFAULT_SAFETY_MARGIN_MS;
    expect(Math.max(...times) - start).toBe(5 * (window + 10));
    // Wherever between grant and completion each arrives, no 21 fit in one interval + margin.
    for (const jitter of [0, 5, 10]) {
      const arrivals = times.map((t, i) => t + ((i * jitter) % 11));
      for (const t of arrivals)
        expect(arrivals.filter((u) => u >= t && u < t + window).length).toBeLessThanOrEqual(20);
    }
    expect(maxTimers).toBe(1);
    expect(clock.timers).toBe(0);
  });

  it('in-flight entries block however long they take (until their lease)', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 2, interval: '1s' }, clock);
    const held = [track(limiter, clock), track(limiter, clock)];
    const waiting = track(limiter, clock);
    await clock.advance(60_000);
    expect(granted(held)).toBe(2);
    expect(waiting.grantedAt).toBeUndefined();
    expect(limiter.inflight).toBe(2);
    expect(limiter.pending).toBe(1);
    expect(clock.timers).toBe(1); // armed for the lease, not polling
  });

  it('a release re-evaluates the queue: the timer moves from the lease to completion + window', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter(
      { limit: 2, interval: '1s', safetyMarginMs: 0, inflightLeaseMs: 30_000 },
      clock,
    );
    const [a] = [track(limiter, clock), track(limiter, clock)];
    const waiting = track(limiter, clock);
    await clock.advance(0);
    expect(clock.timerAt).toBe(start + 30_000 + 1000);
    await clock.advance(300);
    a!.release!();
    expect(clock.timers).toBe(1);
    expect(clock.timerAt).toBe(start + 300 + 1000);
    await clock.advance(999);
    expect(waiting.grantedAt).toBeUndefined();
    await clock.advance(1);
    expect(waiting.grantedAt).toBe(start + 1300);
  });

  it('calling a release function twice is harmless', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 2, interval: '1s', safetyMarginMs: 0 }, clock);
    const release = await limiter.acquire();
    release();
    release();
    await clock.advance(500);
    release();
    expect(limiter.inflight).toBe(0);
    // One completion logged (at start), not three: two more fit, the third waits for start + 1000.
    const calls = Array.from({ length: 3 }, () => trackReleasing(limiter, clock));
    await clock.advance(0);
    expect(granted(calls)).toBe(1);
    await clock.advance(500);
    expect(calls.map((c) => c.grantedAt)).toEqual([start + 500, start + 1000, undefined]);
    await clock.advance(500);
    expect(calls[2]!.grantedAt).toBe(start + 1500);
  });

  it('a release never called stops blocking when its lease expires; releasing it late does nothing', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter(
      { limit: 1, interval: '1s', safetyMarginMs: 0, inflightLeaseMs: 5000 },
      clock,
    );
    const lost = await limiter.acquire();
    const next = track(limiter, clock);
    await clock.advance(5999);
    expect(next.grantedAt).toBeUndefined();
    await clock.advance(1);
    // Counted as completed at lease expiry (+5000), so recent until +6000.
    expect(next.grantedAt).toBe(start + 6000);
    expect(limiter.inflight).toBe(1);
    next.release!(); // completed at +6000
    await clock.advance(500);
    lost(); // late: must not log a completion at +6500
    expect(limiter.inflight).toBe(0);
    const third = track(limiter, clock);
    await clock.advance(499);
    expect(third.grantedAt).toBeUndefined();
    await clock.advance(1);
    expect(third.grantedAt).toBe(start + 7000);
  });

  it('serves waiters first in, first out', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 2, interval: '1s', safetyMarginMs: 0 }, clock);
    const order: number[] = [];
    const all = Array.from({ length: 7 }, (_, i) =>
      limiter.acquire().then((release) => {
        order.push(i);
        release();
      }),
    );
    await clock.advance(3000);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("rejects with RateLimitQueueError('queue_full') beyond maxQueue waiters", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', maxQueue: 2 }, clock);
    (await limiter.acquire())(); // granted at once: not a waiter
    const waiting = [limiter.acquire(), limiter.acquire()];
    const error = await limiter.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitQueueError);
    expect(error).toMatchObject({
      reason: 'queue_full',
      message: expect.stringContaining('2 requests waiting'),
    });
    expect(limiter.pending).toBe(2);
    const first = await Promise.race([waiting[0]!, clock.advance(5000).then(() => waiting[0]!)]);
    first();
    await clock.advance(5000);
    await expect(waiting[1]).resolves.toBeTypeOf('function');
  });

  it("rejects with RateLimitQueueError('wait_timeout') at once a request that cannot go within maxWaitMs", async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter(
      { limit: 1, interval: '1s', maxWaitMs: 1500, safetyMarginMs: 0 },
      clock,
    );
    (await limiter.acquire())();
    const second = limiter.acquire(); // waits 1000 ms: fine
    await expect(limiter.acquire()).rejects.toMatchObject({
      name: 'RateLimitQueueError',
      reason: 'wait_timeout',
      message: expect.stringContaining('2000 ms'),
    });
    await clock.advance(1000);
    await expect(second).resolves.toBeTypeOf('function');
  });

  it('rejects with wait_timeout when the deadline passes while in-flight requests still block', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', maxWaitMs: 3000 }, clock);
    await limiter.acquire(); // never released within the test
    const waiter = track(limiter, clock); // might go at +1050 if the first completed now: it waits
    await clock.advance(2999);
    expect(waiter.error).toBeUndefined();
    await clock.advance(1);
    expect(waiter.error).toMatchObject({ name: 'RateLimitQueueError', reason: 'wait_timeout' });
    expect(limiter.pending).toBe(0);
    expect(clock.timers).toBe(0);
  });

  it('an aborted waiter rejects with AbortError, leaves the queue, and the next one takes its slot', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s', safetyMarginMs: 0 }, clock);
    (await limiter.acquire())();
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
    expect(limiter.inflight).toBe(1);
  });

  it('rejects an already aborted signal without using a slot', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s' }, clock);
    await expect(limiter.acquire(AbortSignal.abort())).rejects.toBeInstanceOf(AbortError);
    expect(limiter.inflight).toBe(0);
    const next = track(limiter, clock);
    await clock.advance(0);
    expect(next.grantedAt).toBe(clock.now());
  });

  it('pause() delays everyone, current waiters and new arrivals, and keeps the later pause', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const limiter = new MemoryRateLimiter({ limit: 5, interval: '1s', safetyMarginMs: 0 }, clock);
    (await limiter.acquire())();
    const limited = Array.from({ length: 5 }, () => trackReleasing(limiter, clock)); // 4 now, 1 at +1000
    await clock.advance(0);
    expect(granted(limited)).toBe(4);
    limiter.pause(start + 3000);
    limiter.pause(start + 2000); // earlier: ignored
    const later = trackReleasing(limiter, clock);
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
    expect(clock.timers).toBe(0);
  });

  it('close() rejects waiters with AbortError, stops the timer and refuses new requests; late releases are harmless', async () => {
    const clock = new FakeClock();
    const limiter = new MemoryRateLimiter({ limit: 1, interval: '1s' }, clock);
    const release = await limiter.acquire();
    const waiter = limiter.acquire();
    expect(clock.timers).toBe(1);
    limiter.close();
    await expect(waiter).rejects.toBeInstanceOf(AbortError);
    expect(clock.timers).toBe(0);
    await expect(limiter.acquire()).rejects.toThrow('closed');
    expect(() => release()).not.toThrow();
    expect(clock.timers).toBe(0);
  });

  it('types acquire() as resolving with a release function', () => {
    expectTypeOf<RateLimiter['acquire']>().returns.toEqualTypeOf<Promise<ReleaseSlot>>();
    expectTypeOf<ReleaseSlot>().toEqualTypeOf<() => void>();
  });
});

describe('isRateLimiter', () => {
  it('recognises limiters by shape', () => {
    expect(isRateLimiter(new MemoryRateLimiter({ limit: 1, interval: '1s' }))).toBe(true);
    expect(isRateLimiter({ acquire: async () => () => {}, pause: () => {} })).toBe(true);
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
