/**
 * POST checkout: StoreApi/Routes/V1/Checkout.php (get_request_payment_method()) with Utilities/OrderController.php
 * and CheckoutTrait.php. The
 * cart becomes an order through the same write the REST API's `POST orders` makes (orders/orders.ts), so it is
 * an order in `wc/v3/orders` with its stock, coupon usage and `order.created` webhook; then the gateway's
 * process_payment() moves it on: BACS and cheque put it on hold, cash on delivery (and an order with nothing to
 * pay) to processing, which is when stock is reduced (wc_maybe_reduce_stock_levels()).
 */

import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { createOrder } from '../orders/orders.js';
import { RestError } from '../runtime/errors.js';
import { escHtml } from '../runtime/formatting.js';
import { gatewaySettings, orderedGateways } from '../settings/gateways.js';
import { orderFields, quote } from './quote.js';
import type { Cart } from './session.js';

/** WC_Payment_Gateways::get_available_payment_gateways(): the enabled ones, in their order. */
export function availableGateways(store: Store): { id: string; title: string }[] {
  return orderedGateways(store)
    .map((g) => ({ g, s: gatewaySettings(store, g) }))
    .filter(({ s }) => s.enabled === 'yes')
    .map(({ g, s }) => ({ id: g.id, title: typeof s.title === 'string' ? s.title : g.method_title }));
}

const ON_HOLD = new Set(['bacs', 'cheque']);

export interface CheckoutInput {
  payment_method: string;
  customer_note: string;
}

/**
 * Checkout::create_or_update_draft_order() (an empty cart cannot be ordered), get_request_payment_method()
 * (a method is required when the order needs payment, and must be available), then the order and its payment.
 */
export function checkout(store: Store, cart: Cart, input: CheckoutInput): OrderRec {
  if (cart.items.length === 0) {
    // CartController::validate_cart_not_empty().
    throw new RestError(400, 'woocommerce_rest_cart_empty', 'Cannot place an order, your cart is empty.');
  }
  const q = quote(store, cart);
  const needsPayment = q.order.total > 0;
  const gateways = availableGateways(store);
  if (input.payment_method === '' && needsPayment) {
    throw new RestError(
      400,
      'woocommerce_rest_checkout_missing_payment_method',
      'No payment method provided.',
    );
  }
  const gateway = gateways.find((g) => g.id === input.payment_method);
  if (input.payment_method !== '' && !gateway) {
    // The gateway's title (its settings' `title`), or the id for a gateway that does not exist.
    const known = orderedGateways(store).find((g) => g.id === input.payment_method);
    const title = known
      ? String(gatewaySettings(store, known).title ?? known.method_title)
      : input.payment_method;
    throw new RestError(
      400,
      'woocommerce_rest_checkout_payment_method_disabled',
      `${escHtml(title)} is not available for this order—please choose a different payment method`,
    );
  }
  const status = !needsPayment ? 'processing' : ON_HOLD.has(input.payment_method) ? 'on-hold' : 'processing';
  const order = createOrder(
    store,
    {
      ...orderFields(cart, q.chosen, cart.coupons),
      payment_method: gateway?.id ?? '',
      payment_method_title: gateway?.title ?? '',
      customer_note: input.customer_note,
      status,
    },
    'store-api',
  );
  // The cart is emptied once the payment went through (CheckoutTrait::process_payment() → wc_empty_cart()).
  cart.items = [];
  cart.coupons = [];
  cart.chosen_rates = [];
  return order;
}
