/**
 * `@x/core/redis`: the limiter of `rate-limit.ts` (a sliding-window log over completion times, with
 * in-flight requests counted as recent), shared by every process that uses the same Redis `key`
 * (e.g. several workers spending one API key's quota). Node only.
 *
 * Lua scripts (`internal/redis-store.ts`) run on the Redis clock (`TIME`), so machines whose clocks
 * disagree still agree on the window. ACQUIRE atomically moves in-flight entries whose lease expired
 * into the log (completed at lease expiry), drops completions older than one window, and either adds
 * this grant to the in-flight set and answers 0, or answers how many ms to wait before asking again:
 * the exact slot when completed entries block; one window when in-flight entries block (whenever they
 * complete, they stay recent for a window after that, so nothing can be granted sooner; the next
 * answer is exact); the rest of a pause set by any process. RELEASE moves the grant from the in-flight
 * set to the log at the current Redis time; a second release, or one after the lease expired, finds
 * nothing to move and does nothing.
 *
 * Each process keeps its own FIFO queue and only its head talks to Redis: it sleeps the answered
 * wait plus a small random jitter (so processes woken by the same slot do not all ask at once) and
 * asks again. A slot granted to a waiter that aborted meanwhile is handed back unused (removed
 * without being logged: nothing was sent).
 *
 * Keys are `<prefix>{<key>}:log` (ZSET, member per grant, score = completion ms),
 * `<prefix>{<key>}:inflight` (ZSET, score = lease expiry ms) and `<prefix>{<key>}:pause`; the braces
 * are a Redis Cluster hash tag that keeps them in one slot. The log expires one window after its
 * newest completion, the in-flight set one window after its newest lease, the pause when it ends,
 * so nothing outlives its use. The key is stored verbatim: pass an account id or a hash, not the API
 * key itself.
 *
 * When Redis fails. Any failed call (connection refused or lost, ioredis giving up after
 * `maxRetriesPerRequest`, an error reply, or no answer within `storeTimeoutMs`, which also bounds a
 * silent network partition that ioredis alone would wait out for minutes) starts an OUTAGE, told once
 * to `logger.warn`; the first call that succeeds again ends it (`logger.info`). Meanwhile `acquire()`
 * does what `onStoreError` says:
 * - 'fail-closed' (default): the failed ACQUIRE rejects every waiter queued in this process with
 *   RateLimitStoreError (nothing was sent; `cause` is the ioredis error), so nothing leaves that the
 *   shared window has not counted and nobody stays queued behind a dead store. Every later `acquire()`
 *   asks Redis again, so the first answer after the outage ends it: no restart, nothing to reset.
 * - 'fail-open': the queued waiters move to a MemoryRateLimiter of this process with the same options,
 *   and `acquire()` goes straight there while the outage lasts; at most one probe a second (RELEASE of
 *   a member that does not exist: a no-op that needs a writable Redis that runs our scripts) finds
 *   out when Redis is back. The shared guarantee is traded for availability: N processes may send
 *   N × limit per window, and a window that straddles a switch may hold a process's grants of both kinds.
 * Why closed by default: the limiter exists so that the server never sees more than `limit`. A store
 * that cannot count cannot promise that; a RateLimitStoreError can be retried (nothing was sent), a
 * burst of 429s cannot be taken back and pauses every process for the whole Retry-After.
 *
 * Around an outage: a release that cannot reach Redis is dropped, so its entry stays in flight and
 * counts as completed at lease expiry (`inflightLeaseMs`), as a crashed process's would. A grant whose
 * answer arrives after `storeTimeoutMs` is handed back unused. `pause()` never rejects (the client
 * calls it without waiting); a pause Redis did not store binds only the fail-open fallback. The window
 * survives an outage as far as Redis keeps its data: after a restart without persistence (empty log)
 * or a failover to a replica that missed the latest writes (missing entries), up to `limit` more
 * requests may land in the window that straddles the switch.
 */
