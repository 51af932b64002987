/**
 * Paying an existing order through the Store API (StoreApi/Routes/V1/CheckoutOrder.php get_route_post_response()
 * with Utilities/OrderController.php and CheckoutTrait.php): the order must need payment, the request's addresses
 * and payment method go on it, it is validated (validate_existing_order_before_payment()), then the gateway's
 * process_payment() moves it on as the checkout does for the same gateway (cart/checkout.ts). The write is the REST
 * API's own (orders/orders.ts updateOrder()), so `wc/v3/orders/{id}` shows it and `order.updated` fires.
 */

import { applyAddress } from '../customers/addresses.js';
import { COUNTRIES } from '../data/geo.js';
import { getOption } from '../data/options.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Address } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { updateOrder } from '../orders/orders.js';
import { RestError } from '../runtime/errors.js';
import { escHtml } from '../runtime/formatting.js';
import { availableGateways } from './checkout.js';
import type { Cart } from './session.js';

/**
 * WC_Order::needs_payment(): a status of woocommerce_valid_order_statuses_for_payment (pending, failed, and the
 * checkout-draft that Blocks/Domain/Services/DraftOrders.php appends) and a total.
 */
export function orderNeedsPayment(o: OrderRec): boolean {
  return ['pending', 'failed', 'checkout-draft'].includes(o.status) && o.total > 0;
}

/** WC_Countries::get_allowed_countries() by `woocommerce_allowed_countries`. */
function allowedCountries(store: Store): Set<string> {
  const all = [...COUNTRIES.keys()];
  const list = (name: string): string[] => {
    const v = getOption(store, name);
    return Array.isArray(v) ? v.map(String) : [];
  };
  const mode = getOption(store, 'woocommerce_allowed_countries', 'all');
  if (mode === 'specific') return new Set(list('woocommerce_specific_allowed_countries'));
  if (mode === 'all_except') {
    const except = new Set(list('woocommerce_all_except_countries'));
    return new Set(all.filter((c) => !except.has(c)));
  }
  return new Set(all);
}

/** WC_Countries::get_shipping_countries() by `woocommerce_ship_to_countries` ('' ships where the shop sells). */
function shippingCountries(store: Store): Set<string> {
  const mode = getOption(store, 'woocommerce_ship_to_countries', '');
  if (mode === 'all') return new Set(COUNTRIES.keys());
  if (mode === 'specific') {
    const v = getOption(store, 'woocommerce_specific_ship_to_countries');
    return new Set(Array.isArray(v) ? v.map(String) : []);
  }
  return allowedCountries(store);
}

/**
 * The fields the default country locale requires that no country's locale relaxes (WC_Countries::
 * get_default_address_fields()); the state, city and postcode rules of each locale are not modelled.
 */
const REQUIRED = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['address_1', 'Street address'],
] as const;

function missingFields(a: Address): string[] {
  return REQUIRED.filter(([k]) => (a[k] ?? '').trim() === '').map(([, label]) => `${label} is required`);
}

/** WC_Order::needs_shipping(): shipping on and a shipping line (an order without one ships nothing). */
function orderNeedsShipping(store: Store, o: OrderRec): boolean {
  return getOption(store, 'woocommerce_ship_to_countries') !== 'disabled' && o.shipping_lines.length > 0;
}

/** OrderController::validate_email() and validate_addresses() on the order as it would be paid. */
function validateBeforePayment(
  store: Store,
  o: { billing: Address; shipping: Address },
  ships: boolean,
  isEmail: (v: string) => boolean,
): void {
  const email = o.billing.email ?? '';
  if (email === '') {
    throw new RestError(400, 'woocommerce_rest_missing_email_address', 'A valid email address is required');
  }
  if (!isEmail(email)) {
    throw new RestError(
      400,
      'woocommerce_rest_invalid_email_address',
      `The provided email address (${escHtml(email)}) is not valid—please provide a valid email address`,
    );
  }
  const refuse = (what: string, country: string, allowed: Set<string>) =>
    new RestError(
      400,
      'woocommerce_rest_invalid_address_country',
      `Sorry, we do not ${what} (${escHtml(country)})`,
      {
        allowed_countries: [...allowed],
      },
    );
  if (ships) {
    const to = shippingCountries(store);
    if (!to.has(o.shipping.country))
      throw refuse('ship orders to the provided country', o.shipping.country, to);
  }
  const from = allowedCountries(store);
  if (!from.has(o.billing.country))
    throw refuse('allow orders from the provided country', o.billing.country, from);
  const errors: Record<string, string[]> = {};
  if (ships && missingFields(o.shipping).length > 0) errors.shipping = missingFields(o.shipping);
  if (missingFields(o.billing).length > 0) errors.billing = missingFields(o.billing);
  const [first] = Object.entries(errors);
  if (first) {
    const [kind, messages] = first;
    throw new RestError(
      400,
      'woocommerce_rest_invalid_address',
      `There was a problem with the provided ${kind} address: ${escHtml(messages.join(', '))}`,
      { errors },
    );
  }
}

export interface OrderPayInput {
  billing_address: Record<string, unknown>;
  shipping_address?: Record<string, unknown>;
  payment_method: string;
  customer_note: string;
  /** is_email(), as the REST layer implements it. */
  isEmail: (v: string) => boolean;
}

/** A WP_Error returned without data: error_to_response() answers it with HTTP 500 and `data: null`. */
class StatuslessError extends RestError {
  constructor(code: string, message: string) {
    super(500, code, message);
    Object.defineProperty(this, 'data', { value: null });
  }
}

const ON_HOLD = new Set(['bacs', 'cheque']);

/**
 * CheckoutOrder: an order that does not need payment is `invalid_order_update_status` (a WP_Error without a
 * status: HTTP 500); the payment method errors are CheckoutOrder::get_request_payment_method()'s own wording. Everything is validated before the order is written, so a refused request changes nothing.
 */
export function payOrder(store: Store, o: OrderRec, cart: Cart, input: OrderPayInput): void {
  if (!orderNeedsPayment(o)) {
    throw new StatuslessError('invalid_order_update_status', 'This order cannot be paid for.');
  }
  const billing: Address = { ...o.billing };
  const shipping: Address = { ...o.shipping };
  applyAddress(billing, input.billing_address);
  applyAddress(shipping, input.shipping_address);
  if (input.payment_method === '') {
    throw new RestError(
      400,
      'woocommerce_rest_checkout_missing_payment_method',
      'No payment method provided.',
    );
  }
  const gateway = availableGateways(store).find((g) => g.id === input.payment_method);
  if (!gateway) {
    throw new RestError(
      400,
      'woocommerce_rest_checkout_payment_method_disabled',
      `The ${escHtml(input.payment_method)} payment gateway is not available.`,
    );
  }
  validateBeforePayment(store, { billing, shipping }, orderNeedsShipping(store, o), input.isEmail);
  // The request's billing address goes to the session customer too (update_billing_address()), and its shipping
  // address, or the billing one without it.
  applyAddress(cart.billing, input.billing_address);
  applyAddress(cart.shipping, input.shipping_address ?? input.billing_address);
  // BACS and cheque put the order on hold, cash on delivery to processing (their process_payment()); each then
  // empties the session's cart (WC()->cart->empty_cart()), whatever it holds.
  updateOrder(store, o, {
    billing: input.billing_address,
    shipping: input.shipping_address,
    payment_method: gateway.id,
    payment_method_title: gateway.title,
    customer_note: input.customer_note,
    status: ON_HOLD.has(gateway.id) ? 'on-hold' : 'processing',
  });
  cart.items = [];
  cart.coupons = [];
  cart.chosen_rates = [];
}
