/**
 * Backoff delays, for reconnects and HTTP retries alike: exponential with full jitter (a uniformly random
 * delay between 0 and the capped exponential step). Full jitter spreads a whole fleet of clients that lost
 * the same server, instead of bringing them back in waves, which a fixed delay does.
 */

export interface BackoffOptions {
  /** The first step; each failed attempt doubles it. Default 1000 (a socket's; HTTP retries start at 500). */
  baseDelayMs: number;
  /** The largest step. Default 30000 (HTTP retries: 8000). */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * Delay before attempt number `attempt` after a failure (1 for the first retry): uniform in
 * [0, min(maxDelayMs, baseDelayMs * 2^(attempt - 1))), never below `floorMs`, a minimum the server asked for.
 * `random` returns [0, 1) and is injected so tests are exact.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
  floorMs = 0,
): number {
  // Capped so that 2 ** exponent stays finite however many attempts a long outage adds up.
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.max(floorMs, Math.floor(random() * step));
}
