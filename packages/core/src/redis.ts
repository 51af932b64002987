/**
 * `@x/core/redis`: the limiter of `rate-limit.ts` (a sliding-window log over completion times, with
 * in-flight requests counted as recent), shared by every process that uses the same Redis `key`
 * (e.g. several workers spending one API key's quota). Node only.
 *
 * Two Lua scripts run on the Redis clock (`TIME`), so machines whose clocks disagree still agree on
 * the window. ACQUIRE atomically moves in-flight entries whose lease expired into the log (completed
 * at lease expiry), drops completions older than one window, and either adds this grant to the
 * in-flight set and answers 0, or answers how many ms to wait before asking again: the exact slot
 * when completed entries block; one window when in-flight entries block (whenever they complete,
 * they stay recent for a window after that, so nothing can be granted sooner; the next answer is
 * exact); the rest of a pause set by any process. RELEASE moves the grant from the in-flight set to
 * the log at the current Redis time; a second release, or one after the lease expired, finds nothing
 * to move and does nothing.
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
 * key itself. When Redis is unreachable `acquire()` fails closed (rejects with the ioredis error); a
 * release that cannot reach Redis leaves its entry in flight until the lease ends.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
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
import type { Clock, RateLimiter, RateLimitOptions, ReleaseSlot } from './rate-limit.js';

// KEYS[1] log (ZSET: member per completed grant, score = completion ms on the Redis clock)
// KEYS[2] inflight (ZSET: member per grant not released yet, score = lease expiry ms), KEYS[3] pause
// ARGV[1] limit, ARGV[2] window ms (interval + safety margin), ARGV[3] unique member, ARGV[4] lease ms
// Returns 0 when granted (the member is now in flight), else the ms to wait before asking again.
const ACQUIRE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local paused = tonumber(redis.call('GET', KEYS[3]) or '0')
if paused > now then return math.max(1, math.ceil(paused - now)) end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local lease = tonumber(ARGV[4])
local nowText = string.format('%.3f', now)
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', nowText, 'WITHSCORES')
if #expired > 0 then
  for i = 1, #expired, 2 do redis.call('ZADD', KEYS[1], expired[i + 1], expired[i]) end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', nowText)
  redis.call('PEXPIRE', KEYS[1], math.ceil(window))
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.3f', now - window))
local flying = redis.call('ZCARD', KEYS[2])
local done = redis.call('ZCARD', KEYS[1])
if flying + done < limit then
  redis.call('ZADD', KEYS[2], string.format('%.3f', now + lease), ARGV[3])
  redis.call('PEXPIRE', KEYS[2], math.ceil(lease + window))
  return 0
end
local need = flying + done - limit + 1
if need > done then return math.max(1, math.ceil(window)) end
local blocker = redis.call('ZRANGE', KEYS[1], need - 1, need - 1, 'WITHSCORES')
return math.max(1, math.ceil(tonumber(blocker[2]) + window - now))
`;

// KEYS[1] log, KEYS[2] inflight; ARGV[1] member, ARGV[2] window ms, ARGV[3] limit,
// ARGV[4] '1' when the request was sent (log its completion now), '0' when the slot went unused.
// Returns 1 when the member was in flight, 0 when it was not (released before, or lease expired).
const RELEASE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
if ARGV[4] == '1' then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
  local window = tonumber(ARGV[2])
  redis.call('ZADD', KEYS[1], string.format('%.3f', now), ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.3f', now - window))
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
  redis.call('PEXPIRE', KEYS[1], math.ceil(window))
end
return 1
`;

// KEYS[1] pause; ARGV[1] pause length in ms from now. Keeps the later of the stored and the new end.
const PAUSE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then
  redis.call('SET', KEYS[1], string.format('%.3f', untilMs), 'PX', math.ceil(untilMs - now))
end
return 0
`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const ACQUIRE = script(ACQUIRE_SCRIPT);
const RELEASE = script(RELEASE_SCRIPT);
const PAUSE = script(PAUSE_SCRIPT);

export const DEFAULT_REDIS_PREFIX = 'x-sdk:rate-limit:';
export const DEFAULT_JITTER_MS = 10;

export interface RedisRateLimiterOptions extends RateLimitOptions {
  /** An ioredis client (or cluster). The limiter never closes it. */
  redis: Redis | Cluster;
  /** What the quota belongs to, e.g. one per API key (use an id or a hash, not the secret). */
  key: string;
  /** Prefix of the Redis keys. Default `'x-sdk:rate-limit:'`. */
  prefix?: string;
  /** Upper bound of the random delay added to every wait. Default 10 ms. */
  jitterMs?: number;
  /** For `sleep` between attempts and local deadlines; the window itself runs on the Redis clock. */
  clock?: Clock;
}

