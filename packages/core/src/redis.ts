/**
 * `@x/core/redis`: the sliding-window-log limiter of `rate-limit.ts`, shared by every process that
 * uses the same Redis `key` (e.g. several workers spending one API key's quota). Node only.
 *
 * One Lua script does the decision atomically on the Redis clock (`TIME`), so machines whose clocks
 * disagree still agree on the window: it either records a grant in a sorted set and answers 0, or
 * answers how many ms until the next slot (or until the end of a pause set by any process). Each
 * process keeps its own FIFO queue and only its head talks to Redis: it sleeps the answered wait plus
 * a small random jitter (so processes woken by the same slot do not all ask at the same moment) and
 * asks again. Both keys carry a PEXPIRE of at most one window / one pause, so nothing outlives its use.
 *
 * Keys are `<prefix>{<key>}:log` and `<prefix>{<key>}:pause`; the braces are a Redis Cluster hash
 * tag that keeps both in one slot. The key is stored verbatim: pass an account id or a hash, not
 * the API key itself. When Redis is unreachable the limiter fails closed: `acquire()` rejects with
 * the ioredis error.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import {
  abortError,
  type Clock,
  enqueueWaiter,
  queueFullError,
  type RateLimiter,
  type RateLimitOptions,
  type ResolvedRateLimitOptions,
  resolveRateLimitOptions,
  systemClock,
  type Waiter,
  waitTimeoutError,
} from './rate-limit.js';

// KEYS[1] log (ZSET of grant times, ms on the Redis clock), KEYS[2] pause (ms on the Redis clock)
// ARGV[1] limit, ARGV[2] window ms (interval + safety margin), ARGV[3] unique member for this grant
// Returns 0 when granted, else the ms to wait before asking again.
const ACQUIRE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return math.max(1, math.ceil(paused - now)) end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.3f', now - window))
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], string.format('%.3f', now), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window))
  return 0
end
local blocker = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return math.max(1, math.ceil(tonumber(blocker[2]) + window - now))
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
  readonly keys: { readonly log: string; readonly pause: string };
  readonly #redis: Redis | Cluster;
  readonly #options: ResolvedRateLimitOptions;
  readonly #jitterMs: number;
  readonly #clock: Clock;
  readonly #queue: Waiter[] = [];
  readonly #id = randomUUID();
  #grants = 0;
  #running = false;
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
    this.keys = Object.freeze({ log: `${base}:log`, pause: `${base}:pause` });
  }

  /** Requests of this process currently waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.#closing.signal.aborted)
      return Promise.reject(abortError(undefined, 'The rate limiter is closed'));
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

  /** Rejects this process's waiters with AbortError. Leaves the Redis client open. */
  close(): void {
    this.#closing.abort();
    for (const waiter of this.#queue.splice(0))
      waiter.reject(abortError(undefined, 'The rate limiter was closed'));
  }

  /** Serves the local queue head by head until it is empty; at most one run per limiter. */
  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0 && !this.#closing.signal.aborted) {
        let waitMs: number;
        try {
          waitMs = await this.#tryAcquire();
        } catch (error) {
          this.#queue.shift()?.reject(error);
          continue;
        }
        if (waitMs <= 0) {
          // Granted. Had the head aborted meanwhile, the next waiter takes the slot (else it is unused).
          this.#queue.shift()?.resolve();
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

  async #tryAcquire(): Promise<number> {
    const { limit, windowMs } = this.#options;
    const member = `${this.#id}:${++this.#grants}`;
    const reply = await this.#eval(ACQUIRE, [this.keys.log, this.keys.pause], [limit, windowMs, member]);
    const waitMs = Number(reply);
    if (!Number.isFinite(waitMs))
      throw new TypeError(`Unexpected reply from the rate-limit script: ${String(reply)}`);
    return waitMs;
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
