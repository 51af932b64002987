import type { OrderRec } from './records.js';

/**
 * Order totals without taxes or coupons: items + shipping + fees, rounded to cents; the discount is what line
 * totals knock off their subtotals.
 */
export function recalcTotals(o: OrderRec): void {
  o.shipping_total = o.shipping_lines.reduce((s, l) => s + l.total, 0);
  const fees = o.fee_lines.reduce((s, l) => s + l.total, 0);
  const items = o.line_items.reduce((s, l) => s + l.total, 0);
  o.discount_total = o.line_items.reduce((s, l) => s + (l.subtotal - l.total), 0);
  o.total = Math.round((items + o.shipping_total + fees) * 100) / 100;
}
