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
import { quote } from '../../cart/quote.js';
import { type Cart, type CartSessionOptions, defaultLocation, sessionsOf } from '../../cart/session.js';
import { presentCart } from '../../present/store-api/cart.js';
import type { Ctx, Result } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';

export interface StoreApiOptions extends CartSessionOptions {}

const UPDATES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type CartHandler = (ctx: Ctx, cart: Cart) => Result;

/** `wp_woocommerce_session_` . COOKIEHASH; the hash is the md5 of the site URL, fixed here. */
const COOKIE = 'wp_woocommerce_session_x_sandbox';

function sessionCookie(ctx: Ctx): string | null {
  for (const part of header(ctx, 'cookie').split(';')) {
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
 * updating ones do (is_update_request()).
 */
export function cartRoute(options: StoreApiOptions, handler: CartHandler, always = false) {
  return (ctx: Ctx): Result => {
    const now = Date.now();
    const sessions = sessionsOf(ctx.store, options);
    const token = header(ctx, 'cart-token');
    const tokenId = token ? sessions.verify(token, now) : null;
    // Without a valid token, WooCommerce's own cookie session (WC_Session_Handler) holds the cart.
    const cookie = tokenId ? null : sessionCookie(ctx);
    const cookieId = cookie ? sessions.verifyCookie(cookie, now) : null;
    const id = tokenId ?? cookieId;
    let cart: Cart | undefined = id ? sessions.find(id, now) : undefined;
    if (!cart) {
      cart = sessions.create(now, defaultLocation(ctx.store));
      // A valid token whose session is gone (never saved, or cleaned up) keeps its customer id, as
      // SessionHandler does.
      if (tokenId) cart.customer_id = tokenId;
    }
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