import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { RateLimitStoreError } from './errors.js';
import {
  abortError,
  enqueueWaiter,
  queueFullError,
  type ResolvedRateLimitOptions,
  releaseOnce,
  resolveRateLimitOptions,
  systemClock,
  type Waiter,
  waitTimeoutError,
} from './internal/limiter.js';
import { REDACTED } from './internal/redact.js';
import {
  ACQUIRE,
  describeStore,
  PAUSE,
  RELEASE,
  runScript,
  type Script,
  within,
} from './internal/redis-store.js';
import type { Logger } from './log.js';
import {
  MemoryRateLimiter,
  type RateLimitClock,
  type RateLimiter,
  type RateLimitOptions,
  type ReleaseSlot,
} from './rate-limit.js';

export const DEFAULT_REDIS_PREFIX = 'x-sdk:rate-limit:';
export const DEFAULT_JITTER_MS = 10;
export const DEFAULT_STORE_TIMEOUT_MS = 5000;
/** During a fail-open outage, how often one `acquire()` also checks whether Redis is back. */
const PROBE_INTERVAL_MS = 1000;
/** A member no grant ever has (grant members start with a pid), for the probe's no-op RELEASE. */
const PROBE_MEMBER = 'probe';

export interface RedisRateLimiterOptions extends RateLimitOptions {
  /** An ioredis client (or cluster). The limiter never closes it and adds no listeners to it. */
  redis: Redis | Cluster;
  /** What the quota belongs to, e.g. one per API key (use an id or a hash, not the secret). */
  key: string;
  /** Prefix of the Redis keys. Default `'x-sdk:rate-limit:'`. */
  prefix?: string;
  /** Upper bound of the random delay added to every wait. Default 10 ms. */
  jitterMs?: number;
  /** For `sleep` between attempts and local deadlines; the window itself runs on the Redis clock. */
  clock?: RateLimitClock;
  /**
   * When Redis fails: `'fail-closed'` (default) rejects `acquire()` with RateLimitStoreError;
   * `'fail-open'` paces this process alone, with the same options, until Redis answers again.
   */
  onStoreError?: 'fail-closed' | 'fail-open';
  /** A Redis call not answered within this long counts as failed. Default 5000 ms. */
  storeTimeoutMs?: number;
  /** Told once when Redis becomes unusable (`warn`) and once when it answers again (`info`). */
  logger?: Pick<Logger, 'warn' | 'info'>;
}

export {
  DEFAULT_IDEMPOTENCY_PREFIX,
  RedisIdempotencyStore,
  type RedisIdempotencyStoreOptions,
} from './idempotency-redis.js';
export { RateLimitStoreError };

export class RedisRateLimiter implements RateLimiter {
  /** The Redis keys this limiter uses, for inspection and tests. */
  readonly keys: { readonly log: string; readonly inflight: string; readonly pause: string };
  readonly #redis: Redis | Cluster;
  readonly #key: string;
  readonly #store: string;
  readonly #options: ResolvedRateLimitOptions;
  readonly #jitterMs: number;
  readonly #storeTimeoutMs: number;
  readonly #clock: RateLimitClock;
  readonly #logger: Pick<Logger, 'warn' | 'info'> | undefined;
  /** Paces this process while Redis is down; only with `onStoreError: 'fail-open'`. */
  readonly #fallback: MemoryRateLimiter | undefined;
  readonly #queue: Waiter[] = [];
  /** Prefix of this limiter's members: process id and random bytes, so no two limiters share one. */
  readonly #id = `${process.pid}:${randomBytes(6).toString('hex')}`;
  #grants = 0;
  #running = false;
  /** Set from the first failed Redis call until the next one that succeeds. */
  #outage: { since: number; nextProbe: number; probing: boolean } | undefined;
  /** Release scripts still running; `close()` waits for them. */
  readonly #releasing = new Set<Promise<void>>();
  #closed = false;
  readonly #closing = new AbortController();

