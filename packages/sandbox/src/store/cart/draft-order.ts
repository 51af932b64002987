/**
 * The checkout's draft order: StoreApi/Utilities/DraftOrderTrait.php (the session's `store_api_draft_order`) and
 * OrderController::create_order_from_cart() / update_order_from_cart(). `GET checkout` makes the cart an order in
 * status `checkout-draft` (created_via `store-api`, the first enabled gateway as its payment method:
 * PaymentUtils::get_default_payment_method() for a guest), an order REST v3 serves and `order.created` announces
 * (WC_Webhook::is_valid_resource() skips only `draft`, `auto-draft` and `new`). Later cart updates rewrite it
 * (AbstractCartRoute::cart_updated()) and `POST checkout` places it (cart/checkout.ts).
 * The stock WooCommerce reserves for a draft (ReserveStock, 10 minutes) is not modelled.
 */

import { createHash } from 'node:crypto';
import { WriteJournal } from '../data/journal.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { blankOrder, createOrder, writeOrder } from '../orders/orders.js';
import { RestError } from '../runtime/errors.js';
import { orderFields, quote } from './quote.js';
import type { Cart } from './session.js';

/** The session's `store_api_draft_order`; sessions live in memory, and so does this. */
const DRAFTS = new WeakMap<Cart, number>();

/**
 * What the order was last written from: OrderController::update_line_items_from_cart() compares the cart's
 * hashes (lines, shipping, coupons) with the order's and rewrites only what changed; one hash over all of it,
 * with the addresses, stands for them here.
 */
function cartHash(store: Store, cart: Cart): string {
  const { chosen } = quote(store, cart);
  const what = [cart.items, cart.coupons, chosen?.rate_id ?? '', cart.billing, cart.shipping];
  return createHash('md5').update(JSON.stringify(what)).digest('hex');
}

/**
 * DraftOrderTrait::get_draft_order() and is_valid_draft_order(): the session's order while it is a
 * `checkout-draft`, or pending/failed with a total and the cart it was made from.
 */
export function draftOrder(store: Store, cart: Cart): OrderRec | null {
  const id = DRAFTS.get(cart);
  const o = id ? store.state.orders.get(id) : undefined;
  if (!o) return null;
  if (o.status === 'checkout-draft') return o;
  const payable = (o.status === 'pending' || o.status === 'failed') && o.total > 0;
  return payable && o.cart_hash === cartHash(store, cart) ? o : null;
}

/**
 * Writes `o` again from the cart with `extra` on top: new lines, as WooCommerce removes and recreates the order's
 * items when the cart changed. The order keeps its id, key, date and note; a failed write leaves it as it was.
 */
export function rewriteFromCart(
  store: Store,
  o: OrderRec,
  cart: Cart,
  extra: Record<string, unknown>,
): OrderRec {
  const q = quote(store, cart);
  const journal = new WriteJournal(store.state);
  const fresh = blankOrder(store, o.id, o.created);
  Object.assign(fresh, {
    order_key: o.order_key,
    created_via: o.created_via,
    customer_note: o.customer_note,
    payment_method: o.payment_method,
    payment_method_title: o.payment_method_title,
    status: o.status,
    prices_include_tax: o.prices_include_tax,
    meta_data: o.meta_data,
    refund_ids: o.refund_ids,
    // What the order already did to the shop (its _order_stock_reduced, _recorded_coupon_usage_counts and
    // _recorded_sales meta) is the order's, not its lines': a draft held then made pending again keeps them, so
    // placing it does not count them twice (wc_maybe_reduce_stock_levels(), wc_update_coupon_usage_counts()).
    stock_reduced: o.stock_reduced,
    coupon_usage_recorded: o.coupon_usage_recorded,
    sales_recorded: o.sales_recorded,
  });
  try {
    writeOrder(
      store,
      fresh,
      { ...orderFields(cart, q.chosen, cart.coupons), ...extra },
      false,
      journal,
      true,
    );
  } catch (err) {
    journal.rollback();
    throw err;
  }
  fresh.cart_hash = cartHash(store, cart);
  store.state.orders.set(o.id, fresh);
  store.changed('orders', o.id);
  store.emit('order', 'updated', o.id);
  return fresh;
}

/**
 * Checkout::create_or_update_draft_order() for `GET checkout`: the session's draft brought up to date, or a new
 * one (an empty cart cannot make one: OrderController::create_order_from_cart()).
 */
export function createOrUpdateDraft(store: Store, cart: Cart, defaultPaymentMethod: string): OrderRec {
  const draft = draftOrder(store, cart);
  if (draft)
    return draft.cart_hash === cartHash(store, cart) ? draft : rewriteFromCart(store, draft, cart, {});
  if (cart.items.length === 0) {
    throw new RestError(400, 'woocommerce_rest_cart_empty', 'Cannot create order from empty cart.');
  }
  const q = quote(store, cart);
  const o = createOrder(
    store,
    {
      ...orderFields(cart, q.chosen, cart.coupons),
      status: 'checkout-draft',
      payment_method: defaultPaymentMethod,
    },
    'store-api',
  );
  o.cart_hash = cartHash(store, cart);
  DRAFTS.set(cart, o.id);
  return o;
}

/**
 * AbstractCartRoute::cart_updated(): after a cart route's update, the session's draft follows the cart
 * (update_order_from_cart()); nothing is written while the cart is what the draft was made from.
 */
export function refreshDraft(store: Store, cart: Cart): void {
  const draft = draftOrder(store, cart);
  if (draft && draft.cart_hash !== cartHash(store, cart)) rewriteFromCart(store, draft, cart, {});
}
