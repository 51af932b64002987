/**
 * Client-side rate limiting: `{ limit, interval }` means "never let the server see more than `limit`
 * requests in ANY window of `interval`", including windows that start between two of our requests,
 * whatever the network latency.
 *
 * Contract: `acquire()` resolves with a {@link ReleaseSlot}; call it once the request has finished
 * (response fully read, or failed). Until then the request counts as IN FLIGHT. (Before this contract
 * `acquire()` resolved with nothing and the limiter only knew when requests left.)
 *
 * Algorithm: a sliding-window log over COMPLETION times. A limiter only controls when a request leaves,
 * but the server counts when it ARRIVES, and that lies anywhere between release and completion: a cold
 * client (new TCP/TLS connections, an HTTP stack not yet loaded) delivers its first batch 20-150 ms
 * after release, later ones take 1-10 ms, so logging release times let two batches land in one server
 * window. So each grant is recorded as in flight, and on release as completed at that moment. A new
 * request may leave at `now` only if fewer than `limit` entries are "recent": an in-flight entry
 * always is, a completed one while `completion > now - interval - safetyMargin`.
 *
 * Why that is strict: take any other request B the server saw within `interval` of our request A.
 * If B was recent when A left, it is one of at most `limit - 1` such others. If it was not, B completed,
 * hence arrived, more than `interval` before A left, hence before A arrived: it is not within
 * `interval` of A. So at most `limit` arrivals fall in any window the server observes.
 *
 * When completed entries block, the next slot is exact: (the `limit`-th most recent completion, with
 * in-flight entries counted as the most recent) + interval + margin. When in-flight entries block,
 * nothing can be known until one completes; in memory, the release function re-evaluates the queue
 * (no polling). The cost: each window now starts a round-trip later than the previous one ended on
 * the server, so throughput drops by about one round-trip per window: 120 requests at 20/s take
 * 5 windows + 5 round-trips instead of 5 windows; negligible for minute windows.
 *
 * A release function that is never called (a caller's bug, a crashed process) must not block forever:
 * an in-flight entry holds a lease (`inflightLeaseMs`, default {@link DEFAULT_INFLIGHT_LEASE_MS} =
 * 120 s, longer than the default 60 s request timeout) and counts as completed at its expiry.
 * Releasing twice, or after the lease expired, does nothing.
 *
 * `safetyMarginMs` (default {@link DEFAULT_SAFETY_MARGIN_MS} = 20 ms) widens each window. It is no
 * longer needed for latency (the rule above is strict for any latency); it covers servers whose
 * counters are coarser than ours (whole-millisecond or batched timestamps, clocks of several
 * front-ends) and costs `margin / interval` of throughput.
 *
 * Why not a token bucket / GCRA: with a burst capacity of `limit` a full bucket lets `limit` go at
 * once and then refills continuously, so `limit + 1` (up to nearly `2 * limit`) requests can fall in
 * one interval. Servers that enforce a strict sliding window (or a fixed window whose boundaries we do
 * not know) answer that with 429s. A bucket without burst (one request every `interval / limit`) never
 * overshoots, but it spreads a burst of 20 over a whole second where the server would have accepted
 * it at once. The log holds at most `limit` completions and `limit` in-flight entries.
 *
 * In memory: one FIFO queue and at most one pending timer, armed for the head's next slot (or its
 * deadline) and moved earlier when a release makes the slot known. The shared Redis limiter
 * (`@x/core/redis`) runs the same rule as Lua scripts on the Redis clock.
 *
 * This module is universal (browser, Node, edge): no `node:` imports.
 */
import {
  abortError,
  enqueueWaiter,
  queueFullError,
  type RateLimitClock,
  type RateLimitOptions,
  type ReleaseSlot,
  type ResolvedRateLimitOptions,
  releaseOnce,
  resolveRateLimitOptions,
  systemClock,
  type Waiter,
  waitTimeoutError,
} from './internal/limiter.js';

export {
  DEFAULT_INFLIGHT_LEASE_MS,
  DEFAULT_MAX_QUEUE,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_SAFETY_MARGIN_MS,
  type Duration,
  parseDuration,
  type RateLimitClock,
  type RateLimitOptions,
  type ReleaseSlot,
} from './internal/limiter.js';

