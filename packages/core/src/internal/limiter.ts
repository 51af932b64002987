/**
 * The machinery both rate limiters share: the options, grant and clock types, option validation and
 * defaults, the waiter queue with its abort wiring, the release-once guard, the real clock and the errors
 * they reject with. Not exported from the package: `rate-limit.ts` re-exports what is public (option
 * types, durations, defaults; they live here so this module needs nothing from it), `redis.ts` borrows
 * the rest, so the in-memory and the Redis limiter cannot drift apart in how they validate, queue and
 * fail. The algorithm itself, and why it is strict, is described in `rate-limit.ts`.
 */
import type { Clock } from '../base/clock.js';
import { AbortError, RateLimitQueueError } from '../errors.js';
import { whenAborted } from './abort-fanout.js';

export type Duration = number | `${number}${'ms' | 's' | 'm' | 'h'}`;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION_PATTERN = /^(\d*\.?\d+)(ms|s|m|h)$/;

/** Milliseconds in a {@link Duration}: a number is already ms; strings are `'250ms' | '1s' | '1m' | '1h'`. */
export function parseDuration(value: Duration): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value >= 0) return value;
    throw new TypeError(`Invalid duration ${String(value)}: expected a finite number of ms >= 0`);
  }
  const match = typeof value === 'string' ? DURATION_PATTERN.exec(value) : null;
  if (!match) {
    throw new TypeError(
      `Invalid duration ${JSON.stringify(value)}: expected ms as a number or a string like '500ms', '1s', '1m', '1h'`,
    );
  }
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

export const DEFAULT_MAX_QUEUE = 1000;
export const DEFAULT_MAX_WAIT_MS = 5 * 60_000;
/** Extra spacing per window; see the module comment of `rate-limit.ts`. 5% of a 1 s window, negligible for a minute. */
export const DEFAULT_SAFETY_MARGIN_MS = 20;
/** How long an unreleased grant counts as in flight; see the module comment of `rate-limit.ts`. */
export const DEFAULT_INFLIGHT_LEASE_MS = 120_000;

export interface RateLimitOptions {
  /** At most this many requests ... */
  limit: number;
  /** ... in any window of this length, e.g. `{ limit: 60, interval: '1m' }`. */
  interval: Duration;
  /** Requests allowed to wait; one more is rejected with `RateLimitQueueError('queue_full')`. Default 1000. */
  maxQueue?: number;
  /**
   * A request that would wait longer is rejected with `RateLimitQueueError('wait_timeout')`: at once
   * when even the most favourable course (every in-flight request completing now) is too slow, else
   * when the deadline passes. Default 5 minutes.
   */
  maxWaitMs?: number;
  /**
   * Added to `interval` when spacing requests, for servers whose counters are coarser than ours.
   * Default {@link DEFAULT_SAFETY_MARGIN_MS} (20 ms).
   */
  safetyMarginMs?: number;
  /**
   * A granted request whose release function has not been called after this long counts as completed
   * at that moment, so a lost release cannot block the limiter forever. Keep it above the longest
   * time a request can take to reach the server (the request timeout). Default 120 000 (2 minutes).
   */
  inflightLeaseMs?: number;
}

/**
 * Ends one granted request's slot: call it once the request has finished (response fully read, or
 * failed). Calling it again does nothing.
 */
export type ReleaseSlot = () => void;

/**
 * Time as a rate limiter takes it: the SDK's `Clock`'s `now`, and an abortable sleep in place of its
 * timers (a limiter only ever waits for its next slot).
 */
