/**
 * What every Store API cart and checkout route does around its own work: StoreApi/Routes/V1/AbstractCartRoute.php
 * get_response() loads the cart session (load_cart_session(): a valid `Cart-Token` picks the cart through
 * StoreApi/SessionHandler.php; an expired or forged one is ignored, and the session cookie of
 * WC_Session_Handler is used instead), checks the nonce when the request
 * changes something without a cart token (requires_nonce(), check_nonce()), and answers with the session
 * headers (add_response_headers(): `Nonce`, `Nonce-Timestamp`, `User-ID`, `Cart-Token`). A 409 carries the cart so the client can resolve the conflict
 * (get_route_error_response()).
 */

import { InvalidCartError } from '../../cart/checkout.js';
import { refreshDraft } from '../../cart/draft-order.js';
import { quote } from '../../cart/quote.js';
import {
  type Cart,
  type CartSessionOptions,
  type CartSessions,
  defaultLocation,
  sessionsOf,
} from '../../cart/session.js';
import { presentCart } from '../../present/store-api/cart.js';
import type { Ctx, Result } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';
import { holdWebhooks } from './webhook-hold.js';

export interface StoreApiOptions extends CartSessionOptions {}

/**
 * One batch's session (routes/store-api/batch.ts). WooCommerce loads the cart session once per PHP request
 * (CartController::load_cart() runs wc_load_cart() only until woocommerce_load_cart_from_session fired), at the
 * batch's first cart sub-request: if that sub-request's own `Cart-Token` validates, AbstractCartRoute::
 * load_cart_session() picks StoreApi/SessionHandler.php, which reads the token of the batch's own request
 * ($_SERVER['HTTP_CART_TOKEN']); otherwise WC_Session_Handler reads the batch's session cookie. Every later
 * sub-request works on that same cart. The nonce rule stays per sub-request, on its own headers.
 */
export interface BatchSession {
  /** The batch request's own headers. */
  outer: Headers | undefined;
  cart: Cart | null;
}

const BATCH = new WeakMap<Ctx, BatchSession>();

/** Marks `ctx` as a sub-request of the batch whose session is `session`. */
export function joinBatch(ctx: Ctx, session: BatchSession): Ctx {
  BATCH.set(ctx, session);
  return ctx;
}

const UPDATES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type CartHandler = (ctx: Ctx, cart: Cart) => Result;

/** `wp_woocommerce_session_` . COOKIEHASH; the hash is the md5 of the site URL, fixed here. */
const COOKIE = 'wp_woocommerce_session_x_sandbox';

function sessionCookie(headers: Headers | undefined): string | null {
  for (const part of (headers?.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === COOKIE) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

function header(ctx: Ctx, name: string): string {
  return ctx.headers?.get(name) ?? '';
}

/**
 * Wraps a cart route. `always` makes every method need the nonce (the checkout routes); otherwise only the
 * updating ones do (is_update_request()). `cartUpdated` (the cart routes, not checkout nor order-pay) brings the
 * session's draft order up to date after every updating request, refused or not (cart_updated()).
 */
export function cartRoute(
  options: StoreApiOptions,
  handler: CartHandler,
  always = false,
  cartUpdated = !always,
) {
  const route = (ctx: Ctx): Result => {
    const now = Date.now();
    const sessions = sessionsOf(ctx.store, options);
    const token = header(ctx, 'cart-token');
    const tokenId = token ? sessions.verify(token, now) : null;
    const batch = BATCH.get(ctx);
    let cart: Cart;
    if (batch) {
      if (!batch.cart) {
        const outerToken = tokenId ? (batch.outer?.get('cart-token') ?? '') : '';
        batch.cart = loadCart(sessions, ctx.store, outerToken, batch.outer, now);
      }
      cart = batch.cart;
    } else cart = loadCart(sessions, ctx.store, token, ctx.headers, now);
    sessions.touch(cart, now);
    let result: Result;
    try {
      if ((always || UPDATES.has(ctx.method)) && !tokenId)
        checkNonce(ctx, sessions.verifyNonce.bind(sessions), now);
      result = handler(ctx, cart);
      sessions.keep(cart, now);
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      const invalid = err instanceof InvalidCartError;
      const data =
        err.status === 409 && !invalid
          ? { status: 409, cart: presentCart(ctx.store, cart, quote(ctx.store, cart)) }
          : err.data;
      const body: Record<string, unknown> = { code: err.code, message: err.message, data };
      if (invalid && err.additional.length > 0) body.additional_errors = err.additional;
      result = { status: err.status, body, headers: err.headers };
    }
    if (cartUpdated && UPDATES.has(ctx.method)) {
      try {
        refreshDraft(ctx.store, cart);
      } catch (err) {
        // A draft the cart can no longer make (say, a coupon gone) stays as it was until checkout says why.
        if (!(err instanceof RestError)) throw err;
      }
    }
    const nonce = sessions.nonce(now);
    const timestamp = String(Math.floor(now / 1000));
    const cartToken = sessions.token(cart, now);
    result.headers = {
      ...(result.headers ?? {}),
      Nonce: nonce,
      'Nonce-Timestamp': timestamp,
      'User-ID': '0',
      'Cart-Token': cartToken,
    };
    // maybe_set_customer_session_cookie(): a cookie session that holds a stored cart gets its cookie (again).
    if (!tokenId && sessions.carts.get(cart.customer_id) === cart) {
      result.headers['Set-Cookie'] =
        `${COOKIE}=${encodeURIComponent(sessions.cookieValue(cart))}; expires=${new Date(cart.expires).toUTCString()}; path=/; HttpOnly`;
    }
    return result;
  };
  // The request's webhook events go out once each when it ends (routes/store-api/webhook-hold.ts).
  return (ctx: Ctx): Result => {
    const release = holdWebhooks(ctx.store);
    try {
      return route(ctx);
    } finally {
      release();
    }
  };
}

/**
 * The session's cart: a valid `Cart-Token` names it; without one, WooCommerce's own cookie session
 * (WC_Session_Handler) holds it; failing both, a new guest cart.
 */
function loadCart(
  sessions: CartSessions,
  store: Ctx['store'],
  token: string,
  headers: Headers | undefined,
  now: number,
): Cart {
  const tokenId = token ? sessions.verify(token, now) : null;
  const cookie = tokenId ? null : sessionCookie(headers);
  const id = tokenId ?? (cookie ? sessions.verifyCookie(cookie, now) : null);
  const found = id ? sessions.find(id, now) : undefined;
  if (found) return found;
  const cart = sessions.create(now, defaultLocation(store));
  // A valid token whose session is gone (never saved, or cleaned up) keeps its customer id, as
  // SessionHandler does.
  if (tokenId) cart.customer_id = tokenId;
  return cart;
}

/** check_nonce(): the `Nonce` header must be there (401) and valid (403). */
function checkNonce(ctx: Ctx, verify: (nonce: string, now: number) => boolean, now: number): void {
  const nonce = header(ctx, 'nonce');
  if (!nonce) {
    throw new RestError(
      401,
      'woocommerce_rest_missing_nonce',
      'Missing the Nonce header. This endpoint requires a valid nonce.',
    );
  }
  if (!verify(nonce, now)) throw new RestError(403, 'woocommerce_rest_invalid_nonce', 'Nonce is invalid.');
}

/** The cart and its quote, as the cart routes answer (CartSchema). */
export function cartBody(ctx: Ctx, cart: Cart, status = 200): Result {
  return { status, body: presentCart(ctx.store, cart, quote(ctx.store, cart)) };
}
