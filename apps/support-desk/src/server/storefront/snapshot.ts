import { plainText } from '@x/store/storefront';
import type {
  StoreCurrency,
  StorefrontCart,
  StorefrontCoupon,
  StorefrontLine,
  StorefrontOrder,
  StorefrontSnapshot,
  StorefrontSummary,
  StorefrontTotals,
} from '../../shared/api.js';

/** Lines kept of a cart or order (a call is about a basket, not a warehouse); the count says how many more. */
export const MAX_LINES = 50;
/** Longest product name or SKU kept (the catalogue's are short; a snapshot must stay small). */
const MAX_TEXT = 200;
const MAX_ERRORS = 10;

/** The currency fields as the Store API sends them beside every group of amounts. */
type CurrencyLike = Partial<StoreCurrency>;

/** What the snapshot reads of a Store API cart or order item (CartItemSchema, OrderItemSchema). */
interface ItemLike {
  key?: string;
  id?: number;
  name?: string;
  sku?: string;
  quantity?: number;
  prices?: { price?: string } & CurrencyLike;
  totals?: { line_subtotal?: string; line_total?: string } & CurrencyLike;
}

interface CouponLike {
  code?: string;
  totals?: { total_discount?: string };
}

interface TotalsLike extends CurrencyLike {
  total_items?: string;
  total_discount?: string;
  total_shipping?: string | null;
  total_tax?: string;
  total_price?: string;
}

/** What the snapshot reads of CartSchema. */
export interface CartLike {
  items: ItemLike[];
  coupons: CouponLike[];
  totals: TotalsLike;
  items_count: number;
  shipping_rates?: {
    shipping_rates?: { rate_id?: string; name?: string; price?: string; selected?: boolean }[];
  }[];
  errors?: unknown[];
}

/** What the snapshot reads of OrderSchema (`GET /wc/store/v1/order/{id}`). */
export interface OrderLike {
  id: number;
  status?: string;
  items?: ItemLike[];
  coupons?: CouponLike[];
  totals: TotalsLike;
}

const cut = (text: unknown): string => [...String(text ?? '')].slice(0, MAX_TEXT).join('');
/** Names and messages arrive as HTML (the Store API's HtmlFormatter, esc_html()); the panel shows text. */
const text = (html: unknown): string => cut(plainText(String(html ?? '')));
/** An amount as the Store API sends it, whole minor units; anything else reads as none. */
const amount = (value: unknown): string =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? value : '0';

/** Longest currency code, symbol, separator, prefix or suffix kept (a real one is a few characters). */
const MAX_CURRENCY_TEXT = 16;
/**
 * A currency string as the summary keeps it: every call event and list entry carries the summary, whose
 * column holds 4 KB, and a control character is six characters of JSON.
 */
const currencyText = (text: unknown): string =>
  [...String(text ?? '').replace(/[\p{Cc}]/gu, '')].slice(0, MAX_CURRENCY_TEXT).join('');

export function currencyOf(fields: CurrencyLike): StoreCurrency {
  const unit = fields.currency_minor_unit;
  return {
    currency_code: currencyText(fields.currency_code),
    currency_symbol: currencyText(fields.currency_symbol),
    currency_minor_unit: Number.isInteger(unit) && unit! >= 0 && unit! <= 10 ? unit! : 2,
    currency_decimal_separator: currencyText(fields.currency_decimal_separator ?? '.'),
    currency_thousand_separator: currencyText(fields.currency_thousand_separator ?? ','),
    currency_prefix: currencyText(fields.currency_prefix),
    currency_suffix: currencyText(fields.currency_suffix),
  };
}

/**
 * A line as the panel shows it. An order's line `key` is the order key (OrderItemSchema), which proves the
 * customer's access to the order, so order lines are keyed by their id instead.
 */
function line(item: ItemLike, ofOrder: boolean): StorefrontLine {
  const quantity = Number(item.quantity ?? 0);
  const subtotal = amount(item.totals?.line_subtotal);
  return {
    key: ofOrder ? String(item.id ?? '') : cut(item.key),
    id: Number(item.id ?? 0),
    name: text(item.name),
    sku: cut(item.sku),
    quantity,
    // OrderItemSchema may leave out `prices`: the unit price is then the line's subtotal per item.
    price: item.prices?.price !== undefined ? amount(item.prices.price) : perItem(subtotal, quantity),
    line_subtotal: subtotal,
    line_total: amount(item.totals?.line_total),
  };
}

/** `total / quantity` in whole minor units, rounded half up, without floating point. */
function perItem(total: string, quantity: number): string {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return total;
  const n = BigInt(total);
  const q = BigInt(quantity);
  const half = n < 0n ? -q : q;
  return ((n * 2n + half) / (2n * q)).toString();
}

function coupons(list: CouponLike[] | undefined): StorefrontCoupon[] {
  return (list ?? [])
    .slice(0, MAX_LINES)
    .map((c) => ({ code: cut(c.code), total_discount: amount(c.totals?.total_discount) }));
}

function totals(t: TotalsLike): StorefrontTotals {
  return {
    total_items: amount(t.total_items),
    total_discount: amount(t.total_discount),
    total_shipping:
      t.total_shipping === null || t.total_shipping === undefined ? null : amount(t.total_shipping),
    total_tax: amount(t.total_tax),
    total_price: amount(t.total_price),
  };
}

/** The cart as the panel shows it, from the Store API's CartSchema. */
export function cartSnapshot(cart: CartLike): StorefrontCart {
  const selected = (cart.shipping_rates ?? []).flatMap((p) => p.shipping_rates ?? []).find((r) => r.selected);
  return {
    items: cart.items.slice(0, MAX_LINES).map((item) => line(item, false)),
    lines: cart.items.length,
    items_count: cart.items_count,
    coupons: coupons(cart.coupons),
    totals: totals(cart.totals),
    shipping_rate: selected
      ? { rate_id: cut(selected.rate_id), name: text(selected.name), price: amount(selected.price) }
      : null,
    errors: (cart.errors ?? []).slice(0, MAX_ERRORS).map((e) => {
      const error = (e ?? {}) as { code?: unknown; message?: unknown };
      return { code: cut(error.code), message: text(error.message) };
    }),
    currency: currencyOf(cart.totals),
  };
}

/** The order as the panel shows it, from the Store API's OrderSchema. */
export function orderSnapshot(order: OrderLike, via: StorefrontOrder['via']): StorefrontOrder {
  const items = order.items ?? [];
  return {
    id: order.id,
    status: cut(order.status),
    items: items.slice(0, MAX_LINES).map((item) => line(item, true)),
    lines: items.length,
    coupons: coupons(order.coupons),
    totals: totals(order.totals),
    currency: currencyOf(order.totals),
    via,
  };
}

/** What every call update carries of a snapshot. */
export function summaryOf(snapshot: StorefrontSnapshot): StorefrontSummary {
  const cart = snapshot.cart;
  return {
    readAt: snapshot.readAt,
    items_count: cart?.items_count ?? null,
    total_price: cart?.totals.total_price ?? null,
    orderId: snapshot.order?.id ?? null,
    currency: cart?.currency ?? snapshot.order?.currency ?? null,
  };
}
