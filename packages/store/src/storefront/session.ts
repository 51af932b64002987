import { type AuthStrategy, type Hooks, type PreparedRequest, XError } from '@x/core';
import { SessionSecrets } from './secrets.js';
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

/**
 * The cart a token names: its `user_id` claim, the session's customer id, which stays while each answer
 * issues a new token (AbstractCartRoute.php get_cart_token()); the token itself when it is no such JWT.
 */
function cartOf(token: string): string {
  try {
    const payload = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const id: unknown = JSON.parse(atob(payload))?.user_id;
    return typeof id === 'string' || typeof id === 'number' ? `user_id ${id}` : token;
  } catch {
    return token;
  }
}

function parseUrl(text: string): URL | undefined {
  try {
    return text ? new URL(text) : undefined;
  } catch {
    return undefined;
  }
}

function isCartRoute(url: URL): boolean {
  return CART_ROUTE.test(url.searchParams.get('rest_route') ?? url.pathname);
}

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
  /** Every token and nonce seen lately, scrubbed from errors and logs. */
  readonly secrets = new SessionSecrets();
  /** The newest token an answer gave: the cart as the shop last confirmed it. */
  #confirmed: string | undefined;
  /** The cart forget() let go of (cartOf()), which a late answer must not bring back. */
  #forgotten: string | undefined;
  /** Held by the call that is getting the first token: calls before it would each start a cart. */
  #gate: Promise<void> | undefined;

  /** The client's `timeout`: a store that never settles (a dead Redis connection) fails the call instead. */
  readonly #storeTimeoutMs: number;

  /** The shop's origin, the only one whose answers speak for its cart. */
  readonly #origin: string;

  constructor(store: CartTokenStore, mode: SessionMode, origin: string, storeTimeoutMs = 60_000) {
    this.#store = store;
    this.#mode = mode;
    this.#origin = origin;
    this.#storeTimeoutMs = storeTimeoutMs;
  }

  /** The store's answer, or an XError naming the method when it does not settle within the timeout. */
  #bounded<T>(answer: T | PromiseLike<T>, method: string): T | Promise<T> {
    if (typeof (answer as PromiseLike<T> | undefined)?.then !== 'function') return answer as T;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new XError(`cartTokenStore.${method}() did not settle within ${this.#storeTimeoutMs} ms`)),
        this.#storeTimeoutMs,
      );
    });
    return Promise.race([Promise.resolve(answer), late]).finally(() => clearTimeout(timer));
  }

  get store(): CartTokenStore {
    return this.#store;
  }

  get mode(): SessionMode {
    return this.#mode;
  }

  get nonce(): string | undefined {
    return this.#nonce;
  }

  /** The newest token a response gave (null once forgotten, undefined before any). */
  get lastToken(): string | null | undefined {
    return this.#last;
  }

  /** The token to send: the store's, read afresh (another tab or process may have replaced it). */
  async token(): Promise<string | null> {
    if (this.#mode === 'cookie') return null;
    let token: unknown;
    try {
      token = await this.#bounded(this.#store.get(), 'get');
    } catch (error) {
      throw new XError('cartTokenStore.get() failed, so the cart could not be found', { cause: error });
    }
    if (typeof token !== 'string' || token === '') return null;
    this.secrets.remember(token);
    this.#last ??= token;
    return token;
  }

  /**
   * Waits while another call is getting the first token, then returns a release when this call is the
   * one to get it: two calls sent without a token would each make a cart, and one cart's items would be lost.
   * A token no answer has confirmed yet (one found in the store: it may have expired, or another tab wrote
   * it) is held the same way, since calls sent with an expired token would each make a cart too.
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
        const token = await this.token();
        if (token === null || token !== this.#confirmed) return release;
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
  observe(response: Response, shownUrl: string): Promise<void> {
    // Where the answer came from: the response's own URL, else the one core shows (which a secret core
    // redacts from it can leave unparseable; then the answer is taken as before).
    const answered = parseUrl(response.url) ?? parseUrl(shownUrl);
    if (answered) {
      // A fetch of the user's that followed a redirect itself (core asks for `manual`) may hand over
      // another host's answer: its token is not this shop's cart.
      if (answered.origin !== this.#origin) return Promise.resolve();
      // Only cart routes send the session (AbstractCartRoute.php add_response_headers()); others go without
      // it, so a token on their answer would name some other cart and lose this one.
      if (!isCartRoute(answered)) return Promise.resolve();
    }
    // `X-WC-Store-API-Nonce` is the header's older name, which a batch answer still carries beside `Nonce`.
    const nonce = response.headers.get('nonce') ?? response.headers.get('x-wc-store-api-nonce');
    return this.keep(response.headers.get('cart-token'), nonce);
  }

  /** The session a response gave: its headers, or a batch's sub-response envelope. */
  async keep(token: string | null | undefined, nonce: string | null | undefined): Promise<void> {
    if (nonce) {
      this.secrets.remember(nonce);
      this.#nonce = nonce;
    }
    if (!token || this.#mode === 'cookie') return;
    this.secrets.remember(token);
    // A call sent before forget() answers with the forgotten cart's token, issued anew (a new `exp`).
    if (this.#forgotten !== undefined && cartOf(token) === this.#forgotten) return;
    this.#confirmed = token;
    if (token === this.#last) return;
    this.#last = token;
    try {
      await this.#bounded(this.#store.set(token), 'set');
    } catch (error) {
      throw new XError('cartTokenStore.set() failed, so the cart would be lost', { cause: error });
    }
  }

  async clear(): Promise<void> {
    if (this.#last) this.#forgotten = cartOf(this.#last);
    this.#last = null;
    await this.#bounded(this.#store.clear?.(), 'clear');
  }

  /** Sends the session with each attempt (a retry too) of a cart or checkout request. */
  strategy(): AuthStrategy {
    return {
      kind: 'store-api-session',
      apply: async (request: PreparedRequest) => {
        if (!isCartRoute(request.url)) return;
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
        await this.observe(event.response, event.url);
        await user?.afterResponse?.(event);
      },
    };
  }
}
