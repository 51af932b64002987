/**
 * The Store API's cart sessions: one cart per customer id (a guest's `t_…` id, as WC_Session_Handler's
 * generate_customer_id() makes it), found again through a `Cart-Token` (a JWT, StoreApi/Utilities/
 * Routes/V1/AbstractCartRoute.php get_cart_token() and Utilities/JsonWebToken.php) or, without one, kept on the request's own session.
 * Sessions live in memory, like the wc_sessions rows a real site expires: they are not part of the data file.
 */

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { blankAddress } from '../customers/addresses.js';
import { getOption } from '../data/options.js';
import type { Address } from '../data/rows.js';
import type { Store } from '../data/store.js';

export interface CartItem {
  /** WC_Cart::generate_cart_id(): md5 of the product id and the variation id. */
  key: string;
  product_id: number;
  variation_id: number;
  quantity: number;
}

export interface Cart {
  customer_id: string;
  items: CartItem[];
  coupons: string[];
  billing: Address;
  shipping: Address;
  /** Chosen rate per package (`chosen_shipping_methods` in the session). */
  chosen_rates: string[];
  /** Whether an address was ever given (CartSchema `has_calculated_shipping`). */
  calculated_shipping: boolean;
  expires: number;
}

export interface CartSessionOptions {
  /** `wc_session_expiration` in seconds: how long a cart and its token live. WooCommerce's default is 2 days. */
  ttlSeconds: number;
}

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

/** The carts of one store state: a reset state starts without carts (see `sessionsOf`). */
export class CartSessions {
  readonly carts = new Map<string, Cart>();
  /** The site secret tokens and nonces are signed with (`'@' . wp_salt()` in CartTokenUtils::get_cart_token_secret()). */
  readonly #secret = randomBytes(32);
  readonly ttlSeconds: number;

  constructor(options: CartSessionOptions) {
    this.ttlSeconds = options.ttlSeconds;
  }

  /** A new guest cart; `base` is where its customer is until told otherwise (see `defaultLocation`). */
  create(nowMs: number, base: { country: string; state: string } = { country: '', state: '' }): Cart {
    // WC_Session_Handler::generate_customer_id(): `t_` and 30 hex characters for a guest.
    const id = `t_${randomBytes(15).toString('hex')}`;
    const cart: Cart = {
      customer_id: id,
      items: [],
      coupons: [],
      billing: { ...blankAddress(true), ...base },
      shipping: { ...blankAddress(false), ...base },
      chosen_rates: [],
      calculated_shipping: false,
      expires: nowMs + this.ttlSeconds * 1000,
    };
    return cart;
  }

  /**
   * Stores a cart once it holds something: like WC_Session_Handler::save_data(), which writes a session row only
   * when there is data, so requests that leave nothing behind (a browse, a refused update) cost no memory.
   * Expired sessions are swept as the table grows (cleanup_sessions() runs on a schedule).
   */
  keep(cart: Cart, nowMs: number): void {
    const empty = cart.items.length === 0 && cart.coupons.length === 0 && !cart.calculated_shipping;
    if (empty || this.carts.has(cart.customer_id)) return;
    if (this.carts.size % 1024 === 1023) {
      for (const [id, c] of this.carts) if (c.expires <= nowMs) this.carts.delete(id);
    }
    this.carts.set(cart.customer_id, cart);
  }

  /** A live cart by customer id; an expired one is dropped (WC_Session_Handler::cleanup_sessions()). */
  find(id: string, nowMs: number): Cart | undefined {
    const cart = this.carts.get(id);
    if (cart && cart.expires <= nowMs) {
      this.carts.delete(id);
      return undefined;
    }
    return cart;
  }

  /** Each answer pushes the session's expiry on (WC_Session_Handler::set_session_expiration()). */
  touch(cart: Cart, nowMs: number): void {
    cart.expires = nowMs + this.ttlSeconds * 1000;
  }

  #sign(input: string): Buffer {
    return createHmac('sha256', this.#secret).update(input).digest();
  }

  /**
   * AbstractCartRoute::get_cart_token() through JsonWebToken::create(): HS256 over `{user_id, exp, iss, iat}`,
   * the issuer being the route's namespace and `exp` now plus the session expiration.
   */
  token(cart: Cart, nowMs: number): string {
    const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const now = Math.floor(nowMs / 1000);
    const claims = { user_id: cart.customer_id, exp: now + this.ttlSeconds, iss: 'wc/store/v1', iat: now };
    const payload = base64url(JSON.stringify(claims));
    return `${header}.${payload}.${base64url(this.#sign(`${header}.${payload}`))}`;
  }

