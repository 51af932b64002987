/**
 * A cart's totals, worked out by the same code that totals an order (WC_Abstract_Order::calculate_totals() in
 * orders/totals.ts, WC_Discounts in pricing/): the cart is written as a scratch order inside a write journal that
 * is rolled back, so nothing (ids, coupon counts, stock) is left behind. WooCommerce computes a cart with
 * WC_Cart_Totals, whose arithmetic (per-item discounts in cents, taxes per rate, rounding) the order code repeats;
 * one copy of it keeps the cart and the order it becomes equal to the cent.
 */

import { WriteJournal } from '../data/journal.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { blankOrder, writeOrder } from '../orders/orders.js';
import { findCouponByCode } from '../pricing/coupons.js';
import { RestError } from '../runtime/errors.js';
import { showShipping } from './items.js';
import type { Cart } from './session.js';
import { ratesFor, type ShippingRate } from './shipping-rates.js';

export interface Quote {
  order: OrderRec;
  rates: ShippingRate[];
  /** The chosen rate (the first one unless another was selected), if the cart ships. */
  chosen: ShippingRate | null;
}

/** The order fields a cart stands for: what checkout creates and what a quote totals. */
export function orderFields(
  cart: Cart,
  chosen: ShippingRate | null,
  coupons: string[],
): Record<string, unknown> {
  return {
    billing: cart.billing,
    shipping: cart.shipping,
    line_items: cart.items.map((i) => ({
      product_id: i.product_id,
      variation_id: i.variation_id,
      quantity: i.quantity,
    })),
    shipping_lines: chosen
      ? [
          {
            method_id: chosen.method_id,
            method_title: chosen.name,
            instance_id: String(chosen.instance_id),
            total: String(chosen.cost),
          },
        ]
      : [],
    coupon_lines: coupons.map((code) => ({ code })),
  };
}

function scratch(store: Store, fields: Record<string, unknown>): OrderRec {
  const journal = new WriteJournal(store.state);
  const o = blankOrder(store, 0, store.now());
  try {
    writeOrder(store, o, fields, true, journal);
    return o;
  } finally {
    journal.rollback();
  }
}

export interface CartError {
  code: string;
  message: string;
}

/** CartController::validate_cart_coupon()'s error for a coupon it took off the cart. */
export function couponRemoved(code: string, err: RestError): CartError {
  // wp_strip_all_tags( $coupon->get_error_message() ).
  const reason = err.message.replace(/<[^>]*>/g, '').trim();
  return {
    code: 'woocommerce_rest_cart_coupon_error',
    message: `The "${code}" coupon has been removed from your cart: ${reason}`,
  };
}

/** Coupons a quote took off a cart, until the next CartSchema answer reports them. */
const REMOVED = new WeakMap<Cart, CartError[]>();

/**
 * The cart's errors for CartSchema `errors` (CartSchema::get_cart_errors(): CartController::
 * get_cart_coupon_errors()), each reported once: WooCommerce removes the coupon as it reports it.
 */
export function takeCartErrors(cart: Cart): CartError[] {
  const errors = REMOVED.get(cart) ?? [];
  REMOVED.delete(cart);
  return errors;
}

/**
 * Totals the cart. A coupon the cart can no longer use (expired, its usage limit reached, no item it applies to)
 * is taken off and remembered for the cart's `errors` (CartController::validate_cart_coupon(), which
 * CartSchema::get_item_response() runs before it reads the cart); `strict` makes it fail instead, with the
 * coupon's own reason (apply-coupon).
 */
export function quote(store: Store, cart: Cart, strict = false): Quote {
  const coupons: string[] = [];
  for (const code of cart.coupons) {
    try {
      scratch(store, orderFields(cart, null, [...coupons, code]));
      coupons.push(code);
    } catch (err) {
      if (strict || !(err instanceof RestError)) throw err;
      REMOVED.set(cart, [...(REMOVED.get(cart) ?? []), couponRemoved(code, err)]);
    }
  }
  if (!strict) cart.coupons = coupons;
  const base = scratch(store, orderFields(cart, null, coupons));
  const ships = showShipping(store, cart);
  const freeShippingCoupon = coupons.some((c) => findCouponByCode(store, c)?.free_shipping === true);
  const rates = ships
    ? ratesFor(store, cart.shipping.country ? cart.shipping : cart.billing, {
        quantity: cart.items.reduce((n, i) => n + i.quantity, 0),
        subtotal: base.line_items.reduce((n, li) => n + li.subtotal, 0),
        freeShippingCoupon,
      })
    : [];
  const chosen = rates.find((r) => r.rate_id === cart.chosen_rates[0]) ?? rates[0] ?? null;
  const order = chosen ? scratch(store, orderFields(cart, chosen, coupons)) : base;
  return { order, rates, chosen };
}
