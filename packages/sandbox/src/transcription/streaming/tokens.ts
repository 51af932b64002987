import { randomBytes } from 'node:crypto';

/** What a temporary token carries into the session it starts. */
export interface TokenGrant {
  /** The API key that issued it: the session counts against that key's limits. */
  key: string;
  /** The most seconds the session it starts may last (`max_session_duration_seconds`). */
  maxSessionSeconds: number;
}

export type Redemption =
  | { ok: true; grant: TokenGrant }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

interface Entry extends TokenGrant {
  /** `Date.now()` after which the token no longer starts a session. */
  expiresAt: number;
  used: boolean;
}

/**
 * The bound on tokens kept at once. A token lives at most 600 s, but the token route may have no rate limit,
 * so a loop could otherwise fill memory; past it the oldest token is forgotten (and then refused as unknown).
 */
const MAX_TOKENS = 10_000;

/**
 * Temporary streaming tokens (`GET /v3/token`): opaque, single-use, redeemable until `expires_in_seconds` after
 * issue, each with its own session length. A used token is remembered until it would have expired, so a
 * second use is told apart from a token that never existed.
 */
export class TokenStore {
  readonly #tokens = new Map<string, Entry>();
  #prunedAt = 0;

  issue(grant: TokenGrant, expiresInSeconds: number, now = Date.now()): string {
    this.#prune(now);
    while (this.#tokens.size >= MAX_TOKENS) {
      const oldest = this.#tokens.keys().next().value as string;
      this.#tokens.delete(oldest);
    }
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, { ...grant, expiresAt: now + expiresInSeconds * 1000, used: false });
    return token;
  }

  /** Spends the token (whatever the session then does: a refused session does not give it back). */
  redeem(token: string, now = Date.now()): Redemption {
    const entry = this.#tokens.get(token);
    if (!entry) return { ok: false, reason: 'unknown' };
    if (entry.used) return { ok: false, reason: 'used' };
    if (now >= entry.expiresAt) {
      this.#tokens.delete(token);
      return { ok: false, reason: 'expired' };
    }
    entry.used = true;
    return { ok: true, grant: { key: entry.key, maxSessionSeconds: entry.maxSessionSeconds } };
  }

  /** Tokens issued and not yet expired, used or not. */
  get size(): number {
    return this.#tokens.size;
  }

  clear(): void {
    this.#tokens.clear();
  }

  // Lifetimes differ, so expired tokens are not only at the front: one pass over the map, at most once a second.
  #prune(now: number): void {
    if (now - this.#prunedAt < 1000) return;
    this.#prunedAt = now;
    for (const [token, entry] of this.#tokens) {
      if (now >= entry.expiresAt) this.#tokens.delete(token);
    }
  }
}
