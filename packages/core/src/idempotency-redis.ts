/**
 * The idempotency store of every process on one Redis (Node only; `@x/core/redis`). Each step of
 * `IdempotencyStore` is one Lua script, so it is atomic across processes, and runs on the Redis clock
 * (`TIME`), so leases mean the same to machines whose clocks disagree. The record is one JSON string at
 * `<prefix>{<sha256 of the key>}`: no key's text reaches Redis, and its length is bounded. Every call is
 * bounded by `storeTimeoutMs` (a silently dropped connection can keep an ioredis command pending for
 * minutes); a failure rejects, and `runIdempotent` turns it into `IdempotencyStoreError` before sending.
 */
import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type {
  IdempotencyRecord,
  IdempotencyStore,
  ReserveRequest,
  ReserveResult,
} from './idempotency-store.js';
import { systemClock } from './internal/limiter.js';
import { describeStore, runScript, type Script, within } from './internal/redis-store.js';

export const DEFAULT_IDEMPOTENCY_PREFIX = 'x-sdk:idempotency:';

const NOW = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

// Mirrors decideReserve() of idempotency-store.ts. KEYS[1] record; ARGV owner, fingerprint, sent,
// lease ms, ttl ms. Returns { outcome, record json[, previous json] }.
const RESERVE_SCRIPT = `${NOW}
local raw = redis.call('GET', KEYS[1])
local lease = tonumber(ARGV[4])
if not raw then
  local rec = { state = 'pending', fingerprint = ARGV[2], since = now, lease_until = now + lease,
    owner = ARGV[1], sent = { ARGV[3] }, attempts = 1 }
  local text = cjson.encode(rec)
  redis.call('SET', KEYS[1], text, 'PX', ARGV[5])
  return { 'reserved', text }
end
local rec = cjson.decode(raw)
if rec.fingerprint ~= ARGV[2] then return { 'conflict', raw } end
if rec.state == 'done' then return { 'done', raw } end
if tonumber(rec.lease_until) > now then return { 'pending', raw } end
local known = false
for _, s in ipairs(rec.sent) do if s == ARGV[3] then known = true end end
if not known then table.insert(rec.sent, ARGV[3]) end
rec.owner = ARGV[1]
rec.lease_until = now + lease
rec.attempts = rec.attempts + 1
local text = cjson.encode(rec)
redis.call('SET', KEYS[1], text, 'PX', ARGV[5])
return { 'reserved', text, raw }
`;

// KEYS[1] record; ARGV owner, result, ttl ms. Returns 1 when the owner's pending record is now done.
const COMPLETE_SCRIPT = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.state ~= 'pending' or rec.owner ~= ARGV[1] then return 0 end
rec.state = 'done'
rec.result = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(rec), 'PX', ARGV[3])
return 1
`;

// KEYS[1] record; ARGV owner, 'unsent' | 'unknown'. Deletes a record of one unsent attempt, else ends
// the lease now, keeping the record's remaining time to live.
const RELEASE_SCRIPT = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local rec = cjson.decode(raw)
if rec.state ~= 'pending' or rec.owner ~= ARGV[1] then return 0 end
if ARGV[2] == 'unsent' and rec.attempts == 1 then
  redis.call('DEL', KEYS[1])
  return 1
end
rec.lease_until = 0
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[1], cjson.encode(rec), 'PX', ttl) end
return 1
`;

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}
const RESERVE = script(RESERVE_SCRIPT);
const COMPLETE = script(COMPLETE_SCRIPT);
const RELEASE = script(RELEASE_SCRIPT);

export interface RedisIdempotencyStoreOptions {
  /** An ioredis client (or cluster). The store never closes it and adds no listeners to it. */
  redis: Redis | Cluster;
  /** Prefix of the Redis keys. Default `'x-sdk:idempotency:'`. */
  prefix?: string;
  /** A Redis call not answered within this long fails. Default 5000 ms. */
  storeTimeoutMs?: number;
}

export class RedisIdempotencyStore implements IdempotencyStore {
  readonly description: string;
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  constructor(options: RedisIdempotencyStoreOptions) {
    if (!options?.redis) throw new TypeError('RedisIdempotencyStore needs an ioredis client as `redis`');
    const timeout = options.storeTimeoutMs ?? 5000;
    if (!(Number.isFinite(timeout) && timeout > 0)) {
      throw new TypeError(
        `Invalid RedisIdempotencyStore storeTimeoutMs ${timeout}: expected a positive number`,
      );
    }
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? DEFAULT_IDEMPOTENCY_PREFIX;
    this.#timeoutMs = timeout;
    this.description = describeStore(options.redis);
  }

  /** The Redis key of a key hash, for inspection and tests. */
  redisKey(keyHash: string): string {
    return `${this.#prefix}{${keyHash}}`;
  }

  async reserve(keyHash: string, r: ReserveRequest): Promise<ReserveResult> {
    const reply = (await this.#run(RESERVE, keyHash, [
      r.owner,
      r.fingerprint,
      r.sent,
      Math.ceil(r.leaseMs),
      Math.ceil(r.ttlMs),
    ])) as [ReserveResult['outcome'], string, string?];
    const record = parseRecord(reply[1]);
    if (reply[0] === 'reserved') {
      return reply[2] === undefined
        ? { outcome: 'reserved', record }
        : { outcome: 'reserved', record, previous: parseRecord(reply[2]) };
    }
    return { outcome: reply[0], record };
  }

  async complete(keyHash: string, owner: string, result: string, ttlMs: number): Promise<boolean> {
    return (await this.#run(COMPLETE, keyHash, [owner, result, Math.ceil(ttlMs)])) === 1;
  }

  async release(keyHash: string, owner: string, outcome: 'unsent' | 'unknown'): Promise<void> {
    await this.#run(RELEASE, keyHash, [owner, outcome]);
  }

  async get(keyHash: string): Promise<IdempotencyRecord | undefined> {
    const raw = await within(systemClock, this.#timeoutMs, this.#redis.get(this.redisKey(keyHash)));
    return raw === null ? undefined : parseRecord(raw);
  }

  #run(s: Script, keyHash: string, args: (string | number)[]): Promise<unknown> {
    return within(systemClock, this.#timeoutMs, runScript(this.#redis, s, [this.redisKey(keyHash)], args));
  }
}

/** cjson writes an empty Lua table as `{}`: `sent` is never empty, but read defensively. */
function parseRecord(text: string): IdempotencyRecord {
  const record = JSON.parse(text) as IdempotencyRecord;
  if (!Array.isArray(record.sent)) record.sent = [];
  return record;
}