  constructor(options: RedisRateLimiterOptions) {
    this.#options = resolveRateLimitOptions(options);
    if (!options.redis) throw new TypeError('RedisRateLimiter needs an ioredis client as `redis`');
    if (typeof options.key !== 'string' || options.key === '') {
      throw new TypeError(
        `Invalid RedisRateLimiter key ${JSON.stringify(options.key)}: expected a non-empty string`,
      );
    }
    const jitterMs = options.jitterMs ?? DEFAULT_JITTER_MS;
    if (!Number.isFinite(jitterMs) || jitterMs < 0) {
      throw new TypeError(`Invalid jitterMs ${String(jitterMs)}: expected a finite number >= 0`);
    }
    const storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    if (!Number.isFinite(storeTimeoutMs) || storeTimeoutMs <= 0) {
      throw new TypeError(`Invalid storeTimeoutMs ${String(storeTimeoutMs)}: expected a finite number > 0`);
    }
    const mode = options.onStoreError ?? 'fail-closed';
    if (mode !== 'fail-closed' && mode !== 'fail-open') {
      throw new TypeError(
        `Invalid onStoreError ${JSON.stringify(mode)}: expected 'fail-closed' or 'fail-open'`,
      );
    }
    this.#redis = options.redis;
    this.#key = options.key;
    this.#store = describeStore(options.redis);
    this.#jitterMs = jitterMs;
    this.#storeTimeoutMs = storeTimeoutMs;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
    this.#fallback = mode === 'fail-open' ? new MemoryRateLimiter(options, this.#clock) : undefined;
    const base = `${options.prefix ?? DEFAULT_REDIS_PREFIX}{${options.key}}`;
    this.keys = Object.freeze({ log: `${base}:log`, inflight: `${base}:inflight`, pause: `${base}:pause` });
  }

  /** Requests of this process currently waiting (for Redis, or for the fail-open fallback). */
  get pending(): number {
    return this.#queue.length + (this.#fallback?.pending ?? 0);
  }

  /** True from a failed Redis call until the next one that succeeds. */
  get storeUnavailable(): boolean {
    return this.#outage !== undefined;
  }

  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (this.#closed) return Promise.reject(abortError(undefined, 'The rate limiter is closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (this.#outage && this.#fallback) {
      this.#probe();
      return this.#fallback.acquire(signal);
    }
    // The head being asked about counts as waiting, so `maxQueue: 0` still lets one request try.
    if (this.#queue.length > this.#options.maxQueue)
      return Promise.reject(queueFullError(this.#options.maxQueue));
    const promise = enqueueWaiter(this.#queue, this.#clock.now() + this.#options.maxWaitMs, signal);
    if (!this.#running) void this.#run();
    return promise;
  }

  /**
   * Writes the pause into Redis (on the Redis clock), so every process sharing the key honours it.
   * Never rejects: a pause Redis cannot store counts as a store failure (see the module comment).
   */
  async pause(untilEpochMs: number): Promise<void> {
    this.#fallback?.pause(untilEpochMs);
    const ms = Math.ceil(untilEpochMs - Date.now());
    if (!(ms > 0)) return;
    await this.#call(PAUSE, [this.keys.pause], [ms]).catch(() => {});
  }

  /**
   * Rejects this process's waiters with AbortError and waits for releases still being written (each
   * at most `storeTimeoutMs`). Leaves the Redis client open. Releases after close still reach Redis.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    this.#fallback?.close();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(abortError(undefined, 'The rate limiter was closed'));
    await Promise.all(this.#releasing);
  }

  /** Serves the local queue head by head until it is empty; at most one run per limiter. */
  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const member = `${this.#id}:${++this.#grants}`;
        let waitMs: number;
        try {
          waitMs = await this.#tryAcquire(member);
        } catch (error) {
          this.#storeDown(this.#queue.splice(0), error as RateLimitStoreError);
          continue;
        }
        if (waitMs <= 0) {
          // Granted. Had the head aborted meanwhile, the next waiter takes the slot; with nobody left
          // (or closed), it goes back unused.
          const waiter = this.#closed ? undefined : this.#queue.shift();
          if (waiter) waiter.resolve(releaseOnce(() => this.#release(member, true)));
          else this.#release(member, false);
          continue;
        }
        this.#dropHopeless(waitMs);
        if (this.#queue.length === 0) break;
        const jitter = Math.random() * this.#jitterMs;
        await this.#clock.sleep(waitMs + jitter, this.#closing.signal).catch(() => {});
      }
    } finally {
      this.#running = false;
    }
  }

  /** The waiters queued when Redis failed: rejected (fail-closed) or handed to the fallback (fail-open). */
  #storeDown(waiting: Waiter[], error: RateLimitStoreError): void {
    const fallback = this.#fallback;
    for (const waiter of waiting) {
      if (fallback) fallback.acquire(waiter.signal).then(waiter.resolve, waiter.reject);
      else waiter.reject(error);
    }
  }

  /** Rejects waiters that cannot get a slot before their deadline even if no other process competes. */
  #dropHopeless(headWaitMs: number): void {
    const { limit, windowMs, maxWaitMs } = this.#options;
    const now = this.#clock.now();
    const waiting = this.#queue.splice(0);
    for (const waiter of waiting) {
      const earliest = now + headWaitMs + Math.floor(this.#queue.length / limit) * windowMs;
      if (earliest > waiter.deadline) waiter.reject(waitTimeoutError(earliest - now, maxWaitMs));
      else this.#queue.push(waiter);
    }
  }

  async #tryAcquire(member: string): Promise<number> {
    const { limit, windowMs, leaseMs } = this.#options;
    const keys = [this.keys.log, this.keys.inflight, this.keys.pause];
    const reply = await this.#call(ACQUIRE, keys, [limit, windowMs, member, leaseMs], (late) => {
      // Redis granted after we gave up on it: nobody will use the slot, so it goes back unused.
      if (Number(late) === 0) this.#release(member, false);
    });
    const waitMs = Number(reply);
    if (!Number.isFinite(waitMs))
      throw this.#failed(new TypeError(`Unexpected reply from the rate-limit script: ${String(reply)}`));
    return waitMs;
  }

