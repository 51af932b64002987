/**
 * The cart as the Store API shows it: StoreApi/Schemas/V1/CartSchema.php get_item_response() with
 * CartItemSchema (prices per unit, line totals), CartCouponSchema, CartShippingRateSchema and the address
 * schemas. Amounts come from the cart's quote (cart/quote.ts), in minor units with the currency beside them.
 */

import { availableGateways } from '../../cart/checkout.js';
import { maximumOf, needsShipping, resolveSellable, showShipping } from '../../cart/items.js';
import { type Quote, takeCartErrors } from '../../cart/quote.js';
import type { Cart } from '../../cart/session.js';
import { activePrice } from '../../catalog/prices.js';
import { getOption } from '../../data/options.js';
import type { OrderRec } from '../../data/order-rows.js';
import type { Address } from '../../data/rows.js';
import type { Store } from '../../data/store.js';
import { findCouponByCode } from '../../pricing/coupons.js';
import { phpFloatval } from '../../runtime/numbers.js';
import { permalink } from '../sellable.js';
import { htmlResponse } from './html.js';
import { minor, withCurrency } from './money.js';
import { presentStoreImage } from './products.js';

const GRAMS: Record<string, number> = { kg: 1000, g: 1, lbs: 453.59237, oz: 28.34952 };

const ADDRESS = ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'state', 'postcode'];

/** CartShippingAddressSchema / CartBillingAddressSchema: the address fields, the billing one with its email. */
export function presentAddress(a: Address, withEmail: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of [...ADDRESS, 'country']) out[k] = a[k as keyof Address] ?? '';
  if (withEmail) out.email = a.email ?? '';
  out.phone = a.phone;
  return out;
}

function presentItem(store: Store, cart: Cart, q: Quote, index: number): Record<string, unknown> {
  const item = cart.items[index]!;
  const line = q.order.line_items[index];
  const found = resolveSellable(store, item.variation_id || item.product_id);
  const product = found?.product;
  const sellable = found?.variation ?? product;
  const unit = sellable ? activePrice(sellable) : '';
  return {
    key: item.key,
    id: item.variation_id || item.product_id,
    type: found?.variation ? 'variation' : (product?.type ?? 'simple'),
    quantity: item.quantity,
    quantity_limits: {
      minimum: 1,
      maximum: found ? maximumOf(found) : 9999,
      multiple_of: 1,
      editable: !product?.sold_individually,
    },
    // CartItemSchema: prepare_html_response( get_title() ) and of the sku (present/store-api/html.ts).
    name: htmlResponse(product?.name ?? ''),
    short_description: product?.short_description ?? '',
    description: product?.description ?? '',
    sku: htmlResponse(sellable?.sku ?? ''),
    low_stock_remaining: null,
    backorders_allowed: sellable ? sellable.backorders !== 'no' : false,
    show_backorder_badge: false,
    sold_individually: product?.sold_individually ?? false,
    permalink: product ? permalink(store, product) : '',
    images: (product?.images ?? []).map(presentStoreImage),
    variation: (found?.variation?.attributes ?? []).map((a) => ({ attribute: a.name, value: a.option })),
    item_data: [],
    prices: withCurrency(store, {
      price: minor(store, unit),
      regular_price: minor(store, sellable?.regular_price || unit),
      sale_price: minor(store, unit),
      price_range: null,
      raw_prices: {
        precision: 6,
        price: minor6(unit),
        regular_price: minor6(sellable?.regular_price || unit),
        sale_price: minor6(unit),
      },
    }),
    totals: withCurrency(store, {
      line_subtotal: minor(store, line?.subtotal ?? 0),
      line_subtotal_tax: minor(store, line?.subtotal_tax ?? 0),
      line_total: minor(store, line?.total ?? 0),
      line_total_tax: minor(store, line?.total_tax ?? 0),
    }),
    catalog_visibility: product?.catalog_visibility ?? 'visible',
    extensions: {},
  };
}

/** `raw_prices`: the price at six decimals, as the integer string CartItemSchema::prepare_money_response() gives. */
function minor6(value: string): string {
  return String(Math.round(phpFloatval(value) * 1e6));
}

