import type { RefundRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { priceDecimals } from '../pricing/tax-math.js';
import { wcFormatDecimal } from '../runtime/numbers.js';
import { money, wcDate } from '../runtime/values.js';
import { presentTaxes, presentTaxLine } from './orders.js';

/** The `_refunded_item_id` meta every refund line carries, naming the order line it refunds. */
function refundedItemMeta(itemId: number): Record<string, unknown> {
  const value = String(itemId);
  return { id: 0, key: '_refunded_item_id', value, display_key: '_refunded_item_id', display_value: value };
}

export function presentRefund(store: Store, r: RefundRec, dpIn?: number): Record<string, unknown> {
  const dp = dpIn ?? priceDecimals(store);
  const m = (n: number) => money(n, dp);
  return {
    id: r.id,
    date_created: wcDate(r.created),
    date_created_gmt: wcDate(r.created),
    amount: money(r.amount, dp),
    reason: r.reason,
    refunded_by: r.refunded_by,
    refunded_payment: r.refunded_payment,
    meta_data: r.meta_data,
    line_items: r.line_items.map((li) => ({
      id: li.id,
      name: li.name,
      product_id: li.product_id,
      variation_id: li.variation_id,
      quantity: li.quantity,
      tax_class: li.tax_class,
      subtotal: m(li.subtotal),
      subtotal_tax: m(li.subtotal_tax),
      total: m(li.total),
      total_tax: m(li.total_tax),
      taxes: presentTaxes(li.taxes),
      meta_data: [refundedItemMeta(li.refunded_item_id)],
      sku: li.sku,
      price: li.quantity ? li.total / li.quantity : 0,
    })),
    shipping_lines: r.shipping_lines.map((l) => ({
      id: l.id,
      method_title: l.name,
      method_id: l.method_id,
      instance_id: l.instance_id,
      total: m(l.total),
      total_tax: m(l.total_tax),
      taxes: presentTaxes(l.taxes),
      tax_status: l.tax_status,
      meta_data: [refundedItemMeta(l.refunded_item_id)],
    })),
    tax_lines: r.tax_lines.map((t) => presentTaxLine(t, m)),
    fee_lines: r.fee_lines.map((l) => ({
      id: l.id,
      name: l.name,
      tax_class: l.tax_class,
      tax_status: l.tax_status,
      amount: wcFormatDecimal(l.total),
      total: m(l.total),
      total_tax: m(l.total_tax),
      taxes: presentTaxes(l.taxes),
      meta_data: [refundedItemMeta(l.refunded_item_id)],
    })),
    _links: {
      self: [{ href: store.restUrl(`/orders/${r.order_id}/refunds/${r.id}`) }],
      collection: [{ href: store.restUrl(`/orders/${r.order_id}/refunds`) }],
      up: [{ href: store.restUrl(`/orders/${r.order_id}`) }],
    },
  };
}