  /**
   * Moves `member` out of the in-flight set: into the log when the request was sent, nowhere when the
   * slot went unused. A failure is dropped: the entry then stays in flight until its lease ends.
   */
  #release(member: string, sent: boolean): void {
    const { limit, windowMs } = this.#options;
    const args = [member, windowMs, limit, sent ? '1' : '0'];
    const done = this.#call(RELEASE, [this.keys.log, this.keys.inflight], args).then(
      () => {},
      () => {},
    );
    this.#releasing.add(done);
    void done.then(() => this.#releasing.delete(done));
  }

  /** During a fail-open outage, at most one call per interval checks whether Redis is back. */
  #probe(): void {
    const outage = this.#outage!;
    const now = this.#clock.now();
    if (outage.probing || now < outage.nextProbe) return;
    outage.probing = true;
    outage.nextProbe = now + PROBE_INTERVAL_MS;
    const { limit, windowMs } = this.#options;
    const keys = [this.keys.log, this.keys.inflight];
    void this.#call(RELEASE, keys, [PROBE_MEMBER, windowMs, limit, '0'])
      .catch(() => {})
      .finally(() => {
        outage.probing = false;
      });
  }

  /** Runs a script within `storeTimeoutMs`, keeping the outage state; rejects with RateLimitStoreError. */
  async #call(
    s: Script,
    keys: string[],
    args: (string | number)[],
    late?: (reply: unknown) => void,
  ): Promise<unknown> {
    try {
      const reply = await within(
        this.#clock,
        this.#storeTimeoutMs,
        runScript(this.#redis, s, keys, args),
        late,
      );
      this.#recovered();
      return reply;
    } catch (error) {
      throw this.#failed(error);
    }
  }

  #failed(cause: unknown): RateLimitStoreError {
    const now = this.#clock.now();
    const what = `Redis (${this.#store}) is unreachable or failing for the shared rate limiter of key ${JSON.stringify(this.#key)}`;
    const reason = this.#scrub(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
    if (!this.#outage) {
      this.#outage = { since: now, nextProbe: now + PROBE_INTERVAL_MS, probing: false };
      const mode = this.#fallback
        ? 'failing open: this process paces itself alone'
        : 'failing closed: acquire() rejects with RateLimitStoreError';
      this.#logger?.warn(`${what} (${reason}); ${mode} until Redis answers again`);
    }
    return new RateLimitStoreError(`${what} (${reason}); the request was not sent`, {
      key: this.#key,
      store: this.#store,
      cause,
    });
  }

  /** ioredis does not put passwords in its messages; this makes sure none of ours ever does. */
  #scrub(text: string): string {
    const { password } = (this.#redis as Redis).options ?? {};
    return password ? text.split(password).join(REDACTED) : text;
  }

  #recovered(): void {
    const outage = this.#outage;
    if (!outage) return;
    this.#outage = undefined;
    this.#logger?.info(
      `Redis (${this.#store}) answers again for the shared rate limiter of key ${JSON.stringify(this.#key)} ` +
        `after ${Math.round(this.#clock.now() - outage.since)} ms; limiting through Redis again`,
    );
  }
}
