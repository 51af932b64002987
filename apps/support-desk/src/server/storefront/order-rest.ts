import { NotFoundError, type Order, type StoreClient } from '@x/store';
import type { StoreCurrency, StorefrontHelpRequest, StorefrontOrder } from '../../shared/api.js';
import { currencyOf, orderSnapshot } from './snapshot.js';

/**
 * The order through the REST API (`wc/v3`), for a store whose Store API has no `order/{id}`: the admin
 * client sees every order, so the key and billing email the customer's storefront gave must match it.
 */
export async function readOrderRest(
  store: StoreClient,
  given: NonNullable<StorefrontHelpRequest['order']>,
  /** The cart's currency: the REST API names only the order's code, not how the shop writes it. */
  cartCurrency: StoreCurrency | null,
): Promise<StorefrontOrder> {
  const order: Order = await store.orders.get(given.id);
  const email = (order.billing?.email ?? '').toLowerCase();
  if (order.order_key !== given.key || email !== given.billing_email.toLowerCase()) {
    throw new NotFoundError({ status: 404, message: 'no such order', headers: new Headers(), body: null });
  }
  const code = String(order.currency ?? '');
  const currency =
    cartCurrency?.currency_code === code
      ? cartCurrency
      : currencyOf({ currency_code: code, currency_minor_unit: 2 });
  const minor = (value: unknown) => toMinor(value, currency.currency_minor_unit);
  const lines = order.line_items ?? [];
  return orderSnapshot(
    {
      id: order.id,
      status: String(order.status),
      items: lines.map((li) => ({
        id: Number(li.id ?? 0),
        name: li.name ?? '',
        sku: li.sku ?? '',
        quantity: li.quantity ?? 0,
        totals: { line_subtotal: minor(li.subtotal), line_total: minor(li.total) },
      })),
      coupons: (order.coupon_lines ?? []).map((c) => ({
        code: c.code ?? '',
        totals: { total_discount: minor(c.discount) },
      })),
      totals: {
        ...currency,
        // OrderSchema::get_totals(): the lines' totals after discounts (its `subtotal` is before them).
        total_items: String(lines.reduce((n, li) => n + BigInt(minor(li.total)), 0n)),
        total_discount: minor(order.discount_total),
        total_shipping: minor(order.shipping_total),
        total_tax: minor(order.total_tax),
        total_price: minor(order.total),
      },
    },
    'rest-v3',
  );
}

/** A REST API decimal string ("12.50") in whole minor units, without floating point. */
export function toMinor(value: unknown, unit: number): string {
  const text = String(value ?? '0').trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return '0';
  const [, sign, whole = '', fraction = ''] = match;
  const digits = `${whole}${fraction.padEnd(unit, '0').slice(0, unit)}`.replace(/^0+(?=\d)/, '') || '0';
  return digits === '0' ? '0' : `${sign}${digits}`;
}
