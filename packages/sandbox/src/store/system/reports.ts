import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { numberFormat } from '../runtime/numbers.js';
import { inRange, periodKey, periodKeys, type ReportRange } from './report-range.js';

/** The statuses WC_Report_Sales_By_Date counts as placed orders. */
const SALES_STATUSES = ['completed', 'processing', 'on-hold', 'refunded'];

/** The order's item tax and shipping tax (`_order_tax`, `_order_shipping_tax`). */
function taxOf(o: OrderRec): { tax: number; shippingTax: number } {
  return { tax: o.cart_tax, shippingTax: o.shipping_tax };
}

/** wc_format_decimal( $n, 2 ). */
function dec2(n: number): string {
  return numberFormat(n, 2);
}

interface PeriodTotals {
  sales: string;
  orders: number;
  items: number;
  tax: string;
  shipping: string;
  discount: string;
  customers: number;
}

/**
 * WC_REST_Report_Sales_V1_Controller::prepare_item_for_response() over WC_Report_Sales_By_Date::query_report_data():
 * orders placed in the range (completed, processing, on-hold, refunded) give the gross totals; refunds made in
 * the range subtract, a fully refunded order's whole total (with its shipping and tax), a partial refund its
 * amount; discounts are the orders' coupon discounts.
 */
export function salesReport(store: Store, range: ReportRange): Record<string, unknown> {
  const s = store.state;
  // wc_get_order_types('order-count'): every shop_order, a child order too; refunds are kept apart.
  const orders = [...s.orders.values()].filter(
    (o) => SALES_STATUSES.includes(o.status) && inRange(range, o.created),
  );
  const customers = [...s.customers.values()].filter(
    (c) => c.role === 'customer' && inRange(range, c.created),
  );

  // Sign-ups per period, counted once (WooCommerce compares every customer with every period).
  const signups = new Map<string, number>();
  for (const c of customers) {
    const key = periodKey(range, c.created);
    signups.set(key, (signups.get(key) ?? 0) + 1);
  }
  const totals: Record<string, PeriodTotals> = {};
  // Only periods with orders have amounts to format; the rest keep wc_format_decimal( 0.00, 2 ).
  const acc: Record<string, { sales: number; tax: number; shipping: number; discount: number }> = {};
  const zero = dec2(0);
  for (const key of periodKeys(range)) {
    totals[key] = {
      sales: zero,
      orders: 0,
      items: 0,
      tax: zero,
      shipping: zero,
      discount: zero,
      customers: signups.get(key) ?? 0,
    };
  }

  let gross = 0;
  let tax = 0;
  let shippingTax = 0;
  let shipping = 0;
  let discount = 0;
  let items = 0;
  for (const o of orders) {
    const t = taxOf(o);
    const qty = o.line_items.reduce((n, l) => n + l.quantity, 0);
    gross += o.total;
    tax += t.tax;
    shippingTax += t.shippingTax;
    shipping += o.shipping_total;
    discount += o.discount_total;
    items += qty;
    const key = periodKey(range, o.created);
    const row = totals[key];
    if (!row) continue;
    acc[key] ??= { sales: 0, tax: 0, shipping: 0, discount: 0 };
    const day = acc[key];
    day.sales += o.total;
    day.tax += t.tax + t.shippingTax;
    day.shipping += o.shipping_total;
    day.discount += o.discount_total;
    row.orders += 1;
    row.items += qty;
  }
  for (const [key, day] of Object.entries(acc)) {
    const row = totals[key]!;
    row.sales = dec2(day.sales);
    row.tax = dec2(day.tax);
    row.shipping = dec2(day.shipping);
    row.discount = dec2(day.discount);
  }

  // Refunds dated in the range: a fully refunded order counts once, with its totals; others by amount.
  let refunds = 0;
  let taxRefunded = 0;
  let shippingRefunded = 0;
  let shippingTaxRefunded = 0;
  const fullyRefunded = new Set<number>();
  for (const r of s.refunds.values()) {
    if (!inRange(range, r.created)) continue;
    const parent = s.orders.get(r.order_id);
    if (!parent) continue;
    if (parent.status === 'refunded') {
      if (fullyRefunded.has(parent.id)) continue;
      fullyRefunded.add(parent.id);
      const t = taxOf(parent);
      refunds += parent.total;
      taxRefunded += Math.abs(t.tax);
      shippingTaxRefunded += Math.abs(t.shippingTax);
      shippingRefunded += Math.abs(parent.shipping_total);
    } else if (['completed', 'processing', 'on-hold'].includes(parent.status)) {
      refunds += Math.abs(r.amount);
    }
  }

  const totalTax = tax - taxRefunded;
  const totalShipping = shipping - shippingRefunded;
  const totalShippingTax = shippingTax - shippingTaxRefunded;
  const totalSales = gross - refunds;
  const netSales = totalSales - totalShipping - Math.max(0, totalTax) - Math.max(0, totalShippingTax);
  return {
    total_sales: dec2(totalSales),
    net_sales: dec2(netSales),
    average_sales: dec2(netSales / (range.interval + 1)),
    total_orders: orders.length,
    total_items: items,
    total_tax: dec2(totalTax + totalShippingTax),
    total_shipping: dec2(totalShipping),
    // Summed as a float and sent unformatted, as WooCommerce does.
    total_refunds: Math.round(refunds * 100) / 100,
    total_discount: numberFormat(discount, 2),
    totals_grouped_by: range.groupBy,
    totals,
    total_customers: customers.length,
  };
}

