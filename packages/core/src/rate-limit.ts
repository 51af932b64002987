/**
 * Client-side rate limiting: `{ limit, interval }` means "never let the server see more than `limit`
 * requests in ANY window of `interval`", including windows that start between two of our requests.
 *
 * Algorithm: a sliding-window log. We keep the send times of the last `limit` grants; a new request
 * may go at `max(now, pausedUntil, oldestOfLastLimit + interval + safetyMargin)`. This is exact: the
 * log holds the only information that matters, and each grant waits for precisely the moment the
 * window allows it, so 120 requests at 20/s finish in 5 intervals, not 6.
 *
 * Why not a token bucket / GCRA: with a burst capacity of `limit` a full bucket lets `limit` go at
 * once and then refills continuously, so `limit + 1` (up to nearly `2 * limit`) requests can fall in
 * one interval. Servers that enforce a strict sliding window (or a fixed window whose boundaries we do
 * not know) answer that with 429s. A bucket without burst (one request every `interval / limit`) never
 * overshoots, but it spreads a burst of 20 over a whole second where the server would have accepted
 * it at once. The log costs `limit` numbers of memory, which is small for any real limit.
 *
 * `safetyMarginMs` (default {@link DEFAULT_SAFETY_MARGIN_MS} = 50 ms) widens each window: a request
 * may leave `interval + margin` after the one `limit` grants before it, so when network latency varies
 * by less than the margin between those two requests the server still sees them a full interval
 * apart. The limiter controls when requests leave, not when they arrive: a cold client (new TCP/TLS
 * connections, a not yet loaded or optimised HTTP stack) can deliver its first window 20-300 ms late
 * and so squeeze it against the next. Raise the margin for high-jitter links or bursty cold starts;
 * it costs `margin / interval` of throughput.
 *
 * In memory: one FIFO queue and at most one pending timer, armed for the exact next slot. The shared
 * Redis limiter (`@x/core/redis`) runs the same log as one Lua script on the Redis clock.
 *
 * This module is universal (browser, Node, edge): no `node:` imports.
 */
import { AbortError, RateLimitQueueError } from './errors.js';

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
/** Extra spacing per window; see the module comment. 5% of a 1 s window, negligible for a minute. */
export const DEFAULT_SAFETY_MARGIN_MS = 50;

export interface RateLimitOptions {
  /** At most this many requests ... */
  limit: number;
  /** ... in any window of this length, e.g. `{ limit: 60, interval: '1m' }`. */
  interval: Duration;
  /** Requests allowed to wait; one more is rejected with `RateLimitQueueError('queue_full')`. Default 1000. */
  maxQueue?: number;
  /** A request that would wait longer is rejected with `RateLimitQueueError('wait_timeout')`. Default 5 minutes. */
  maxWaitMs?: number;
  /**
   * Added to `interval` when spacing requests, so that network jitter cannot make the SERVER observe
   * more than `limit` in one window. Default {@link DEFAULT_SAFETY_MARGIN_MS} (50 ms).
   */
  safetyMarginMs?: number;
}

export interface RateLimiter {
  /**
   * Resolves when one request may be sent now. FIFO among waiters. Rejects with RateLimitQueueError,
   * or AbortError (and leaves the queue) when `signal` aborts.
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * The server said stop (429 Retry-After, RateLimit-Remaining: 0 + reset): nobody, in any process
   * sharing the store, gets a slot before `untilEpochMs`. Keeps the later of the current pause and this one.
   */
  pause(untilEpochMs: number): void | Promise<void>;
  /** Rejects every waiter with AbortError and stops the timer. Idempotent. */
  close?(): void | Promise<void>;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects (with AbortError) when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** @internal Validated options shared by the in-memory and the Redis limiter. */
export interface ResolvedRateLimitOptions {
  limit: number;
  intervalMs: number;
  /** `interval + safetyMargin`: the spacing between a grant and the one `limit` grants later. */
  windowMs: number;
  maxQueue: number;
  maxWaitMs: number;
}

/** @internal */
export function resolveRateLimitOptions(options: RateLimitOptions): ResolvedRateLimitOptions {
  const { limit } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(`Invalid rate limit ${String(limit)}: expected an integer >= 1`);
  }
  const intervalMs = parseDuration(options.interval);
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
  return { limit, intervalMs, windowMs: intervalMs + margin, maxQueue, maxWaitMs };
}

/** @internal */
export function abortError(
  signal: AbortSignal | undefined,
  what = 'Request aborted while waiting for a rate-limit slot',
) {
  return new AbortError(what, { cause: signal?.reason });
}

/** @internal */
export function queueFullError(maxQueue: number): RateLimitQueueError {
  return new RateLimitQueueError(
    'queue_full',
    `Rate limiter queue is full (${maxQueue} requests waiting); raise maxQueue or send fewer requests at once`,
  );
}

