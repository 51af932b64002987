import {
  APIError,
  type AuthStrategy,
  type Hooks,
  type Logger,
  type PreparedRequest,
  REDACTED,
  XError,
} from '@x/core';
import type { CartTokenStore } from './token-store.js';

/**
 * How the Store API finds the shopper's cart (StoreApi/Routes/V1/AbstractCartRoute.php load_cart_session()):
 * `cart-token` sends the `Cart-Token` each response gave (headless: any origin, no cookies); `cookie` leaves
 * the cart to WooCommerce's session cookie, which the browser (or your fetch) keeps, and then every updating
 * request must carry the `Nonce` (check_nonce()).
 */
export type SessionMode = 'cart-token' | 'cookie';

/** The routes that read the cart session; products and `order/{id}` do not, so they go without it. */
const CART_ROUTE = /\/wc\/store\/v1\/(cart|checkout|batch)(\/|$)/;
/** Tokens and nonces a late error could still quote: the newest few are enough. */
const REMEMBERED = 16;
/**
 * Real tokens are JWTs and nonces ten hex digits; a shorter value a broken server sends is not scrubbed, or
 * a `Nonce: 0` would blank every 0 in every message.
 */
const SHORTEST_SECRET = 8;
const MAX_DEPTH = 64;

/**
 * The shopper's session as the client holds it: the newest `Cart-Token` (in the user's store) and `Nonce`
 * (in memory: it is per site and tick, not per cart), both sent back on cart and checkout requests, and
 * both scrubbed from every error and log line, since either lets someone else act on the cart.
 */
export class CartSession {
  readonly #store: CartTokenStore;
  readonly #mode: SessionMode;
  #nonce: string | undefined;
  #last: string | null | undefined;
  /** Every token and nonce seen lately, newest last, for scrubbing. */
  readonly #secrets: string[] = [];
  /** Held by the call that is getting the first token: calls before it would each start a cart. */
  #gate: Promise<void> | undefined;

  constructor(store: CartTokenStore, mode: SessionMode) {
    this.#store = store;
    this.#mode = mode;
  }

  get mode(): SessionMode {
    return this.#mode;
  }

  get nonce(): string | undefined {
    return this.#nonce;
  }

  #remember(value: string): void {
    if (value.length < SHORTEST_SECRET || this.#secrets.includes(value)) return;
    this.#secrets.push(value);
    if (this.#secrets.length > REMEMBERED) this.#secrets.shift();
  }

  /** The token to send: the store's, read afresh (another tab or process may have replaced it). */
  async token(): Promise<string | null> {
    if (this.#mode === 'cookie') return null;
    let token: unknown;
    try {
      token = await this.#store.get();
    } catch (error) {
      throw new XError('cartTokenStore.get() failed, so the cart could not be found', { cause: error });
    }
    if (typeof token !== 'string' || token === '') return null;
    this.#remember(token);
    this.#last ??= token;
    return token;
  }

  /**
   * Waits while another call is getting the first token, then returns a release when this call is the
   * one to get it: two calls sent without a token would each make a cart, and one cart's items would be lost.
   */
  async claim(): Promise<() => void> {
    if (this.#mode === 'cookie') return () => {};
    for (;;) {
      if (this.#gate) {
        await this.#gate;
        continue;
      }
      let open!: () => void;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      this.#gate = gate;
      const release = () => {
        if (this.#gate === gate) this.#gate = undefined;
        open();
      };
      try {
        if ((await this.token()) === null) return release;
      } catch (error) {
        release();
        throw error;
      }
      release();
      return () => {};
    }
  }

  /**
   * Keeps what a Store API response says of the session. Every cart response carries the token of the cart
   * it used: a new one when the sent token had expired or was forged (the server then made a new, empty
   * cart), so the newest always replaces the one held.
   */
  observe(response: Response): Promise<void> {
    return this.keep(response.headers.get('cart-token'), response.headers.get('nonce'));
  }

  /** The session a response gave: its headers, or a batch's sub-response envelope. */
  async keep(token: string | null | undefined, nonce: string | null | undefined): Promise<void> {
    if (nonce) {
      this.#remember(nonce);
      this.#nonce = nonce;
    }
    if (!token || this.#mode === 'cookie') return;
    this.#remember(token);
    if (token === this.#last) return;
    this.#last = token;
    try {
      await this.#store.set(token);
    } catch (error) {
      throw new XError('cartTokenStore.set() failed, so the cart would be lost', { cause: error });
    }
  }

  async clear(): Promise<void> {
    this.#last = null;
    await this.#store.clear?.();
  }

  /** Sends the session with each attempt (a retry too) of a cart or checkout request. */
  strategy(): AuthStrategy {
    return {
      kind: 'store-api-session',
      apply: async (request: PreparedRequest) => {
        const route = request.url.searchParams.get('rest_route') ?? request.url.pathname;
        if (!CART_ROUTE.test(route)) return;
        const token = await this.token();
        if (token) request.headers.set('Cart-Token', token);
        if (this.#nonce) request.headers.set('Nonce', this.#nonce);
      },
      secretValues: () => [],
    };
  }

  /** The user's hooks, with the session read from every response first (errors and retried ones too). */
  hooks(user: Hooks | undefined): Hooks {
    return {
      ...user,
      afterResponse: async (event) => {
        await this.observe(event.response);
        await user?.afterResponse?.(event);
      },
    };
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** An error leaving the client: no token or nonce in its message, stack, fields, headers or body. */
  scrub<E>(error: E): E {
    if (!(error instanceof Error) || this.#secrets.length === 0) return error;
    const fields = error as unknown as Record<string, unknown>;
    for (const name of ['message', 'stack', ...Object.keys(error)]) {
      const value = fields[name];
      if (value instanceof Headers) continue;
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
