/**
 * POST checkout: StoreApi/Routes/V1/Checkout.php (get_request_payment_method()) with Utilities/OrderController.php
 * and CheckoutTrait.php. The
 * cart becomes an order through the same write the REST API's `POST orders` makes (orders/orders.ts), by way of
 * the session's draft order (cart/draft-order.ts), so it is an order in `wc/v3/orders` with its stock, coupon
 * usage and `order.created` / `order.updated` webhooks; then the gateway's
 * process_payment() moves it on: BACS and cheque put it on hold, cash on delivery (and an order with nothing to
 * pay) to processing, which is when stock is reduced (wc_maybe_reduce_stock_levels()).
 */

import { effectiveStockStatus, productStockStatus } from '../catalog/stock.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { RestError } from '../runtime/errors.js';
import { escHtml } from '../runtime/formatting.js';
import { gatewaySettings, orderedGateways } from '../settings/gateways.js';
import { createOrUpdateDraft, draftOrder, rewriteFromCart } from './draft-order.js';
import { resolveSellable, stockLimit } from './items.js';
import { couponRemoved, quote } from './quote.js';
import type { Cart } from './session.js';

/** WC_Payment_Gateways::get_available_payment_gateways(): the enabled ones, in their order. */
export function availableGateways(store: Store): { id: string; title: string }[] {
  return orderedGateways(store)
    .map((g) => ({ g, s: gatewaySettings(store, g) }))
    .filter(({ s }) => s.enabled === 'yes')
    .map(({ g, s }) => ({ id: g.id, title: typeof s.title === 'string' ? s.title : g.method_title }));
}

const ON_HOLD = new Set(['bacs', 'cheque']);

/**
 * StoreApi/Exceptions/InvalidCartException: a 409 made from a WP_Error (get_route_error_response_from_object()),
 * so without the cart the route's own 409s carry; its other errors go in `additional_errors`.
 */
export class InvalidCartError extends RestError {
  constructor(
    code: string,
    message: string,
    readonly additional: { code: string; message: string; data: unknown }[],
  ) {
    super(409, code, message);
  }
}

/** ArrayUtils::natural_language_join( $names, true ): quoted, commas, "and" before the last. */
function joinNames(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

const STOCK_ERRORS = [
  [
    'woocommerce_rest_product_out_of_stock',
    (names: string, n: number) =>
      n > 1
        ? `${names} are out of stock and cannot be purchased. Please remove them from your cart.`
        : `${names} is out of stock and cannot be purchased. Please remove it from your cart.`,
  ],
  [
    'woocommerce_rest_product_not_purchasable',
    (names: string, n: number) =>
      `${names} cannot be purchased. Please remove ${n > 1 ? 'them' : 'it'} from your cart.`,
  ],
  [
    'woocommerce_rest_product_partially_out_of_stock',
    (names: string, n: number) =>
      n > 1
        ? `There are not enough ${names} in stock. Please reduce the quantities in your cart.`
        : `There is not enough ${names} in stock. Please reduce the quantity in your cart.`,
  ],
] as const;

/**
 * CartController::validate_cart_items() before an order is made: every line still purchasable, in stock and
 * covered by the stock left (another order may have taken it since). Failures are grouped by kind
 * (stock_exceptions_to_wp_errors()) into one 409 whose first error is the answer and the rest
 * `additional_errors` (AbstractRoute::error_to_response()).
 */
function validateCartItems(store: Store, cart: Cart): void {
  const failed = new Map<string, string[]>();
  const flag = (code: string, name: string) => failed.set(code, [...(failed.get(code) ?? []), name]);
  for (const item of cart.items) {
    const found = resolveSellable(store, item.variation_id || item.product_id);
    if (!found) continue;
    const name = found.product.name;
    const status = found.variation
      ? effectiveStockStatus(store, found.variation)
      : productStockStatus(store, found.product);
    const limit = stockLimit(found.product, found.variation);
    if (found.product.status !== 'publish') flag('woocommerce_rest_product_not_purchasable', name);
    else if (status === 'outofstock') flag('woocommerce_rest_product_out_of_stock', name);
    else if (limit !== null && limit < item.quantity)
      flag('woocommerce_rest_product_partially_out_of_stock', name);
  }
  const errors = STOCK_ERRORS.filter(([code]) => failed.has(code)).map(([code, message]) => {
    const names = failed.get(code)!;
    return { code, message: message(joinNames(names), names.length), data: { status: 409 } };
  });
  if (errors.length === 0) return;
  const [first, ...rest] = errors as [(typeof errors)[number], ...typeof errors];
  throw new InvalidCartError(first.code, first.message, rest);
}

/**
 * CartController::validate_cart_coupons() after the items: a coupon the cart can no longer use (its usage limit
 * reached since it was applied, expired, deleted) is taken off the cart (validate_cart_coupon()) and the checkout
 * refused with a 409 that names it, rather than ordered at a price the shopper was not shown.
 */
function validateCartCoupons(store: Store, cart: Cart): void {
  const usable: string[] = [];
  const errors: { code: string; message: string; data: unknown }[] = [];
  for (const code of cart.coupons) {
    try {
      quote(store, { ...cart, coupons: [...usable, code] }, true);
      usable.push(code);
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      errors.push({ ...couponRemoved(code, err), data: { status: 409 } });
    }
  }
  if (errors.length === 0) return;
  cart.coupons = usable;
  const [first, ...rest] = errors as [(typeof errors)[number], ...typeof errors];
  throw new InvalidCartError(first.code, first.message, rest);
}

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
  validateCartItems(store, cart);
  validateCartCoupons(store, cart);
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
  const placed = {
    payment_method: gateway?.id ?? '',
    payment_method_title: gateway?.title ?? '',
    customer_note: input.customer_note,
    status,
  };
  // create_or_update_draft_order(): the session's draft order (cart/draft-order.ts), made now if GET checkout
  // made none (order.created), is the order placed (saved again: order.updated).
  const draft = draftOrder(store, cart) ?? createOrUpdateDraft(store, cart, placed.payment_method);
  const order = rewriteFromCart(store, draft, cart, placed);
  // The cart is emptied once the payment went through (CheckoutTrait::process_payment() → wc_empty_cart()).
  cart.items = [];
  cart.coupons = [];
  cart.chosen_rates = [];
  return order;
}
