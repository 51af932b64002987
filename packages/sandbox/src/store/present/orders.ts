import { currencySymbol } from '../data/options.js';
import type { CouponLine, ItemTaxes, OrderRec, TaxLine } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { needsProcessing } from '../orders/status.js';
import { priceDecimals } from '../pricing/tax-math.js';
import { wcFormatDecimal } from '../runtime/numbers.js';
import { money, wcDate } from '../runtime/values.js';

/** get_order_item_data(): taxes as [{id, total, subtotal}] per rate, amounts as stored (unrounded). */
export function presentTaxes(taxes: ItemTaxes): { id: number; total: string; subtotal: string }[] {
  return Object.entries(taxes.total).map(([id, total]) => ({
    id: Number(id),
    total: wcFormatDecimal(total),
    subtotal: id in taxes.subtotal ? wcFormatDecimal(taxes.subtotal[id]) : '',
  }));
}

export function presentTaxLine(t: TaxLine, m: (n: number) => string): Record<string, unknown> {
  return {
    id: t.id,
    rate_code: t.rate_code,
    rate_id: t.rate_id,
    label: t.label,
    compound: t.compound,
    tax_total: m(t.tax_total),
    shipping_tax_total: m(t.shipping_tax_total),
    rate_percent: t.rate_percent,
    meta_data: t.meta_data,
  };
}

/** A coupon line, with the type, amount and free shipping its `coupon_info` meta recorded when applied. */
function presentCouponLine(c: CouponLine, m: (n: number) => string): Record<string, unknown> {
  const info = c.meta_data.find((x) => x.key === 'coupon_info')?.value;
  const [, , type, amount, freeShipping] = typeof info === 'string' ? (JSON.parse(info) as unknown[]) : [];
  return {
    id: c.id,
    code: c.code,
    discount: m(c.discount),
    discount_tax: m(c.discount_tax),
    meta_data: c.meta_data.map((x) => ({ ...x, display_key: x.key, display_value: x.value })),
    discount_type: typeof type === 'string' ? type : 'fixed_cart',
    nominal_amount: typeof amount === 'number' ? amount : 0,
    free_shipping: freeShipping === true,
  };
}

/** The order as WC_REST_Orders_V2_Controller returns it; `dp` sets the decimals of money fields. */
export function presentOrder(store: Store, o: OrderRec, dpIn?: number): Record<string, unknown> {
  const dp = dpIn ?? priceDecimals(store);
  const m = (n: number) => money(n, dp);
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`/orders/${o.id}`) }],
    collection: [{ href: store.restUrl('/orders') }],
  };
  if (o.customer_id) links.customer = [{ href: store.restUrl(`/customers/${o.customer_id}`) }];
  if (o.parent_id) links.up = [{ href: store.restUrl(`/orders/${o.parent_id}`) }];
  const refunds = o.refund_ids
    .map((id) => store.state.refunds.get(id))
    .filter((r) => r !== undefined)
    .map((r) => ({ id: r!.id, reason: r!.reason, total: m(-r!.amount) }));
  const needsPayment = (o.status === 'pending' || o.status === 'failed') && o.total > 0;
  return {
    id: o.id,
    parent_id: o.parent_id,
    status: o.status,
    currency: o.currency,
    version: o.version,
    prices_include_tax: o.prices_include_tax,
    date_created: wcDate(o.created),
    date_modified: wcDate(o.modified),
    discount_total: m(o.discount_total),
    discount_tax: m(o.discount_tax),
    shipping_total: m(o.shipping_total),
    shipping_tax: m(o.shipping_tax),
    cart_tax: m(o.cart_tax),
    total: m(o.total),
    total_tax: m(o.total_tax),
    customer_id: o.customer_id,
    order_key: o.order_key,
    billing: o.billing,
    shipping: o.shipping,
    payment_method: o.payment_method,
    payment_method_title: o.payment_method_title,
    transaction_id: o.transaction_id,
    customer_ip_address: o.customer_ip_address,
    customer_user_agent: o.customer_user_agent,
    created_via: o.created_via,
    customer_note: o.customer_note,
    date_completed: wcDate(o.date_completed),
    date_paid: wcDate(o.date_paid),
    cart_hash: o.cart_hash,
    number: String(o.id),
    meta_data: o.meta_data,
    line_items: o.line_items.map((li) => {
      const product = store.state.products.get(li.product_id);
      const variation = store.state.variations.get(li.variation_id);
      const image = variation?.image ?? product?.images[0];
      // get_order_item_data(): sku and image come from $item->get_product(), so a line without a product
      // (unknown product_id) has sku null and image id 0.
      const linked = li.variation_id ? variation : product;
      return {
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
        meta_data: li.meta_data,
        sku: linked ? li.sku : null,
        price: li.quantity ? li.total / li.quantity : 0,
        image: { id: linked ? (image?.id ?? '') : 0, src: image?.src ?? '' },
        parent_name: li.variation_id ? (product?.name ?? null) : null,
      };
    }),
    tax_lines: o.tax_lines.map((t) => presentTaxLine(t, m)),
    shipping_lines: o.shipping_lines.map((l) => ({
      id: l.id,
      method_title: l.method_title,
      method_id: l.method_id,
      instance_id: l.instance_id,
      total: m(l.total),
      total_tax: m(l.total_tax),
      taxes: presentTaxes(l.taxes),
      tax_status: 'taxable',
      meta_data: l.meta_data,
    })),
    fee_lines: o.fee_lines.map((l) => ({
      id: l.id,
      name: l.name,
      tax_class: l.tax_class,
      tax_status: l.tax_status,
      amount: l.amount,
      total: m(l.total),
      total_tax: m(l.total_tax),
      taxes: presentTaxes(l.taxes),
      meta_data: l.meta_data,
    })),
    coupon_lines: o.coupon_lines.map((c) => presentCouponLine(c, m)),
    refunds,
    payment_url: `${store.homeUrl}/checkout/order-pay/${o.id}/?pay_for_order=true&key=${o.order_key}`,
    is_editable: ['pending', 'on-hold', 'auto-draft', 'checkout-draft'].includes(o.status),
    needs_payment: needsPayment,
    needs_processing: needsProcessing(store, o),
    date_created_gmt: wcDate(o.created),
    date_modified_gmt: wcDate(o.modified),
    date_completed_gmt: wcDate(o.date_completed),
    date_paid_gmt: wcDate(o.date_paid),
    currency_symbol: currencySymbol(o.currency),
    _links: links,
  };
}
