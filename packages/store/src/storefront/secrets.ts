import { APIError, type Logger, REDACTED } from '@x/core';

/** Tokens and nonces a late error could still quote: the newest few are enough. */
const REMEMBERED = 16;
/**
 * Real tokens are JWTs and nonces ten hex digits; a shorter value a broken server sends is not scrubbed, or
 * a `Nonce: 0` would blank every 0 in every message.
 */
const SHORTEST_SECRET = 8;
const MAX_DEPTH = 64;

/**
 * The session's secrets (`Cart-Token`, `Nonce`) and their removal from what leaves the client. Core scrubs
 * the secrets its auth strategies register and derive (the sent `Cart-Token` among them, by its name); the
 * nonce, a newer token a response brought and a token an error echoes are this one's.
 */
export class SessionSecrets {
  /** Newest last. */
  readonly #values: string[] = [];

  remember(value: string): void {
    if (value.length < SHORTEST_SECRET || this.#values.includes(value)) return;
    this.#values.push(value);
    if (this.#values.length > REMEMBERED) this.#values.shift();
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** An error leaving the client: no token or nonce in its message, stack, fields, headers or body. */
  scrub<E>(error: E, depth = 0): E {
    if (!(error instanceof Error) || this.#values.length === 0) return error;
    const fields = error as unknown as Record<string, unknown>;
    // `cause` is not enumerable, and a store's own error may quote the token it failed to save.
    for (const name of ['message', 'stack', 'cause', ...Object.keys(error)]) {
      const value = fields[name];
      if (value instanceof Headers) continue;
      if (value instanceof Error) {
        if (value !== error && depth < 8) this.scrub(value, depth + 1);
        continue;
      }
      const clean = this.#redactValue(value);
      if (clean !== value) {
        try {
          fields[name] = clean;
        } catch {
          // A frozen field holds what core put there, scrubbed of core's own secrets already.
        }
      }
    }
    if (error instanceof APIError) {
      for (const name of ['cart-token', 'nonce'])
        if (error.headers.has(name)) error.headers.set(name, REDACTED);
      error.headers.forEach((value, name) => {
        const clean = this.redact(value);
        if (clean !== value) error.headers.set(name, clean);
      });
    }
    return error;
  }

  /**
   * A JSON-like value with the secrets taken out of its strings and keys, copied only where one was found.
   * A subtree deeper than any real body is replaced whole when it holds a secret (a server can nest 10,000
   * levels, beyond what a walk should recurse into).
   */
  #redactValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_DEPTH) return this.#holdsSecret(value) ? REDACTED : value;
    if (Array.isArray(value)) {
      const items = value.map((item) => this.#redactValue(item, depth + 1));
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const cleanKey = this.redact(key);
      const clean = this.#redactValue(inner, depth + 1);
      if (cleanKey !== key || clean !== inner) changed = true;
      out[cleanKey] = clean;
    }
    return changed ? out : value;
  }

  #holdsSecret(value: object): boolean {
    try {
      const text = JSON.stringify(value);
      return text !== undefined && this.redact(text) !== text;
    } catch {
      return true;
    }
  }

  /** The user's logger behind a scrub of the session's secrets (core scrubs its own before this). */
  logger(target: Logger): Logger {
    const clean = (value: unknown): unknown =>
      value instanceof Error ? this.scrub(value) : this.#redactValue(value);
    const emit =
      (level: 'debug' | 'info' | 'warn' | 'error') =>
      (message: string, ...args: unknown[]) =>
        target[level](this.redact(message), ...args.map(clean));
    return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
  }
}
