import { CURRENCY_SYMBOL } from '../../model/constants.js';
import { needsProcessing } from '../../model/order-status.js';
import type { OrderRec } from '../../model/records.js';
import type { Store } from '../../model/store.js';
import { money, wcDate } from '../../values.js';

/** The order as WC_REST_Orders_V2_Controller returns it; `dp` sets the decimals of money fields. */
export function presentOrder(store: Store, o: OrderRec, dpIn?: number): Record<string, unknown> {
  const dp = dpIn ?? 2;
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
    discount_tax: m(0),
    shipping_total: m(o.shipping_total),
    shipping_tax: m(0),
    cart_tax: m(0),
    total: m(o.total),
    total_tax: m(0),
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
        subtotal_tax: m(0),
        total: m(li.total),
        total_tax: m(0),
        taxes: [],
        meta_data: li.meta_data,
        sku: linked ? li.sku : null,
        price: li.quantity ? li.total / li.quantity : 0,
        image: { id: linked ? (image?.id ?? '') : 0, src: image?.src ?? '' },
        parent_name: li.variation_id ? (product?.name ?? null) : null,
      };
    }),
    tax_lines: [],
    shipping_lines: o.shipping_lines.map((l) => ({
      id: l.id,
      method_title: l.method_title,
      method_id: l.method_id,
      instance_id: l.instance_id,
      total: m(l.total),
      total_tax: m(0),
      taxes: [],
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
      total_tax: m(0),
      taxes: [],
      meta_data: l.meta_data,
    })),
    coupon_lines: [],
    refunds,
    payment_url: `${store.homeUrl}/checkout/order-pay/${o.id}/?pay_for_order=true&key=${o.order_key}`,
    is_editable: ['pending', 'on-hold', 'auto-draft', 'checkout-draft'].includes(o.status),
    needs_payment: needsPayment,
    needs_processing: needsProcessing(store, o),
    date_created_gmt: wcDate(o.created),
    date_modified_gmt: wcDate(o.modified),
    date_completed_gmt: wcDate(o.date_completed),
    date_paid_gmt: wcDate(o.date_paid),
    currency_symbol: CURRENCY_SYMBOL,
    _links: links,
  };
}
