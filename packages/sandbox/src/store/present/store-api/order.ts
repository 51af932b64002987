/**
 * An order as the Store API shows it (`GET order/{id}`): StoreApi/Schemas/V1/OrderSchema.php get_item_response()
 * with OrderItemSchema (the order's lines, each keyed by the order key and fixed in quantity), OrderCouponSchema,
 * OrderFeeSchema and the address schemas. Amounts in minor units with the currency beside them.
 */

import { orderNeedsPayment } from '../../cart/order-pay.js';
import { getOption } from '../../data/options.js';
import type { LineItem, OrderRec } from '../../data/order-rows.js';
import type { Store } from '../../data/store.js';
import { refundedTotal } from '../../orders/refunds.js';
import { findCouponByCode } from '../../pricing/coupons.js';
import { permalink } from '../sellable.js';
import { presentAddress } from './cart.js';
import { minor, withCurrency } from './money.js';
import { presentStoreImage } from './products.js';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** OrderItemSchema::get_item_response(): the product's own fields when it still exists, blanks otherwise. */
function presentLine(store: Store, o: OrderRec, line: LineItem): Record<string, unknown> {
  const product = store.state.products.get(line.product_id);
  const variation = store.state.variations.get(line.variation_id);
  return {
    key: o.order_key,
    id: line.id,
    quantity: line.quantity,
    quantity_limits: { minimum: line.quantity, maximum: line.quantity, multiple_of: 1, editable: false },
    name: line.name,
    short_description: product?.short_description ?? '',
    description: product?.description ?? '',
    sku: (variation ?? product)?.sku ?? '',
    low_stock_remaining: null,
    backorders_allowed: false,
    show_backorder_badge: false,
    sold_individually: product?.sold_individually ?? false,
    permalink: product ? permalink(store, product) : '',
    images: (product?.images ?? []).map(presentStoreImage),
    variation: (variation?.attributes ?? []).map((a) => ({ attribute: a.name, value: a.option })),
    item_data: [],
    totals: withCurrency(store, {
      line_subtotal: minor(store, line.subtotal),
      line_subtotal_tax: minor(store, line.subtotal_tax),
      line_total: minor(store, line.total),
      line_total_tax: minor(store, line.total_tax),
    }),
    catalog_visibility: product?.catalog_visibility ?? 'hidden',
  };
}

/** WC_Order::needs_shipping_address(): shipping on and a shipping line that is not local pickup. */
function needsShippingAddress(store: Store, o: OrderRec): boolean {
  if (getOption(store, 'woocommerce_ship_to_countries') === 'disabled') return false;
  return o.shipping_lines.some((l) => l.method_id !== 'local_pickup' && l.method_id !== 'pickup_location');
}

export function presentStoreOrder(store: Store, o: OrderRec): Record<string, unknown> {
  return {
    id: o.id,
    status: o.status,
    items: o.line_items.map((l) => presentLine(store, o, l)),
    coupons: o.coupon_lines.map((c) => ({
      code: c.code,
      discount_type: findCouponByCode(store, c.code)?.discount_type ?? '',
      totals: withCurrency(store, {
        total_discount: minor(store, c.discount),
        total_discount_tax: minor(store, c.discount_tax),
      }),
    })),
    fees: o.fee_lines.map((f) => ({
      key: String(f.id),
      name: f.name,
      totals: withCurrency(store, { total: minor(store, f.total), total_tax: minor(store, f.total_tax) }),
    })),
    // OrderSchema::get_totals(); `total_items_tax` sums the tax lines' item tax, as WooCommerce does.
    totals: withCurrency(store, {
      subtotal: minor(store, sum(o.line_items.map((l) => l.subtotal))),
      total_discount: minor(store, o.discount_total),
      total_shipping: minor(store, o.shipping_total),
      total_fees: minor(store, sum(o.fee_lines.map((f) => f.total))),
      total_tax: minor(store, o.total_tax),
      total_refund: minor(store, refundedTotal(store, o)),
      total_price: minor(store, o.total),
      total_items: minor(store, sum(o.line_items.map((l) => l.total))),
      total_items_tax: minor(store, sum(o.tax_lines.map((t) => t.tax_total))),
      total_fees_tax: minor(store, sum(o.fee_lines.map((f) => f.total_tax))),
      total_discount_tax: minor(store, o.discount_tax),
      total_shipping_tax: minor(store, o.shipping_tax),
      tax_lines: o.tax_lines.map((t) => ({
        name: t.label,
        price: minor(store, t.tax_total),
        rate: String(t.rate_percent),
      })),
    }),
    shipping_address: presentAddress(o.shipping, false),
    billing_address: presentAddress(o.billing, true),
    needs_payment: orderNeedsPayment(o),
    needs_shipping: needsShippingAddress(store, o),
    // ExtendSchema::get_payment_requirements(): `products` unless an extension adds more.
    payment_requirements: ['products'],
    errors: [],
  };
}
