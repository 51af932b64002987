/**
 * How the shared limiter (`redis.ts`) talks to Redis, apart from what it decides: the Lua scripts
 * (what each one decides is in the module comment of `redis.ts`; the key and argument layout is here,
 * next to the code that reads it), sent by SHA1 and as source only when Redis's script cache was
 * emptied (restart, failover); a time bound per call, because a silently dropped connection can keep
 * an ioredis command pending for minutes; and a name for the server that is safe to put in messages.
 */
import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { RateLimitClock } from '../rate-limit.js';

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

export interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

export const ACQUIRE = script(ACQUIRE_SCRIPT);
export const RELEASE = script(RELEASE_SCRIPT);
export const PAUSE = script(PAUSE_SCRIPT);

/** EVALSHA, falling back to EVAL (which also caches the script) when Redis does not know the script. */
export async function runScript(
  redis: Redis | Cluster,
  s: Script,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
    return await redis.eval(s.source, keys.length, ...keys, ...args);
  }
}

/**
 * `work`, or a rejection once `ms` have passed on `clock`; `late` then receives what `work` resolves
 * with after all.
 */
export function within<T>(
  clock: RateLimitClock,
  ms: number,
  work: Promise<T>,
  late?: (value: T) => void,
): Promise<T> {
  const cancel = new AbortController();
  return new Promise<T>((resolve, reject) => {
    clock.sleep(ms, cancel.signal).then(
      () => {
        reject(new Error(`Redis did not answer within ${ms} ms (storeTimeoutMs)`));
        if (late) work.then(late, () => {});
      },
      () => {},
    );
    work.then(resolve, reject).finally(() => cancel.abort());
  });
}

/** Where the store is, for messages: host, port and database, never a user name or password. */
export function describeStore(redis: Redis | Cluster): string {
  if ((redis as Cluster).isCluster) return 'cluster';
  const options = (redis as Redis).options ?? {};
  if (options.sentinels?.length) return `sentinel group ${JSON.stringify(options.name ?? '')}`;
  if (options.path) return `unix:${options.path}`;
  const host = options.host?.includes(':') ? `[${options.host}]` : (options.host ?? 'localhost');
  const db = options.db ? `/${options.db}` : '';
  return `${options.tls ? 'rediss' : 'redis'}://${host}:${options.port ?? 6379}${db}`;
}