/**
 * A rate limiter. `acquire()` resolves with a {@link ReleaseSlot} (it used to resolve with nothing):
 * the limiter counts a request from its grant until its release, because its arrival at the server
 * lies somewhere in between.
 */
export interface RateLimiter {
  /**
   * Resolves when one request may be sent; call the returned function once the request has finished
   * (response fully read, or failed). FIFO among waiters. Rejects with RateLimitQueueError, or
   * AbortError (and leaves the queue) when `signal` aborts.
   */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
  /**
   * The server said stop (429 Retry-After, RateLimit-Remaining: 0 + reset): nobody, in any process
   * sharing the store, gets a slot before `untilEpochMs`. Keeps the later of the current pause and this one.
   */
  pause(untilEpochMs: number): void | Promise<void>;
  /** Rejects every waiter with AbortError and stops the timer. Idempotent. */
  close?(): void | Promise<void>;
}

/** setTimeout fires at once beyond 2^31 - 1 ms; a longer wait just re-arms when this one ends. */
const MAX_TIMER_MS = 2_147_483_647;

/** Sliding-window log over completion times, for one process (see the module comment). */
export class MemoryRateLimiter implements RateLimiter {
  readonly #options: ResolvedRateLimitOptions;
  readonly #clock: RateLimitClock;
  /** Completion times, ascending; only the last `limit` can ever block, older ones are dropped. */
  readonly #completed: number[] = [];
  /** Lease expiry per in-flight grant. Monotonic clock and a fixed lease: insertion order is expiry order. */
  readonly #inflight = new Map<number, number>();
  #grants = 0;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  readonly #queue: Waiter[] = [];
  /** The one pending timer: due at or before the head's next slot or deadline. */
  #timer: { at: number; cancel: AbortController } | undefined;
  #closed = false;

  constructor(options: RateLimitOptions, clock: RateLimitClock = systemClock) {
    this.#options = resolveRateLimitOptions(options);
    this.#clock = clock;
  }