export class RedisRateLimiter implements RateLimiter {
  /** The Redis keys this limiter uses, for inspection and tests. */
  readonly keys: { readonly log: string; readonly inflight: string; readonly pause: string };
  readonly #redis: Redis | Cluster;
  readonly #options: ResolvedRateLimitOptions;
  readonly #jitterMs: number;
  readonly #clock: Clock;
  readonly #queue: Waiter[] = [];
  /** Prefix of this limiter's members: process id and random bytes, so no two limiters share one. */
  readonly #id = `${process.pid}:${randomBytes(6).toString('hex')}`;
  #grants = 0;
  #running = false;
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
    this.#redis = options.redis;
    this.#jitterMs = jitterMs;
    this.#clock = options.clock ?? systemClock;
    const base = `${options.prefix ?? DEFAULT_REDIS_PREFIX}{${options.key}}`;
    this.keys = Object.freeze({ log: `${base}:log`, inflight: `${base}:inflight`, pause: `${base}:pause` });
  }

  /** Requests of this process currently waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (this.#closed) return Promise.reject(abortError(undefined, 'The rate limiter is closed'));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    // The head being asked about counts as waiting, so `maxQueue: 0` still lets one request try.
    if (this.#queue.length > this.#options.maxQueue)
      return Promise.reject(queueFullError(this.#options.maxQueue));
    const promise = enqueueWaiter(this.#queue, this.#clock.now() + this.#options.maxWaitMs, signal);
    if (!this.#running) void this.#run();
    return promise;
  }

  /** Writes the pause into Redis (on the Redis clock), so every process sharing the key honours it. */
  async pause(untilEpochMs: number): Promise<void> {
    const ms = Math.ceil(untilEpochMs - Date.now());
    if (!(ms > 0)) return;
    await this.#eval(PAUSE, [this.keys.pause], [ms]);
  }

  /**
   * Rejects this process's waiters with AbortError and waits for releases still being written.
   * Leaves the Redis client open. Releases after close still reach Redis.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
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
          this.#queue.shift()?.reject(error);
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
    const reply = await this.#eval(
      ACQUIRE,
      [this.keys.log, this.keys.inflight, this.keys.pause],
      [limit, windowMs, member, leaseMs],
    );
    const waitMs = Number(reply);
    if (!Number.isFinite(waitMs))
      throw new TypeError(`Unexpected reply from the rate-limit script: ${String(reply)}`);
    return waitMs;
  }

  /**
   * Moves `member` out of the in-flight set: into the log when the request was sent, nowhere when the
   * slot went unused. Errors are dropped: the entry then stays in flight until its lease ends.
   */
  #release(member: string, sent: boolean): void {
    const { limit, windowMs } = this.#options;
    const done = this.#eval(
      RELEASE,
      [this.keys.log, this.keys.inflight],
      [member, windowMs, limit, sent ? '1' : '0'],
    ).then(
      () => {},
      () => {},
    );
    this.#releasing.add(done);
    void done.then(() => this.#releasing.delete(done));
  }

  /** EVALSHA, falling back to EVAL (which also caches the script) after a restart or failover. */
  async #eval(s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.#redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
      return await this.#redis.eval(s.source, keys.length, ...keys, ...args);
    }
  }
}
