/**
 * The Store API's cart routes (StoreApi/Routes/V1/Cart*.php): each reads its arguments as the route's schema
 * declares them and answers with the whole cart (CartSchema), `cart/items` with the items (CartItemSchema).
 */

import { addItem, findItem, quantityArg, removeItem, updateItem } from '../../cart/items.js';
import { quote } from '../../cart/quote.js';
import type { Cart } from '../../cart/session.js';
import { applyAddress } from '../../customers/addresses.js';
import { getOption } from '../../data/options.js';
import { presentCartItem } from '../../present/store-api/cart.js';
import { formatCouponCode } from '../../pricing/coupons.js';
import type { Ctx, Router } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';
import { cartBody, cartRoute, type StoreApiOptions } from './session.js';

const NS = '/wc/store/v1';

function missing(param: string): RestError {
  return new RestError(400, 'rest_missing_callback_param', `Missing parameter(s): ${param}`, {
    params: [param],
  });
}

function stringArg(ctx: Ctx, name: string, required: boolean): string {
  const v = ctx.params[name];
  if (v === undefined || v === null) {
    if (required) throw missing(name);
    return '';
  }
  if (typeof v !== 'string' && typeof v !== 'number') {
    throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
      params: { [name]: `${name} is not of type string.` },
    });
  }
  return String(v);
}

/** CartController::apply_coupon(): coupons enabled, not applied yet, and usable by this cart. */
function applyCoupon(ctx: Ctx, cart: Cart): void {
  if (getOption(ctx.store, 'woocommerce_enable_coupons') !== 'yes') {
    throw new RestError(400, 'woocommerce_rest_cart_coupon_disabled', 'Coupons are disabled.');
  }
  const code = formatCouponCode(stringArg(ctx, 'code', true));
  if (cart.coupons.includes(code)) {
    throw new RestError(
      400,
      'woocommerce_rest_cart_coupon_error',
      `Coupon code "${code}" has already been applied.`,
    );
  }
  const before = cart.coupons;
  cart.coupons = [...before, code];
  try {
    quote(ctx.store, cart, true);
  } catch (err) {
    cart.coupons = before;
    if (!(err instanceof RestError)) throw err;
    // The order code says "Coupon "x" does not exist!"; the cart's WC_Coupon error reads as below.
    const message = /does not exist/.test(err.message)
      ? `Coupon "${code}" cannot be applied because it does not exist.`
      : err.message;
    throw new RestError(400, 'woocommerce_rest_cart_coupon_error', message);
  }
}

/** CartRemoveCoupon: a coupon the cart does not hold cannot be removed (409, with the cart). */
function removeCoupon(ctx: Ctx, cart: Cart): void {
  const code = formatCouponCode(stringArg(ctx, 'code', true));
  if (!cart.coupons.includes(code)) {
    throw new RestError(
      409,
      'woocommerce_rest_cart_coupon_invalid_code',
      'Coupon cannot be removed because it is not already applied to the cart.',
    );
  }
  cart.coupons = cart.coupons.filter((c) => c !== code);
}

/** CartUpdateCustomer: the given billing and shipping fields replace the session customer's. */
function updateCustomer(ctx: Ctx, cart: Cart): void {
  const { billing_address: billing, shipping_address: shipping } = ctx.params;
  for (const [name, value] of [
    ['billing_address', billing],
    ['shipping_address', shipping],
  ] as const) {
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
        params: { [name]: `${name} is not of type object.` },
      });
    }
  }
  applyAddress(cart.billing, billing);
  applyAddress(cart.shipping, shipping);
  cart.calculated_shipping = true;
}

