/**
 * StoreApi/Utilities/OrderAuthorizationTrait.php is_authorized(), the permission callback of `GET order/{id}` and
 * `POST checkout/{id}`: the `pay_for_order` capability (wc_customer_has_capability(): a guest may pay an order
 * with no customer, and nothing when the order does not exist), then for a guest the order key
 * (OrderController::validate_order_key(), compared with hash_equals()) and the billing email (an exact match).
 * It runs before the route, so a refusal carries no session headers.
 */

import { timingSafeEqual } from 'node:crypto';
import type { OrderRec } from '../../data/order-rows.js';
import { type Ctx, idParam } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';
import { sanitizeTextField } from '../../runtime/formatting.js';

/** sanitize_text_field( wp_unslash( get_param() ) ) of a string; anything else reads as ''. */
function textParam(ctx: Ctx, name: string): string {
  const v = ctx.params[name];
  return typeof v === 'string' ? sanitizeTextField(v) : '';
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The order the request may read or pay, or the refusal WooCommerce answers. */
export function authorizedOrder(ctx: Ctx): OrderRec {
  // absint(): an id past PHP_INT_MAX (idParam()'s -1) names no order, like any id not in the table.
  const id = idParam(ctx);
  const order = id > 0 ? ctx.store.state.orders.get(id) : undefined;
  // wc_customer_has_capability(): without an order id (0) the capability is granted.
  if (id !== 0 && order?.customer_id !== 0) {
    throw new RestError(403, 'woocommerce_rest_invalid_user', 'This order belongs to a different customer.');
  }
  const key = textParam(ctx, 'key');
  if (!order || key === '' || !sameKey(order.order_key, key)) {
    throw new RestError(401, 'woocommerce_rest_invalid_order', 'Invalid order ID or key provided.');
  }
  const email = textParam(ctx, 'billing_email');
  if (email === '' || order.billing.email !== email) {
    throw new RestError(401, 'woocommerce_rest_invalid_billing_email', 'Invalid billing email provided.');
  }
  return order;
}