export interface RateLimitClock extends Pick<Clock, 'now'> {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects (with AbortError) when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Validated options shared by the in-memory and the Redis limiter. */
export interface ResolvedRateLimitOptions {
  limit: number;
  intervalMs: number;
  /** `interval + safetyMargin`: how long a completed request stays recent. */
  windowMs: number;
  maxQueue: number;
  maxWaitMs: number;
  leaseMs: number;
}

export function resolveRateLimitOptions(options: RateLimitOptions): ResolvedRateLimitOptions {
  const { limit } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(`Invalid rate limit ${String(limit)}: expected an integer >= 1`);
  }
  let intervalMs: number;
  try {
    intervalMs = parseDuration(options.interval);
  } catch (error) {
    throw new TypeError(`Invalid rate limit interval: ${(error as Error).message}`);
  }
  if (intervalMs <= 0)
    throw new TypeError(`Invalid rate limit interval ${String(options.interval)}: must be > 0`);
  const maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 0) {
    throw new TypeError(`Invalid maxQueue ${String(maxQueue)}: expected an integer >= 0`);
  }
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (Number.isNaN(maxWaitMs) || maxWaitMs < 0) {
    throw new TypeError(`Invalid maxWaitMs ${String(maxWaitMs)}: expected a number >= 0`);
  }
  const margin = options.safetyMarginMs ?? DEFAULT_SAFETY_MARGIN_MS;
  if (!Number.isFinite(margin) || margin < 0) {
    throw new TypeError(`Invalid safetyMarginMs ${String(margin)}: expected a finite number >= 0`);
  }
  const leaseMs = options.inflightLeaseMs ?? DEFAULT_INFLIGHT_LEASE_MS;
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new TypeError(`Invalid inflightLeaseMs ${String(leaseMs)}: expected a finite number > 0`);
  }
  return { limit, intervalMs, windowMs: intervalMs + margin, maxQueue, maxWaitMs, leaseMs };
}

export function abortError(
  signal: AbortSignal | undefined,
  what = 'Request aborted while waiting for a rate-limit slot',
) {
  return new AbortError(what, { cause: signal?.reason });
}

export function queueFullError(maxQueue: number): RateLimitQueueError {
  return new RateLimitQueueError(
    'queue_full',
    `Rate limiter queue is full (${maxQueue} requests waiting); raise maxQueue or send fewer requests at once`,
  );
}

export function waitTimeoutError(waitMs: number, maxWaitMs: number): RateLimitQueueError {
  return new RateLimitQueueError(
    'wait_timeout',
    `Request would wait ${Math.ceil(waitMs)} ms for a rate-limit slot, longer than maxWaitMs (${maxWaitMs} ms)`,
  );
}

function monotonicEpochMs(): number {
  // performance.now() never jumps with wall-clock corrections (NTP, manual changes), which would
  // otherwise grant slots early; timeOrigin anchors it to the epoch so pause() deadlines compare.
  return typeof performance !== 'undefined' && typeof performance.timeOrigin === 'number'
    ? performance.timeOrigin + performance.now()
    : Date.now();
}

/** The real clock: monotonic epoch ms and `setTimeout`. Stateless, so one shared object is fine. */
export const systemClock: RateLimitClock = Object.freeze({
  now: monotonicEpochMs,
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal, 'Sleep aborted'));
        return;
      }
      const timer = setTimeout(() => {
        stop?.();
        resolve();
      }, ms);
      const stop =
        signal &&
        whenAborted(signal, () => {
          clearTimeout(timer);
          reject(abortError(signal, 'Sleep aborted'));
        });
    });
  },
});

/** One queued `acquire()` call. */
export interface Waiter {
  resolve(release: ReleaseSlot): void;
  reject(error: unknown): void;
  /** Clock time after which it would rather fail with `wait_timeout` than keep waiting. */
  deadline: number;
  /** The caller's signal, for a limiter that hands the waiter on to another queue. */
  signal: AbortSignal | undefined;
}

/**
 * Creates the promise for one `acquire()` and wires its abort signal: on abort the waiter
 * leaves `queue` and rejects with AbortError. Settling removes the listener.
 */
export function enqueueWaiter(
  queue: Waiter[],
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<ReleaseSlot> {
  return new Promise<ReleaseSlot>((resolve, reject) => {
    const onAbort = () => {
      const index = queue.indexOf(waiter);
      if (index !== -1) queue.splice(index, 1);
      reject(abortError(signal));
    };
    const waiter: Waiter = {
      deadline,
      signal,
      resolve(release) {
        stop?.();
        resolve(release);
      },
      reject(error) {
        stop?.();
        reject(error);
      },
    };
    queue.push(waiter);
    // Through one listener per signal: a batch of calls queued on one AbortController is the common case.
    const stop = signal && whenAborted(signal, onAbort);
  });
}

/** A {@link ReleaseSlot} that runs `release` on its first call only. */
export function releaseOnce(release: () => void): ReleaseSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