  /**
   * JsonWebToken::validate(): three base64url parts, a header declaring HS256 JWT, an `exp` not yet passed
   * (`time() > exp` fails), and the signature. The issuer is not checked. Returns the token's customer id
   * (`user_id`, which StoreApi/SessionHandler.php loads), or null for a token that fails (it is then ignored).
   */
  verify(token: string, nowMs: number): string | null {
    if (!/^[a-zA-Z\d\-_=]+\.[a-zA-Z\d\-_=]+\.[a-zA-Z\d\-_=]+$/.test(token)) return null;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const decode = (part: string): Record<string, unknown> | null => {
      try {
        const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
        return typeof v === 'object' && v !== null && !Array.isArray(v)
          ? (v as Record<string, unknown>)
          : null;
      } catch {
        return null;
      }
    };
    const head = decode(header);
    const claims = decode(payload);
    if (head?.typ !== 'JWT' || head.alg !== 'HS256' || claims === null) return null;
    if (claims.exp === undefined || Math.floor(nowMs / 1000) > Math.trunc(Number(claims.exp))) return null;
    const expected = Buffer.from(base64url(this.#sign(`${header}.${payload}`)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const id =
      typeof claims.user_id === 'string' || typeof claims.user_id === 'number' ? String(claims.user_id) : '';
    return id === '' ? null : id;
  }

  /**
   * WC_Session_Handler::set_customer_session_cookie(): `customer_id||expiration||expiring||hash`, the hash an
   * HMAC of the id and expiration (wp_hash() there), so a browser page keeps its cart with a cookie.
   */
  cookieValue(cart: Cart): string {
    const expiration = Math.floor(cart.expires / 1000);
    const expiring = expiration - 3600;
    const hash = this.#sign(`${cart.customer_id}|${expiration}`).toString('hex');
    return `${cart.customer_id}||${expiration}||${expiring}||${hash}`;
  }

  /** WC_Session_Handler::get_session_cookie(): the customer id of an intact, unexpired cookie, else null. */
  verifyCookie(value: string, nowMs: number): string | null {
    const [id = '', expiration = '', , hash = ''] = value.split('||');
    const expected = this.#sign(`${id}|${expiration}`).toString('hex');
    if (id === '' || hash.length !== expected.length) return null;
    if (!timingSafeEqual(Buffer.from(hash), Buffer.from(expected))) return null;
    return Number(expiration) * 1000 > nowMs ? id : null;
  }

  /**
   * wp_create_nonce( 'wc_store_api' ): ten hex characters of a hash over the nonce tick (half a day), the action,
   * the user (0 for a guest) and the login session (none); valid for the current and the previous tick
   * (wp_verify_nonce()). WC_Session_Handler's `nonce_user_logged_out` filter only swaps in the cart's customer id
   * for actions starting with `woocommerce`, so every guest shares the Store API's nonce.
   */
  nonce(nowMs: number, tickOffset = 0): string {
    const tick = Math.ceil(nowMs / 1000 / (86_400 / 2)) - tickOffset;
    return this.#sign(`${tick}|wc_store_api|0|`).toString('hex').slice(-12, -2);
  }

  verifyNonce(nonce: string, nowMs: number): boolean {
    return nonce === this.nonce(nowMs) || nonce === this.nonce(nowMs, 1);
  }
}

const SESSIONS = new WeakMap<object, CartSessions>();

/** The carts of the store's current state: `reset()` swaps the state, and with it every cart. */
export function sessionsOf(store: Store, options: CartSessionOptions): CartSessions {
  let sessions = SESSIONS.get(store.state);
  if (!sessions) {
    sessions = new CartSessions(options);
    SESSIONS.set(store.state, sessions);
  }
  return sessions;
}

/**
 * wc_get_customer_default_location() as WC_Customer_Data_Store_Session::set_defaults() applies it to a guest:
 * the shop's country and state when `woocommerce_default_customer_address` is `base` (the default), else none.
 * Geolocation has no database here, so it finds nothing.
 */
export function defaultLocation(store: Store): { country: string; state: string } {
  if (getOption(store, 'woocommerce_default_customer_address', 'base') !== 'base')
    return { country: '', state: '' };
  const [country = '', state = ''] = String(getOption(store, 'woocommerce_default_country')).split(':');
  return { country, state };
}