/** @internal */
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
export const systemClock: Clock = Object.freeze({
  now: monotonicEpochMs,
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal, 'Sleep aborted'));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError(signal, 'Sleep aborted'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
});

/** @internal One queued `acquire()` call. */
export interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  /** Clock time after which it would rather fail with `wait_timeout` than keep waiting. */
  deadline: number;
}

/**
 * @internal Creates the promise for one `acquire()` and wires its abort signal: on abort the waiter
 * leaves `queue` and rejects with AbortError. Settling removes the listener.
 */
export function enqueueWaiter(
  queue: Waiter[],
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const index = queue.indexOf(waiter);
      if (index !== -1) queue.splice(index, 1);
      reject(abortError(signal));
    };
    const waiter: Waiter = {
      deadline,
      resolve() {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      reject(error) {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    };
    queue.push(waiter);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Sliding-window-log limiter for one process (see the module comment). */
export class MemoryRateLimiter implements RateLimiter {
  readonly #options: ResolvedRateLimitOptions;
  readonly #clock: Clock;
  /** Send times of the last `limit` grants, a ring buffer: oldest at `#start` once full. */
  readonly #log: number[] = [];
  #start = 0;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  readonly #queue: Waiter[] = [];
  /** True while the single timer is pending; it always fires at or before the head's slot. */
  #timerPending = false;
  readonly #closing = new AbortController();

  constructor(options: RateLimitOptions, clock: Clock = systemClock) {
    this.#options = resolveRateLimitOptions(options);
    this.#clock = clock;
  }

  /** Requests currently waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closing.signal.aborted)
      return Promise.reject(abortError(undefined, 'The rate limiter is closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const now = this.#clock.now();
    this.#grantDue(now);
    const position = this.#queue.length;
    const slot = this.#slot(position, now);
    if (position === 0 && slot <= now) {
      this.#record(now);
      return Promise.resolve();
    }
    const { maxQueue, maxWaitMs } = this.#options;
    if (position >= maxQueue) return Promise.reject(queueFullError(maxQueue));
    if (slot - now > maxWaitMs) return Promise.reject(waitTimeoutError(slot - now, maxWaitMs));
    const promise = enqueueWaiter(this.#queue, now + maxWaitMs, signal);
    this.#arm(now);
    return promise;
  }

  pause(untilEpochMs: number): void {
    if (!(untilEpochMs > this.#pausedUntil)) return;
    this.#pausedUntil = untilEpochMs;
    // Waiters whose new slot lies beyond their deadline fail now rather than when the deadline passes.
    const now = this.#clock.now();
    const waiting = this.#queue.splice(0);
    for (const waiter of waiting) {
      const slot = this.#slot(this.#queue.length, now);
      if (slot > waiter.deadline) waiter.reject(waitTimeoutError(slot - now, this.#options.maxWaitMs));
      else this.#queue.push(waiter);
    }
  }

  close(): void {
    this.#closing.abort();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(abortError(undefined, 'The rate limiter was closed'));
  }

  /**
   * Earliest send time of the request `position` places behind the head of the queue (0 = head), given
   * the grants so far. Future grant j waits for the grant `limit` before it: a logged one for j < limit,
   * otherwise future grant j - limit, which gives the closed form below.
   */
  #slot(position: number, now: number): number {
    const { limit, windowMs } = this.#options;
    const first = position % limit;
    const laps = (position - first) / limit;
    const logged = this.#log.length;
    const index = logged + first - limit; // index into the log, oldest first
    const base = Math.max(now, this.#pausedUntil);
    const slot = index < 0 ? base : Math.max(base, this.#log[(this.#start + index) % logged]! + windowMs);
    return slot + laps * windowMs;
  }

  #record(now: number): void {
    if (this.#log.length < this.#options.limit) {
      this.#log.push(now);
    } else {
      this.#log[this.#start] = now;
      this.#start = (this.#start + 1) % this.#options.limit;
    }
  }

  #grantDue(now: number): void {
    while (this.#queue.length > 0 && this.#slot(0, now) <= now) {
      this.#record(now);
      this.#queue.shift()!.resolve();
    }
  }

  #arm(now: number): void {
    if (this.#timerPending || this.#queue.length === 0) return;
    this.#timerPending = true;
    const delay = Math.max(0, Math.ceil(this.#slot(0, now) - now));
    this.#clock.sleep(delay, this.#closing.signal).then(
      () => {
        this.#timerPending = false;
        const at = this.#clock.now();
        this.#grantDue(at);
        this.#arm(at);
      },
      () => {
        this.#timerPending = false;
      },
    );
  }
}

/** True for anything with the RateLimiter shape (`acquire` and `pause` methods), e.g. a user's own limiter. */
export function isRateLimiter(value: unknown): value is RateLimiter {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const candidate = value as { acquire?: unknown; pause?: unknown };
  return typeof candidate.acquire === 'function' && typeof candidate.pause === 'function';
}
