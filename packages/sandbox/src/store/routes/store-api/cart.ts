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
import { findCouponByCode, formatCouponCode } from '../../pricing/coupons.js';
import type { Specs } from '../../rest/params.js';
import type { Ctx, Router } from '../../rest/router.js';
import { missingParams, RestError } from '../../runtime/errors.js';
import { escHtml } from '../../runtime/formatting.js';
import { stripTags } from '../../runtime/markup.js';
import { isPlainObject } from '../../runtime/values.js';
import { withArgs } from './args.js';
import { cartBody, cartRoute, type StoreApiOptions } from './session.js';

const NS = '/wc/store/v1';

function stringArg(ctx: Ctx, name: string, required: boolean): string {
  const v = ctx.params[name];
  if (v === undefined || v === null) {
    if (required) throw missingParams([name]);
    return '';
  }
  if (typeof v !== 'string') {
    throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
      params: { [name]: `${name} is not of type string.` },
    });
  }
  return v;
}

/** CartApplyCoupon and CartController::apply_coupon(). */
function applyCoupon(ctx: Ctx, cart: Cart): void {
  if (getOption(ctx.store, 'woocommerce_enable_coupons') !== 'yes') {
    throw new RestError(404, 'woocommerce_rest_cart_coupon_disabled', 'Coupons are disabled.');
  }
  const raw = stringArg(ctx, 'code', false);
  const code = formatCouponCode(raw);
  if (!findCouponByCode(ctx.store, code)) {
    throw new RestError(
      400,
      'woocommerce_rest_cart_coupon_error',
      `&quot;${escHtml(raw)}&quot; is an invalid coupon code.`,
    );
  }
  if (cart.coupons.includes(code)) {
    throw new RestError(
      400,
      'woocommerce_rest_cart_coupon_error',
      `Coupon code &quot;${escHtml(code)}&quot; has already been applied.`,
    );
  }
  const before = cart.coupons;
  cart.coupons = [...before, code];
  try {
    quote(ctx.store, cart, true);
  } catch (err) {
    cart.coupons = before;
    if (!(err instanceof RestError)) throw err;
    // WC_Discounts::is_coupon_valid()'s reason, esc_html( wp_strip_all_tags() )'d.
    throw new RestError(400, 'woocommerce_rest_cart_coupon_error', escHtml(stripTags(err.message)));
  }
}

/** CartRemoveCoupon: an unknown coupon is 400, one the cart does not hold 409 (with the cart). */
function removeCoupon(ctx: Ctx, cart: Cart): void {
  if (getOption(ctx.store, 'woocommerce_enable_coupons') !== 'yes') {
    throw new RestError(404, 'woocommerce_rest_cart_coupon_disabled', 'Coupons are disabled.');
  }
  const code = formatCouponCode(stringArg(ctx, 'code', false));
  if (!findCouponByCode(ctx.store, code)) {
    throw new RestError(400, 'woocommerce_rest_cart_coupon_error', 'Invalid coupon code.');
  }
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
    if (value !== undefined && !isPlainObject(value)) {
      throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
        params: { [name]: `${name} is not of type object.` },
      });
    }
  }
  applyAddress(cart.billing, billing);
  applyAddress(cart.shipping, shipping);
  cart.calculated_shipping = true;
}

/**
 * CartSelectShippingRate: shipping on and a `rate_id` (a required string argument). The choice is stored as
 * given (CartController::select_shipping_rate()); a rate the package does not offer leaves the first one chosen.
 */
function selectRate(ctx: Ctx, cart: Cart): void {
  if (getOption(ctx.store, 'woocommerce_ship_to_countries') === 'disabled') {
    throw new RestError(404, 'woocommerce_rest_shipping_disabled', 'Shipping is disabled.');
  }
  cart.chosen_rates = [stringArg(ctx, 'rate_id', true)];
}

/** The routes' declared args (get_args()), checked before the session and nonce (args.ts). */
const KEY_ARG = { key: { type: 'string' } } as const satisfies Specs;
const QUANTITY_ARG = { quantity: { type: 'number' } } as const satisfies Specs;
const CODE_ARG = { code: { type: 'string' } } as const satisfies Specs;
const ARGS: Record<string, Specs> = {
  // CartAddItem: `id` an integer, `quantity` a number, `variation` a list of {attribute, value} strings.
  'add-item': {
    id: { type: 'integer' },
    ...QUANTITY_ARG,
    variation: {
      type: 'array',
      items: { type: 'object', props: { attribute: { type: 'string' }, value: { type: 'string' } } },
    },
  },
  'update-item': { ...KEY_ARG, ...QUANTITY_ARG },
  'remove-item': KEY_ARG,
  'apply-coupon': CODE_ARG,
  'remove-coupon': CODE_ARG,
  // CartUpdateCustomer: both addresses are objects.
  'update-customer': { billing_address: { type: 'object' }, shipping_address: { type: 'object' } },
  // CartSelectShippingRate: `rate_id` required.
  'select-shipping-rate': { rate_id: { type: 'string', required: true } },
};

export function registerCartRoutes(router: Pick<Router, 'add'>, options: StoreApiOptions): void {
  const route = (name: string, handler: (ctx: Ctx, cart: Cart) => void, status = 200) =>
    withArgs(
      ARGS[name] ?? {},
      cartRoute(options, (ctx, cart) => {
        handler(ctx, cart);
        return cartBody(ctx, cart, status);
      }),
    );
  const add = (name: string, handler: (ctx: Ctx, cart: Cart) => void, status = 200) =>
    router.add(`${NS}/cart/${name}`, ['POST'], route(name, handler, status));
  router.add(
    `${NS}/cart`,
    ['GET'],
    cartRoute(options, (ctx, cart) => cartBody(ctx, cart)),
  );
  add(
    'add-item',
    (ctx, cart) => {
      addItem(ctx.store, cart, ctx.params);
    },
    201,
  );
  add('update-item', (ctx, cart) => {
    updateItem(ctx.store, cart, stringArg(ctx, 'key', false), quantityArg(ctx.params.quantity));
  });
  add('remove-item', (ctx, cart) =>
    removeItem(cart, stringArg(ctx, 'key', false), 'Cart item no longer exists or is invalid.'),
  );
  add('apply-coupon', applyCoupon);
  add('remove-coupon', removeCoupon);
  add('update-customer', updateCustomer);
  add('select-shipping-rate', selectRate);

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
      const item = addItem(ctx.store, cart, ctx.params);
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
      const item = findItem(cart, ctx.urlParams.key);
      return { status: 200, body: presentCartItem(ctx.store, cart, quote(ctx.store, cart), item.key) };
    }),
  );
  router.add(
    KEY,
    ['POST', 'PUT', 'PATCH'],
    cartRoute(options, (ctx, cart) => {
      const item = findItem(cart, ctx.urlParams.key);
      updateItem(ctx.store, cart, item.key, quantityArg(ctx.params.quantity));
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
