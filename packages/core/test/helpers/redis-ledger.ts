/**
 * For the RedisRateLimiter tests over real processes: what the limiter's scripts did, read from Redis's
 * MONITOR feed (every command a script runs is listed there, in order, with its arguments), so a test can
 * check each decision against the rule instead of timing the run. Per key: every ACQUIRE with the Redis
 * time it read (its `ZRANGEBYSCORE <inflight> -inf <now>`), whether it granted (`ZADD <inflight> <lease
 * expiry> <member>`), and every completion logged (`ZADD <log> <at> <member>`: a release, or an in-flight
 * entry moved there at its lease expiry); pauses as `SET <pause> <until> PX <ms>`. Asks refused by a pause
 * stop before the ZRANGEBYSCORE and are not listed.
 */
import type { Redis } from 'ioredis';

export interface Ask {
  /** The Redis time the script read (ms). */
  now: number;
  /** The grant's member, when the ask was granted. */
  granted?: string;
  /** Lease expiry of the grant. */
  leaseUntil?: number;
}

/** A key's script commands, in the order Redis ran them. */
export type LedgerEvent =
  | ({ type: 'ask' } & Ask)
  | { type: 'logged'; member: string; at: number }
  | { type: 'removed'; member: string };

export interface KeyLedger {
  events: LedgerEvent[];
  asks: Ask[];
  /** Every completion logged: a release, or an in-flight entry moved there at its lease expiry. */
  completions: { member: string; at: number }[];
  pauses: { until: number; px: number }[];
}

export interface RedisLedger {
  /** What happened on `<prefix>{key}:*` so far. */
  of(key: string): KeyLedger;
  stop(): void;
}

const keyOf = (redisKey: string) => /\{([^}]*)\}:(log|inflight|pause)$/.exec(redisKey);

/** Starts listening on a connection of its own (MONITOR takes the whole connection). */
export async function watchLedger(redis: Redis): Promise<RedisLedger> {
  const monitor = await redis.duplicate().monitor();
  const ledgers = new Map<string, KeyLedger>();
  const ledger = (key: string) => {
    const found = ledgers.get(key) ?? { events: [], asks: [], completions: [], pauses: [] };
    ledgers.set(key, found);
    return found;
  };
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua') return;
    const [command, redisKey = '', ...rest] = args;
    const match = keyOf(redisKey);
    if (!match) return;
    const [, key, part] = match as unknown as [string, string, string];
    const entry = ledger(key);
    const verb = command?.toUpperCase();
    if (verb === 'ZRANGEBYSCORE' && part === 'inflight' && rest[0] === '-inf') {
      const ask: LedgerEvent = { type: 'ask', now: Number(rest[1]) };
      entry.events.push(ask);
      entry.asks.push(ask);
    } else if (verb === 'ZADD' && part === 'inflight') {
      const ask = entry.asks.at(-1)!;
      ask.granted = rest[1];
      ask.leaseUntil = Number(rest[0]);
    } else if (verb === 'ZADD' && part === 'log') {
      const completion = { member: rest[1]!, at: Number(rest[0]) };
      entry.events.push({ type: 'logged', ...completion });
      entry.completions.push(completion);
    } else if (verb === 'ZREM' && part === 'inflight') {
      entry.events.push({ type: 'removed', member: rest[0]! });
    } else if (verb === 'SET' && part === 'pause') {
      entry.pauses.push({ until: Number(rest[0]), px: Number(rest[2]) });
    }
  });
  return {
    of: (key) => ledger(key),
    stop: () => monitor.disconnect(),
  };
}

/**
 * Replays a key's ledger in Redis's order under the rule (an ask is granted exactly when fewer than `limit`
 * grants are in flight or completed within `windowMs` of it; an in-flight entry whose lease ran out counts
 * as completed at its lease expiry) and returns every ask whose outcome differs: a refusal while the window
 * had room (a limiter that waits for nothing) or a grant while it was full.
 */
export function misjudgedAsks(
  ledger: KeyLedger,
  limit: number,
  windowMs: number,
): (Ask & { recent: number })[] {
  const inflight = new Map<string, number>(); // member -> lease expiry
  const completed: number[] = [];
  // A release takes its member out of the in-flight set (ZREM), then logs it; a member handed back unused
  // is only taken out. A lease move the replay already made (by time, at the ask) is not counted twice.
  const takenOut = new Set<string>();
  const wrong: (Ask & { recent: number })[] = [];
  for (const event of ledger.events) {
    if (event.type === 'removed') {
      if (inflight.delete(event.member)) takenOut.add(event.member);
    } else if (event.type === 'logged') {
      if (inflight.delete(event.member) || takenOut.delete(event.member)) completed.push(event.at);
    } else {
      for (const [member, leaseUntil] of inflight) {
        if (leaseUntil > event.now) continue;
        inflight.delete(member);
        completed.push(leaseUntil);
      }
      const recent = inflight.size + completed.filter((at) => at > event.now - windowMs).length;
      if ((event.granted !== undefined) !== recent < limit) wrong.push({ ...event, recent });
      if (event.granted !== undefined) inflight.set(event.granted, event.leaseUntil!);
    }
  }
  return wrong;
}
