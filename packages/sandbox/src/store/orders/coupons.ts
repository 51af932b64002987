/**
 * Coupons on an order through the REST API: WC_REST_Orders_Controller::calculate_coupons() (v3) over
 * WC_Abstract_Order::apply_coupon() / remove_coupon(), and the usage counts of wc_update_coupon_usage_counts()
 * (wc-order-functions.php) with WC_Coupon::increase_usage_count() / decrease_usage_count().
 */

import type { WriteJournal } from '../data/journal.js';
import type { OrderRec } from '../data/order-rows.js';
import type { CouponRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { findCouponByCode, formatCouponCode } from '../pricing/coupons.js';
import { Discounts, usageLimitReached } from '../pricing/discounts.js';
import { RestError } from '../runtime/errors.js';
import { recalculateCoupons, setCouponDiscountAmounts } from './totals.js';

function invalid(message: string): RestError {
  return new RestError(400, 'woocommerce_rest_invalid_coupon', message);
}

/** increase_usage_count() / decrease_usage_count(): the count, and one `_used_by` row for a known user or email. */
function changeUsage(store: Store, c: CouponRec, by: 1 | -1, usedBy: string, journal?: WriteJournal): void {
  if (!c.id) return;
  if (by < 0 && c.usage_count <= 0) return;
  journal?.touch(c);
  c.usage_count += by;
  if (by > 0 && usedBy) c.used_by.push(usedBy);
  if (by < 0 && usedBy) {
    const at = c.used_by.indexOf(usedBy);
    if (at >= 0) c.used_by.splice(at, 1);
  }
  store.changed('coupons', c.id);
}

/** Who used the coupons: the customer's id, else the billing email. */
function usedByOf(o: OrderRec): string {
  return o.customer_id ? String(o.customer_id) : (o.billing.email ?? '');
}

/**
 * wc_update_coupon_usage_counts(): an order that is not cancelled counts its coupons once; cancelling it gives
 * them back. Runs on the pending, processing, on-hold, completed and cancelled transitions, and after a coupon
 * is applied.
 */
export function updateCouponUsageCounts(store: Store, o: OrderRec, journal?: WriteJournal): void {
  const cancelled = o.status === 'cancelled';
  if (cancelled === o.coupon_usage_recorded) {
    const by = cancelled ? -1 : 1;
    o.coupon_usage_recorded = !cancelled;
    for (const line of o.coupon_lines) {
      const c = findCouponByCode(store, line.code);
      if (c) changeUsage(store, c, by, usedByOf(o), journal);
    }
  }
}

/**
 * calculate_coupons(): when the request has `coupon_lines`, every new code is checked first (an item `id` is
 * read-only, a blank code is refused, an unknown or unusable coupon names the reason), then the order's coupons
 * are removed and the requested ones applied in order. `counted` false writes the lines as the Store API does
 * from a cart (OrderController::update_line_items_from_cart() → WC_Checkout::create_order_coupon_lines()): no
 * usage changes here; the order's status transitions count them (wc_update_coupon_usage_counts()).
 */
export function calculateCoupons(
  store: Store,
  o: OrderRec,
  items: unknown[],
  journal?: WriteJournal,
  counted = true,
): void {
  const current = o.coupon_lines.map((l) => l.code.toLowerCase());
  const checker = new Discounts(store, o);
  const codes: string[] = [];
  for (const raw of items) {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (item.id)
      throw new RestError(400, 'woocommerce_rest_coupon_item_id_readonly', 'Coupon item ID is readonly.');
    if (typeof item.code !== 'string' || item.code.trim() === '') throw invalid('Coupon code is required.');
    const code = formatCouponCode(item.code);
    if (!current.includes(code)) {
      const coupon = findCouponByCode(store, code);
      if (!coupon) throw invalid(`Coupon "${code}" does not exist!`);
      checker.validate(coupon);
    }
    codes.push(code);
  }
  for (const line of [...o.coupon_lines]) removeCoupon(store, o, line.code, counted, journal);
  for (const code of codes) applyCoupon(store, o, code, counted, journal);
}

/** remove_coupon(): the line goes, its coupon's usage drops, the remaining coupons are applied again. */
function removeCoupon(
  store: Store,
  o: OrderRec,
  code: string,
  counted: boolean,
  journal?: WriteJournal,
): void {
  o.coupon_lines = o.coupon_lines.filter((l) => l.code !== code);
  const c = findCouponByCode(store, code);
  if (c && counted) changeUsage(store, c, -1, o.customer_id ? String(o.customer_id) : '', journal);
  recalculateCoupons(store, o);
}

/** apply_coupon(): validated against the order as it now is, then every coupon is applied again and counted. */
function applyCoupon(
  store: Store,
  o: OrderRec,
  code: string,
  counted: boolean,
  journal?: WriteJournal,
): void {
  const coupon = findCouponByCode(store, code);
  if (!coupon) throw invalid('Invalid coupon code');
  if (o.coupon_lines.some((l) => l.code === code)) throw invalid(`Coupon code "${code}" already applied!`);
  const discounts = new Discounts(store, o);
  discounts.validate(coupon);
  discounts.apply(coupon);
  if (o.customer_id === 0 && coupon.usage_limit_per_user && coupon.usage_limit_per_user > 0) {
    const email = o.billing.email ?? '';
    const uses = coupon.used_by.filter((u) => u === email).length;
    if (uses >= coupon.usage_limit_per_user) throw invalid(usageLimitReached(code));
  }
  setCouponDiscountAmounts(store, o, discounts);
  recalculateCoupons(store, o);
  if (!counted) return;
  if (o.coupon_usage_recorded) changeUsage(store, coupon, 1, usedByOf(o), journal);
  updateCouponUsageCounts(store, o, journal);
}