  /** Requests currently waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Granted requests not released yet (and whose lease has not expired). */
  get inflight(): number {
    this.#expireLeases(this.#clock.now());
    return this.#inflight.size;
  }

  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (this.#closed) return Promise.reject(abortError(undefined, 'The rate limiter is closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const now = this.#clock.now();
    this.#grantDue(now);
    const position = this.#queue.length;
    if (position === 0 && this.#nextSlot(now) <= now) return Promise.resolve(this.#grant(now));
    const { maxQueue, maxWaitMs } = this.#options;
    if (position >= maxQueue) return Promise.reject(queueFullError(maxQueue));
    const earliest = this.#earliestSlot(position, now);
    if (earliest - now > maxWaitMs) return Promise.reject(waitTimeoutError(earliest - now, maxWaitMs));
    const promise = enqueueWaiter(this.#queue, now + maxWaitMs, signal);
    this.#arm(now);
    return promise;
  }

  pause(untilEpochMs: number): void {
    if (!(untilEpochMs > this.#pausedUntil)) return;
    this.#pausedUntil = untilEpochMs;
    // Waiters that cannot get a slot before their deadline even if everything in flight completed now
    // fail now rather than when the deadline passes.
    const now = this.#clock.now();
    const waiting = this.#queue.splice(0);
    for (const waiter of waiting) {
      const slot = this.#earliestSlot(this.#queue.length, now);
      if (slot > waiter.deadline) waiter.reject(waitTimeoutError(slot - now, this.#options.maxWaitMs));
      else this.#queue.push(waiter);
    }
    this.#arm(now);
  }

  close(): void {
    this.#closed = true;
    this.#cancelTimer();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(abortError(undefined, 'The rate limiter was closed'));
  }

  #grant(now: number): ReleaseSlot {
    const id = ++this.#grants;
    this.#inflight.set(id, now + this.#options.leaseMs);
    return releaseOnce(() => this.#release(id));
  }

  #release(id: number): void {
    const now = this.#clock.now();
    this.#expireLeases(now);
    // Not in flight any more: its lease expired and it already counts as completed then.
    if (!this.#inflight.delete(id)) return;
    this.#logCompletion(now);
    // The head's next slot is now known (or earlier than the lease-based guess): re-evaluate.
    if (!this.#closed) this.#wake(now);
  }

  /** In-flight entries whose lease has run out count as completed at their lease expiry. */
  #expireLeases(now: number): void {
    for (const [id, until] of this.#inflight) {
      if (until > now) break;
      this.#inflight.delete(id);
      this.#logCompletion(until);
    }
  }

  #logCompletion(at: number): void {
    const log = this.#completed;
    let index = log.length;
    while (index > 0 && log[index - 1]! > at) index--;
    log.splice(index, 0, at);
    if (log.length > this.#options.limit) log.shift();
  }

  /**
   * When the head may go if nothing is released meanwhile (in-flight entries complete at their lease
   * expiry): the `limit`-th most recent entry, in-flight ones being the most recent, plus the window.
   * `<= now` exactly when fewer than `limit` entries are recent.
   */
  #nextSlot(now: number): number {
    this.#expireLeases(now);
    const { limit, windowMs } = this.#options;
    const base = Math.max(now, this.#pausedUntil);
    const flying = this.#inflight.size;
    // Grants stop at `limit` recent entries, so at most `limit` are in flight; then the oldest lease decides.
    if (flying >= limit) return Math.max(base, this.#inflight.values().next().value! + windowMs);
    const index = this.#completed.length - (limit - flying);
    return index < 0 ? base : Math.max(base, this.#completed[index]! + windowMs);
  }

  /**
   * A lower bound for the slot of the request `position` places behind the head (0 = head): as if
   * everything in flight, and every future grant, completed at once. Future grant j then waits for
   * the entry `limit` before it: a logged one for j < limit, otherwise future grant j - limit, which
   * gives the closed form below. Only used to reject early; grants follow {@link #nextSlot}.
   */
  #earliestSlot(position: number, now: number): number {
    this.#expireLeases(now);
    const { limit, windowMs } = this.#options;
    const first = position % limit;
    const laps = (position - first) / limit;
    const completed = this.#completed.length;
    const index = completed + this.#inflight.size + first - limit; // into completions ++ [now x in flight]
    const base = Math.max(now, this.#pausedUntil);
    const entry = index < completed ? this.#completed[index] : now;
    const slot = index < 0 ? base : Math.max(base, entry! + windowMs);
    return slot + laps * windowMs;
  }

  #grantDue(now: number): void {
    while (this.#queue.length > 0 && this.#nextSlot(now) <= now)
      this.#queue.shift()!.resolve(this.#grant(now));
  }

  /** Grants what is due, fails waiters past their deadline, and arms the timer for the rest. */
  #wake(now: number): void {
    this.#grantDue(now);
    const { maxWaitMs } = this.#options;
    // Deadlines are `enqueued + maxWaitMs` on a monotonic clock: FIFO order is deadline order.
    while (this.#queue.length > 0 && this.#queue[0]!.deadline <= now) {
      const remaining = Math.max(0, this.#nextSlot(now) - now);
      this.#queue.shift()!.reject(waitTimeoutError(maxWaitMs + remaining, maxWaitMs));
    }
    this.#arm(now);
  }

  #arm(now: number): void {
    if (this.#queue.length === 0) {
      this.#cancelTimer();
      return;
    }
    const at = Math.min(this.#nextSlot(now), this.#queue[0]!.deadline);
    if (this.#timer && this.#timer.at <= at) return;
    this.#cancelTimer();
    const timer = { at, cancel: new AbortController() };
    this.#timer = timer;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(at - now)));
    this.#clock.sleep(delay, timer.cancel.signal).then(
      () => {
        if (this.#timer !== timer) return;
        this.#timer = undefined;
        this.#wake(this.#clock.now());
      },
      () => {},
    );
  }

  #cancelTimer(): void {
    this.#timer?.cancel.abort();
    this.#timer = undefined;
  }
}

/** True for anything with the RateLimiter shape (`acquire` and `pause` methods), e.g. a user's own limiter. */
export function isRateLimiter(value: unknown): value is RateLimiter {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const candidate = value as { acquire?: unknown; pause?: unknown };
  return typeof candidate.acquire === 'function' && typeof candidate.pause === 'function';
}