function presentRates(store: Store, cart: Cart, q: Quote): Record<string, unknown>[] {
  if (!showShipping(store, cart)) return [];
  const to = cart.shipping;
  const names = cart.items.map((i) => store.state.products.get(i.product_id)?.name ?? '');
  return [
    {
      package_id: 0,
      name: 'Shipment 1',
      destination: {
        address_1: to.address_1,
        address_2: to.address_2,
        city: to.city,
        state: to.state,
        postcode: to.postcode,
        country: to.country,
      },
      items: cart.items.map((i, n) => ({ key: i.key, name: names[n], quantity: i.quantity })),
      shipping_rates: q.rates.map((r) => {
        const line = q.chosen?.rate_id === r.rate_id ? q.order.shipping_lines[0] : undefined;
        return withCurrency(store, {
          rate_id: r.rate_id,
          name: r.name,
          description: '',
          delivery_time: '',
          price: minor(store, r.cost),
          taxes: minor(store, line?.total_tax ?? 0),
          instance_id: r.instance_id,
          method_id: r.method_id,
          meta_data: [
            {
              key: 'Items',
              value: cart.items.map((i, n) => `${names[n]} &times; ${i.quantity}`).join(', '),
            },
          ],
          selected: q.chosen?.rate_id === r.rate_id,
        });
      }),
    },
  ];
}

export function presentCart(store: Store, cart: Cart, q: Quote): Record<string, unknown> {
  const o = q.order;
  const subtotal = o.line_items.reduce((n, li) => n + li.subtotal, 0);
  const subtotalTax = o.line_items.reduce((n, li) => n + li.subtotal_tax, 0);
  const ships = needsShipping(store, cart);
  const shown = showShipping(store, cart);
  return {
    items: cart.items.map((_, i) => presentItem(store, cart, q, i)),
    coupons: o.coupon_lines.map((c) => ({
      code: c.code,
      discount_type: findCouponByCode(store, c.code)?.discount_type ?? 'fixed_cart',
      totals: withCurrency(store, {
        total_discount: minor(store, c.discount),
        total_discount_tax: minor(store, c.discount_tax),
      }),
    })),
    fees: [],
    totals: withCurrency(store, {
      total_items: minor(store, subtotal),
      total_items_tax: minor(store, subtotalTax),
      total_fees: '0',
      total_fees_tax: '0',
      total_discount: minor(store, o.discount_total),
      total_discount_tax: minor(store, o.discount_tax),
      total_shipping: shown ? minor(store, o.shipping_total) : null,
      total_shipping_tax: shown ? minor(store, o.shipping_tax) : null,
      total_price: minor(store, o.total),
      total_tax: minor(store, o.total_tax),
      // get_tax_lines(): only when tax totals are itemized (the default).
      tax_lines: (getOption(store, 'woocommerce_tax_total_display', 'itemized') === 'itemized'
        ? o.tax_lines
        : []
      ).map((t) => ({
        name: t.label,
        price: minor(store, t.tax_total + t.shipping_tax_total),
        rate: `${t.rate_percent}%`,
      })),
    }),
    shipping_address: presentAddress(cart.shipping, false),
    billing_address: presentAddress(cart.billing, true),
    needs_payment: o.total > 0,
    needs_shipping: ships,
    payment_requirements: ['products'],
    has_calculated_shipping: shown,
    shipping_rates: presentRates(store, cart, q),
    items_count: cart.items.reduce((n, i) => n + i.quantity, 0),
    // wc_get_weight( ..., 'g' ): the store's unit in grams.
    items_weight:
      cart.items.reduce((n, i) => {
        const s = store.state.variations.get(i.variation_id) ?? store.state.products.get(i.product_id);
        return n + phpFloatval(s?.weight ?? '') * i.quantity;
      }, 0) * (GRAMS[String(getOption(store, 'woocommerce_weight_unit', 'lbs'))] ?? 1),
    cross_sells: [],
    errors: takeCartErrors(cart),
    payment_methods: availableGateways(store).map((g) => g.id),
    extensions: {},
  };
}

export function presentCartItem(store: Store, cart: Cart, q: Quote, key: string): Record<string, unknown> {
  return presentItem(
    store,
    cart,
    q,
    cart.items.findIndex((i) => i.key === key),
  );
}

/** CheckoutSchema: the order the checkout made, its addresses and the payment's result. */
export function presentCheckout(store: Store, o: OrderRec): Record<string, unknown> {
  return {
    order_id: o.id,
    status: o.status,
    order_key: o.order_key,
    order_number: String(o.id),
    customer_note: o.customer_note,
    customer_id: o.customer_id,
    billing_address: presentAddress(o.billing, true),
    shipping_address: presentAddress(o.shipping, false),
    payment_method: o.payment_method,
    payment_result: {
      payment_status: 'success',
      payment_details: [],
      redirect_url: `${store.homeUrl}/checkout/order-received/${o.id}/?key=${o.order_key}`,
    },
    extensions: {},
  };
}
