import { randomInt } from 'node:crypto';
import type { StorefrontHelpRequest } from '../../shared/api.js';

/** How long a customer has to read the code out: a call about the cart comes soon after asking. */
export const DEFAULT_CODE_TTL_MS = 2 * 60 * 60 * 1000;
/**
 * Codes held at once (live and expired ones kept to say "expired"). Past it the oldest goes, so memory stays
 * bounded; the route gives out too few a minute (guesses.ts) for that ever to be a live one.
 */
export const DEFAULT_MAX_CODES = 10_000;

export interface HelpCodeOptions {
  ttlMs?: number;
  maxCodes?: number;
  now?: () => number;
}

/** Why a code links nothing; the route answers each with its own status. */
export type CodeRefusal = 'unknown' | 'expired' | 'used';

interface Held {
  request: StorefrontHelpRequest;
  expires: number;
  used: boolean;
}

/**
 * The support codes the desk gave out, in memory: six random digits (node:crypto) standing for a customer's
 * cart token and order until they expire. A code links one call: once used it says so, so a customer who
 * reads it out twice learns it was taken rather than that it never existed.
 */
export class HelpCodes {
  readonly #codes = new Map<string, Held>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: HelpCodeOptions = {}) {
    this.#ttlMs = options.ttlMs ?? DEFAULT_CODE_TTL_MS;
    this.#max = Math.max(1, options.maxCodes ?? DEFAULT_MAX_CODES);
    this.#now = options.now ?? (() => Date.now());
  }

  get size(): number {
    return this.#codes.size;
  }

  /** A new code for `request`, unlike every code held (a million codes; far fewer are ever held). */
  issue(request: StorefrontHelpRequest): { code: string; expiresInSeconds: number } {
    const now = this.#now();
    this.#sweep(now);
    let code: string;
    do code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    while (this.#codes.has(code));
    // Maps iterate in insertion order: the first key is the oldest code.
    while (this.#codes.size >= this.#max) this.#codes.delete(this.#codes.keys().next().value!);
    this.#codes.set(code, { request, expires: now + this.#ttlMs, used: false });
    return { code, expiresInSeconds: Math.round(this.#ttlMs / 1000) };
  }

  /**
   * The request behind a live code, which is taken at once (a second agent typing it meanwhile is told it
   * was used), or why there is none. Then `forget` once the link is stored, or `release` if it failed.
   */
  claim(code: string): StorefrontHelpRequest | CodeRefusal {
    const held = this.#codes.get(code);
    if (!held) return 'unknown';
    if (held.used) return 'used';
    if (held.expires <= this.#now()) return 'expired';
    held.used = true;
    return held.request;
  }

  /** Makes a claimed code good again: its link could not be made (the store was down), at no cost to the customer. */
  release(code: string): void {
    const held = this.#codes.get(code);
    if (held) held.used = false;
  }

  /** Drops a used code's secrets once its link is stored; the mark stays until it expires. */
  forget(code: string): void {
    const held = this.#codes.get(code);
    if (held) held.request = { cart_token: '', order: null };
  }

  /** Drops codes expired a whole lifetime ago: past that nobody reads them out, "unknown" is fine. */
  #sweep(now: number): void {
    for (const [code, held] of this.#codes) {
      if (held.expires + this.#ttlMs > now) break;
      this.#codes.delete(code);
    }
  }
}
