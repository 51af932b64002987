import { phpRound } from '../numbers.js';
import { isPlainObject, money, toNumber } from '../values.js';
import { RestError } from '../wp/errors.js';
import { applyMeta } from './meta.js';
import { addSystemNote } from './notes.js';
import type { OrderRec, RefundLineItem, RefundRec, TaxLine } from './records.js';
import { ADMIN_USER_ID, nextId } from './state.js';
import { adjustStock } from './stock.js';
import type { Store } from './store.js';
import { priceDecimals, rateCode, rateLabel, roundTaxTotal, sum } from './tax-math.js';

/** Gateways that exist in a stock install but do not support automatic refunds. */
const OFFLINE_GATEWAYS = new Set(['bacs', 'cheque', 'cod']);

/** What has been refunded of an order so far. */
export function refundedTotal(store: Store, o: OrderRec): number {
  return o.refund_ids.reduce((s, id) => s + (store.state.refunds.get(id)?.amount ?? 0), 0);
}

/** What can still be refunded, in cents-rounded money. */
export function remainingRefundable(store: Store, o: OrderRec): number {
  return phpRound(o.total - refundedTotal(store, o), priceDecimals(store));
}

function cannotCreate(message: string): RestError {
  return new RestError(500, 'woocommerce_rest_cannot_create_order_refund', message, null, { bareData: true });
}

/**
 * The refund lines for `line_items` entries that name one of the order's lines (`id`) with a quantity or a
 * `refund_total`; quantities and totals are stored negative, as WooCommerce does. Each line takes an item id
 * even when the refund is then refused, as the real install does (the items are created first).
 */
export function refundLines(
  store: Store,
  o: OrderRec,
  items: unknown[],
): { lines: RefundLineItem[]; lineTotal: number } {
  const lines: RefundLineItem[] = [];
  let lineTotal = 0;
  const dp = priceDecimals(store);
  for (const raw of items) {
    if (!isPlainObject(raw)) continue;
    const itemId = Number(raw.id);
    const li = o.line_items.find((x) => x.id === itemId);
    if (!li) continue;
    const qty = Math.max(0, Math.trunc(toNumber(raw.quantity)));
    const total = toNumber(raw.refund_total);
    // refund_tax: [{id: rate id, refund_total}], negated as wc_format_refund_total() does.
    const taxes: Record<string, number> = {};
    for (const t of Array.isArray(raw.refund_tax) ? raw.refund_tax : []) {
      if (!isPlainObject(t) || !toNumber(t.refund_total)) continue;
      taxes[String(Math.trunc(toNumber(t.id)))] = -Math.abs(toNumber(t.refund_total));
    }
    if (qty === 0 && total === 0 && Object.keys(taxes).length === 0) continue;
    const tax = sum(Object.values(taxes));
    lineTotal += total - tax;
    lines.push({
      id: nextId(store.state, 'item'),
      name: li.name,
      product_id: li.product_id,
      variation_id: li.variation_id,
      quantity: -qty,
      tax_class: li.tax_class,
      subtotal: -total,
      subtotal_tax: phpRound(tax, dp),
      total: -total,
      total_tax: phpRound(tax, dp),
      taxes: { total: taxes, subtotal: { ...taxes } },
      sku: li.sku,
      refunded_item_id: li.id,
    });
  }
  return { lines, lineTotal };
}

/**
 * wc_create_refund() from a validated body: the amount (given, or the sum of the line totals) must be positive
 * and within what is left; `api_refund` (default true) asks the gateway, and no emulated gateway can refund.
 * A refund restocks its quantities and moves a fully refunded order to `refunded`.
 */
export function createRefund(store: Store, o: OrderRec, p: Record<string, unknown>): RefundRec {
  const { lines, lineTotal } = refundLines(store, o, (p.line_items as unknown[] | undefined) ?? []);
  const amount = p.amount !== undefined && p.amount !== '' ? toNumber(p.amount) : lineTotal;
  if (amount < 0) {
    throw new RestError(
      400,
      'woocommerce_rest_invalid_order_refund',
      'Refund amount must be greater than zero.',
      null,
      { bareData: true },
    );
  }
  const remaining = remainingRefundable(store, o);
  if (amount <= 0 || amount > remaining) throw cannotCreate('Invalid refund amount.');
  const apiRefund = typeof p.api_refund === 'boolean' ? p.api_refund : true;
  if (apiRefund) {
    if (!OFFLINE_GATEWAYS.has(o.payment_method))
      throw cannotCreate('The payment gateway for this order does not exist.');
    throw cannotCreate('The payment gateway for this order does not support automatic refunds.');
  }
  const id = nextId(store.state, 'post');
  const r: RefundRec = {
    id,
    order_id: o.id,
    created: store.now(),
    amount,
    reason: typeof p.reason === 'string' ? p.reason : '',
    refunded_by: typeof p.refunded_by === 'number' ? p.refunded_by : ADMIN_USER_ID,
    refunded_payment: false,
    meta_data: applyMeta(store, [], p.meta_data),
    line_items: lines,
    tax_lines: refundTaxLines(store, o, lines),
  };
  store.state.refunds.set(id, r);
  o.refund_ids.unshift(id);
  // wc_create_refund() always restocks the refunded quantities (restock_items => true in the REST controller).
  if (p.api_restock !== false && o.stock_reduced) {
    adjustStock(
      store,
      lines.map((l) => ({ product_id: l.product_id, variation_id: l.variation_id, quantity: -l.quantity })),
      1,
    );
  }
  addSystemNote(store, o.id, `Refunded ${money(amount)} \u2013 ${r.reason || 'no reason given'}`);
  if (phpRound(remaining - amount, priceDecimals(store)) <= 0) {
    o.status = 'refunded';
  }
  o.modified = store.now();
  store.changed('refunds', id);
  store.changed('orders', o.id);
  store.emit('order', 'updated', o.id);
  return r;
}

/** WC_Order_Refund::update_taxes(): a tax line per rate the refunded lines name, with their (negative) sums. */
function refundTaxLines(store: Store, o: OrderRec, lines: RefundLineItem[]): TaxLine[] {
  const byRate = new Map<number, number>();
  for (const l of lines) {
    for (const [id, tax] of Object.entries(l.taxes.total))
      byRate.set(Number(id), (byRate.get(Number(id)) ?? 0) + tax);
  }
  return [...byRate].map(([rateId, total]) => {
    const rate = store.state.tax_rates.get(rateId);
    const onOrder = o.tax_lines.find((t) => t.rate_id === rateId);
    return {
      id: nextId(store.state, 'item'),
      rate_id: rateId,
      rate_code: rate ? rateCode(rate) : (onOrder?.rate_code ?? ''),
      label: rate ? rateLabel(rate) : (onOrder?.label ?? ''),
      compound: rate ? rate.compound : (onOrder?.compound ?? false),
      rate_percent: rate ? Number.parseFloat(rate.rate) || 0 : (onOrder?.rate_percent ?? 0),
      tax_total: roundTaxTotal(store, total),
      shipping_tax_total: 0,
      meta_data: [],
    };
  });
}

export function deleteRefund(store: Store, o: OrderRec, r: RefundRec): void {
  store.state.refunds.delete(r.id);
  o.refund_ids = o.refund_ids.filter((x) => x !== r.id);
  store.changed('refunds', r.id);
  store.changed('orders', o.id);
}
