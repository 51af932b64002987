import { tooMany } from '../errors.js';

/** Refused codes the desk takes per window before it refuses to look at codes at all. */
export const DEFAULT_REFUSALS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

/**
 * Bounds guessing: six digits are a million codes, and the desk's API has no login, so whoever tries codes
 * one after another would find someone's cart. Past `limit` unknown, used or expired codes a minute, every
 * code is a 429 until the minute is over (an agent who mistypes a few times never gets near it).
 */
export class RefusedCodes {
  #windowStart = 0;
  #count = 0;

  constructor(
    private readonly limit = DEFAULT_REFUSALS_PER_MINUTE,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Throws a 429 while the window's refusals are spent. */
  check(): void {
    const now = this.now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#windowStart = now;
      this.#count = 0;
    }
    if (this.#count >= this.limit) {
      throw tooMany(
        'too many wrong support codes this minute',
        'too_many_codes',
        this.#windowStart + WINDOW_MS - now,
      );
    }
  }

  refused(): void {
    this.#count++;
  }
}
