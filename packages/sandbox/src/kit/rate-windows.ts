export interface RateLimit {
  /** Accepted requests per window (a positive integer). */
  limit: number;
  /** Window length in milliseconds (positive). */
  intervalMs: number;
}

/**
 * Throws on a limit that could never limit anything: `limit` 0 would let every request through (the window
 * never fills with accepted ones) and a zero interval forgets each request as it arrives.
 */
export function checkRateLimit(rl: RateLimit): void {
  if (!Number.isSafeInteger(rl.limit) || rl.limit < 1) {
    throw new RangeError(`rate limit: limit must be a positive integer, got ${rl.limit}`);
  }
  if (!Number.isFinite(rl.intervalMs) || rl.intervalMs <= 0) {
    throw new RangeError(`rate limit: intervalMs must be a positive number, got ${rl.intervalMs}`);
  }
}

/** Sliding windows, one per key (an API key, a client IP): at most `limit` accepted requests in any `intervalMs`. */
export class RateWindows {
  private readonly windows = new Map<string, number[]>();
  readonly limit: RateLimit | false;

  constructor(limit: RateLimit | false) {
    if (limit) checkRateLimit(limit);
    this.limit = limit;
  }

  /** Accepts the request (0) or says how many ms until the window has room; a refused request is not counted. */
  take(key: string, now: number): number {
    const rl = this.limit;
    if (!rl) return 0;
    let window = this.windows.get(key);
    if (!window) {
      window = [];
      this.windows.set(key, window);
    }
    const cutoff = now - rl.intervalMs;
    let drop = 0;
    while (drop < window.length && window[drop]! <= cutoff) drop++;
    if (drop > 0) window.splice(0, drop);
    if (window.length >= rl.limit) return Math.max(1, window[0]! + rl.intervalMs - now);
    window.push(now);
    return 0;
  }

  /**
   * What `X-RateLimit-*` headers tell: how many more requests the window takes now, and in how many ms the
   * oldest counted one leaves it (0 when it is empty). Undefined without a limit.
   */
  state(key: string, now: number): { limit: number; remaining: number; resetMs: number } | undefined {
    const rl = this.limit;
    if (!rl) return undefined;
    const live = (this.windows.get(key) ?? []).filter((t) => t > now - rl.intervalMs);
    return {
      limit: rl.limit,
      remaining: Math.max(0, rl.limit - live.length),
      resetMs: live.length === 0 ? 0 : live[0]! + rl.intervalMs - now,
    };
  }

  clear(): void {
    this.windows.clear();
  }
}