/**
 * WC_REST_Report_Top_Sellers_V1_Controller::get_items(): line item quantities of orders placed in the range
 * (get_order_report_data()'s default statuses: completed, processing, on-hold), by product, most sold first,
 * at most 12; products that no longer exist are left out.
 */
export function topSellers(
  store: Store,
  range: ReportRange,
): { name: string; product_id: number; quantity: number }[] {
  const qty = new Map<number, number>();
  for (const o of store.state.orders.values()) {
    if (!['completed', 'processing', 'on-hold'].includes(o.status)) continue;
    if (!inRange(range, o.created)) continue;
    for (const l of o.line_items) qty.set(l.product_id, (qty.get(l.product_id) ?? 0) + l.quantity);
  }
  return [...qty.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 12)
    .flatMap(([id, quantity]) => {
      const p = store.state.products.get(id);
      return p ? [{ name: p.name, product_id: id, quantity }] : [];
    });
}

/** wc_get_order_statuses(), in order, with their labels. */
const ORDER_STATUSES: [string, string][] = [
  ['pending', 'Pending payment'],
  ['processing', 'Processing'],
  ['on-hold', 'On hold'],
  ['completed', 'Completed'],
  ['cancelled', 'Cancelled'],
  ['refunded', 'Refunded'],
  ['failed', 'Failed'],
  ['checkout-draft', 'Draft'],
];

export interface TotalRow {
  slug: string;
  name: string;
  total: number;
}

/** WC_REST_Report_Orders_Totals_Controller::get_reports(): orders (not refunds) per status. */
export function ordersTotals(store: Store): TotalRow[] {
  return ORDER_STATUSES.map(([slug, name]) => ({
    slug,
    name,
    total: [...store.state.orders.values()].filter((o) => o.status === slug).length,
  }));
}

/**
 * WC_REST_Report_Products_Totals_Controller::get_reports(): the product_type terms (by name) with their term
 * counts, which count published products only.
 */
export function productsTotals(store: Store): TotalRow[] {
  const types: [string, string][] = [
    ['external', 'External/Affiliate product'],
    ['grouped', 'Grouped product'],
    ['simple', 'Simple product'],
    ['variable', 'Variable product'],
  ];
  return types.map(([slug, name]) => ({
    slug,
    name,
    total: [...store.state.products.values()].filter((p) => p.type === slug && p.status === 'publish').length,
  }));
}

/** WC_REST_Report_Customers_Totals_Controller::get_reports(): users outside administrator and shop_manager. */
export function customersTotals(store: Store): TotalRow[] {
  const users = [...store.state.customers.values()].filter(
    (c) => c.role !== 'administrator' && c.role !== 'shop_manager',
  );
  const paying = users.filter((c) => c.is_paying_customer).length;
  return [
    { slug: 'paying', name: 'Paying customer', total: paying },
    { slug: 'non_paying', name: 'Non-paying customer', total: users.length - paying },
  ];
}

/** WC_REST_Report_Coupons_Totals_Controller::get_reports(): coupons per `discount_type` meta value. */
export function couponsTotals(store: Store): TotalRow[] {
  const types: [string, string][] = [
    ['percent', 'Percentage discount'],
    ['fixed_cart', 'Fixed cart discount'],
    ['fixed_product', 'Fixed product discount'],
  ];
  return types.map(([slug, name]) => ({
    slug,
    name,
    total: [...store.state.coupons.values()].filter((c) => c.discount_type === slug).length,
  }));
}

/**
 * WC_REST_Report_Reviews_Totals_Controller::get_reports(): reviews of products rated 1 to 5, approved or held
 * for moderation (spam and trash left out).
 */
export function reviewsTotals(store: Store): TotalRow[] {
  const counts = [0, 0, 0, 0, 0];
  for (const r of store.state.reviews.values()) {
    if (r.status !== 'approved' && r.status !== 'hold') continue;
    if (!store.state.products.has(r.product_id)) continue;
    if (Number.isInteger(r.rating) && r.rating >= 1 && r.rating <= 5) counts[r.rating - 1]! += 1;
  }
  return counts.map((total, i) => ({
    slug: `rated_${i + 1}_out_of_5`,
    name: `Rated ${i + 1} out of 5`,
    total,
  }));
}