/** CartSelectShippingRate: shipping on, a `rate_id`, and one the package offers. */
function selectRate(ctx: Ctx, cart: Cart): void {
  if (getOption(ctx.store, 'woocommerce_ship_to_countries') === 'disabled') {
    throw new RestError(404, 'woocommerce_rest_shipping_disabled', 'Shipping is disabled.');
  }
  const rateId = stringArg(ctx, 'rate_id', false);
  if (rateId === '') throw new RestError(400, 'woocommerce_rest_cart_missing_rate_id', 'Invalid Rate ID.');
  const q = quote(ctx.store, cart);
  if (!q.rates.some((r) => r.rate_id === rateId)) {
    throw new RestError(400, 'woocommerce_rest_cart_invalid_rate', 'Invalid Rate ID.');
  }
  cart.chosen_rates = [rateId];
}

export function registerCartRoutes(router: Pick<Router, 'add'>, options: StoreApiOptions): void {
  const route = (handler: (ctx: Ctx, cart: Cart) => void, status = 200) =>
    cartRoute(options, (ctx, cart) => {
      handler(ctx, cart);
      return cartBody(ctx, cart, status);
    });
  router.add(
    `${NS}/cart`,
    ['GET'],
    cartRoute(options, (ctx, cart) => cartBody(ctx, cart)),
  );
  router.add(
    `${NS}/cart/add-item`,
    ['POST'],
    route((ctx, cart) => {
      addItem(ctx.store, cart, ctx.params.id ?? missingId(), quantityArg(ctx.params.quantity, 1));
    }, 201),
  );
  router.add(
    `${NS}/cart/update-item`,
    ['POST'],
    route((ctx, cart) => {
      updateItem(ctx.store, cart, stringArg(ctx, 'key', true), quantityArg(ctx.params.quantity, 1));
    }),
  );
  router.add(
    `${NS}/cart/remove-item`,
    ['POST'],
    route((ctx, cart) => removeItem(cart, stringArg(ctx, 'key', true))),
  );
  router.add(`${NS}/cart/apply-coupon`, ['POST'], route(applyCoupon));
  router.add(`${NS}/cart/remove-coupon`, ['POST'], route(removeCoupon));
  router.add(`${NS}/cart/update-customer`, ['POST'], route(updateCustomer));
  router.add(`${NS}/cart/select-shipping-rate`, ['POST'], route(selectRate));

  // CartItems: the list, a new item (201), and emptying the cart; CartItemsByKey: one item.
  router.add(
    `${NS}/cart/items`,
    ['GET'],
    cartRoute(options, (ctx, cart) => {
      const q = quote(ctx.store, cart);
      return { status: 200, body: cart.items.map((i) => presentCartItem(ctx.store, cart, q, i.key)) };
    }),
  );
  router.add(
    `${NS}/cart/items`,
    ['POST'],
    cartRoute(options, (ctx, cart) => {
      const item = addItem(
        ctx.store,
        cart,
        ctx.params.id ?? missingId(),
        quantityArg(ctx.params.quantity, 1),
      );
      return { status: 201, body: presentCartItem(ctx.store, cart, quote(ctx.store, cart), item.key) };
    }),
  );
  router.add(
    `${NS}/cart/items`,
    ['DELETE'],
    cartRoute(options, (_ctx, cart) => {
      cart.items = [];
      return { status: 200, body: [] };
    }),
  );
  const KEY = `${NS}/cart/items/(?P<key>[\\w-]{32})`;
  router.add(
    KEY,
    ['GET'],
    cartRoute(options, (ctx, cart) => {
      const item = findItem(cart, ctx.urlParams.key, 404);
      return { status: 200, body: presentCartItem(ctx.store, cart, quote(ctx.store, cart), item.key) };
    }),
  );
  router.add(
    KEY,
    ['POST', 'PUT', 'PATCH'],
    cartRoute(options, (ctx, cart) => {
      const item = updateItem(ctx.store, cart, ctx.urlParams.key, quantityArg(ctx.params.quantity, 1));
      return { status: 200, body: presentCartItem(ctx.store, cart, quote(ctx.store, cart), item.key) };
    }),
  );
  router.add(
    KEY,
    ['DELETE'],
    cartRoute(options, (ctx, cart) => {
      removeItem(cart, ctx.urlParams.key);
      return { status: 204, body: undefined };
    }),
  );
}

function missingId(): never {
  throw missing('id');
}
