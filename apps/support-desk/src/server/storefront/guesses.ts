import { tooMany } from '../errors.js';

/** Refused codes the desk takes per window before it refuses to look at codes at all. */
export const DEFAULT_REFUSALS_PER_MINUTE = 30;
/**
 * Support codes given out per window. Times the codes' lifetime in minutes (120) it stays under the codes
 * held (help-codes.ts: 10,000), so no flood of requests can push out a code still live: a flood is refused
 * new codes while it lasts instead, and every customer who has one keeps it.
 */
export const DEFAULT_CODES_PER_MINUTE = 80;
const WINDOW_MS = 60_000;

/** At most `limit` of something a minute: past it, a 429 until the minute is over. */
export class MinuteLimit {
  #windowStart = 0;
  #count = 0;

  constructor(
    private readonly limit: number,
    private readonly message: string,
    private readonly code: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Throws a 429 while the window's count is spent. */
  check(): void {
    const now = this.now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#windowStart = now;
      this.#count = 0;
    }
    if (this.#count >= this.limit)
      throw tooMany(this.message, this.code, this.#windowStart + WINDOW_MS - now);
  }

  count(): void {
    this.#count++;
  }
}

/**
 * Bounds guessing: six digits are a million codes, and the desk's API has no login, so whoever tries codes
 * one after another would find someone's cart. Past `limit` unknown, used or expired codes a minute, every
 * code is a 429 until the minute is over (an agent who mistypes a few times never gets near it).
 */
export function refusedCodes(limit = DEFAULT_REFUSALS_PER_MINUTE): MinuteLimit {
  return new MinuteLimit(limit, 'too many wrong support codes this minute', 'too_many_codes');
}

/** Bounds the codes given out (DEFAULT_CODES_PER_MINUTE says why). */
export function issuedCodes(limit = DEFAULT_CODES_PER_MINUTE): MinuteLimit {
  return new MinuteLimit(limit, 'too many support codes asked for this minute', 'too_many_help_requests');
}
