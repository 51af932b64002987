/**
 * Reconnect delays: exponential with full jitter (a uniformly random delay between 0 and the capped
 * exponential step). Full jitter spreads a whole fleet of clients that lost the same server, instead of
 * bringing them back in waves; pusher-js waits a fixed second, which is what causes those waves.
 */

export interface BackoffOptions {
  /** The first step; each failed attempt doubles it. Default 1000. */
  baseDelayMs: number;
  /** The largest step. Default 30000. */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * Delay before reconnect attempt number `attempt` (1 for the first retry after a failure).
 * `random` returns [0, 1) and is injected so tests are exact. `floorMs` keeps a minimum the server asked
 * for: codes 4100–4199 say "back off at least 1 s".
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
  floorMs = 0,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.max(floorMs, Math.floor(random() * step));
}
