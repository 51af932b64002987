import { adjustStock } from '../catalog/stock.js';
import { applyMeta } from '../data/meta.js';
import { getOption } from '../data/options.js';
import type { OrderRec, RefundOtherLine, RefundRec, TaxLine } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { ADMIN_USER_ID, nextId } from '../data/tables.js';
import { priceDecimals, rateFields, roundTaxTotal, sum } from '../pricing/tax-math.js';
import { RestError } from '../runtime/errors.js';
import { isNumericString, phpRound } from '../runtime/numbers.js';
import { isPlainObject, money, toNumber } from '../runtime/values.js';
import { addSystemNote } from './notes.js';

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

/** What a `line_items` entry asks to refund of one order line: quantity, amount and tax per rate (negative). */
interface Requested {
  qty: number;
  total: number;
  taxes: Record<string, number>;
}

/**
 * RestApiUtil::adjust_create_refund_request_parameters(): `line_items` keyed by their `id` (when every entry has
 * one), `refund_tax` as rate id → amount (dropped for an entry if any of its taxes lacks an id or an amount),
 * and the amount, when none is given, as the sum of refund totals and taxes (only if every one is numeric).
 */
function readRequest(items: unknown[]): { byItem: Map<number, Requested>; amount: number | null } {
  const byItem = new Map<number, Requested>();
  const entries = items.filter(isPlainObject);
  if (!entries.every((e) => e.id !== undefined && e.id !== null)) return { byItem, amount: null };
  let amount: number | null = 0;
  for (const e of entries) {
    const taxList = Array.isArray(e.refund_tax) ? e.refund_tax : [];
    const complete = taxList.every(
      (t) => isPlainObject(t) && t.id !== undefined && t.refund_total !== undefined,
    );
    const taxes: Record<string, number> = {};
    if (complete) {
      for (const t of taxList as Record<string, unknown>[]) {
        // (float) $tax * -1, then wc_format_refund_total() keeps refunds negative; a 0 stays (woocommerce#27118).
        taxes[String(Math.trunc(toNumber(t.id)))] = -Math.abs(toNumber(t.refund_total));
      }
    }
    const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && isNumericString(v));
    if (
      amount !== null &&
      numeric(e.refund_total) &&
      taxList.every((t) => numeric((t as Record<string, unknown>)?.refund_total))
    ) {
      amount += toNumber(e.refund_total) + sum(Object.values(taxes).map((t) => -t));
    } else amount = null;
    byItem.set(Math.trunc(toNumber(e.id)), {
      qty: Math.max(0, Math.trunc(toNumber(e.quantity))),
      total: toNumber(e.refund_total),
      taxes,
    });
  }
  return { byItem, amount };
}

/** The items' set_taxes() total: each rate rounded (wc_round_tax_total) unless taxes round at the subtotal. */
function taxTotal(store: Store, taxes: Record<string, number>): number {
  const values = Object.values(taxes);
  const atSubtotal = getOption(store, 'woocommerce_tax_round_at_subtotal') === 'yes';
  return sum(atSubtotal ? values : values.map((t) => roundTaxTotal(store, t)));
}

/**
 * wc_create_refund(): a refund line for each order line (product, fee or shipping) the request names with a
 * quantity, an amount or a tax; quantities, totals and taxes are stored negative, as WooCommerce does. Each
 * line takes an item id even when the refund is then refused, as the real install does.
 */
export function refundLines(
  store: Store,
  o: OrderRec,
  byItem: Map<number, Requested>,
): Pick<RefundRec, 'line_items' | 'shipping_lines' | 'fee_lines'> & { count: number } {
  const out: Pick<RefundRec, 'line_items' | 'shipping_lines' | 'fee_lines'> & { count: number } = {
    line_items: [],
    shipping_lines: [],
    fee_lines: [],
    count: 0,
  };
  const wanted = (id: number) => {
    const r = byItem.get(id);
    return r && (r.qty || r.total || Object.keys(r.taxes).length) ? r : undefined;
  };
  for (const li of o.line_items) {
    const r = wanted(li.id);
    if (!r) continue;
    const tax = taxTotal(store, r.taxes);
    out.count += r.qty;
    out.line_items.push({
      id: nextId(store.state, 'item'),
      name: li.name,
      product_id: li.product_id,
      variation_id: li.variation_id,
      quantity: -r.qty,
      tax_class: li.tax_class,
      subtotal: -Math.abs(r.total),
      subtotal_tax: tax,
      total: -Math.abs(r.total),
      total_tax: tax,
      taxes: { total: r.taxes, subtotal: { ...r.taxes } },
      sku: li.sku,
      refunded_item_id: li.id,
    });
  }
  const other = (
    line: { id: number; total: number },
    fields: Pick<RefundOtherLine, 'name' | 'method_id' | 'instance_id' | 'tax_class' | 'tax_status'>,
  ): RefundOtherLine | undefined => {
    const r = wanted(line.id);
    if (!r) return undefined;
    return {
      id: nextId(store.state, 'item'),
      ...fields,
      total: -Math.abs(r.total),
      total_tax: taxTotal(store, r.taxes),
      taxes: { total: r.taxes, subtotal: {} },
      refunded_item_id: line.id,
    };
  };
  for (const l of o.shipping_lines) {
    const base = {
      name: l.method_title,
      method_id: l.method_id,
      instance_id: l.instance_id,
      tax_class: '',
      tax_status: 'taxable',
    };
    const line = other(l, base);
    if (line) out.shipping_lines.push(line);
  }
  for (const f of o.fee_lines) {
    const line = other(f, {
      name: f.name,
      method_id: '',
      instance_id: '',
      tax_class: f.tax_class,
      tax_status: f.tax_status,
    });
    if (line) out.fee_lines.push(line);
  }
  return out;
}

/**
 * wc_create_refund() from a validated body: the amount (given, or the sum of the line totals) must be positive
 * and within what is left; `api_refund` (default true) asks the gateway, and no emulated gateway can refund.
 * A refund restocks its quantities and moves a fully refunded order to `refunded`.
 */
export function createRefund(store: Store, o: OrderRec, p: Record<string, unknown>): RefundRec {
  const request = readRequest((p.line_items as unknown[] | undefined) ?? []);
  const lines = refundLines(store, o, request.byItem);
  // An amount given (even '') is used as it is; otherwise the lines' sum, or nothing (0) when that is not numeric.
  const amount = p.amount !== undefined ? toNumber(p.amount) : (request.amount ?? 0);
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
  if (amount < 0 || amount > remaining) throw cannotCreate('Invalid refund amount.');
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
    // wc_create_refund() records get_current_user_id() (the API key's user), not a `refunded_by` sent.
    refunded_by: ADMIN_USER_ID,
    refunded_payment: false,
    meta_data: applyMeta(store, [], p.meta_data),
    line_items: lines.line_items,
    shipping_lines: lines.shipping_lines,
    fee_lines: lines.fee_lines,
    tax_lines: refundTaxLines(store, lines),
  };
  store.state.refunds.set(id, r);
  o.refund_ids.unshift(id);
  // wc_create_refund() always restocks the refunded quantities (restock_items => true in the REST controller).
  if (p.api_restock !== false && o.stock_reduced) {
    adjustStock(
      store,
      lines.line_items.map((l) => ({
        product_id: l.product_id,
        variation_id: l.variation_id,
        quantity: -l.quantity,
      })),
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

/**
 * WC_Order_Refund::update_taxes(): a tax line per rate the refunded lines name, items' and fees' taxes in
 * `tax_total` and shipping's in `shipping_tax_total`, each line's tax rounded before it is added.
 */
function refundTaxLines(
  store: Store,
  lines: Pick<RefundRec, 'line_items' | 'shipping_lines' | 'fee_lines'>,
): TaxLine[] {
  const atSubtotal = getOption(store, 'woocommerce_tax_round_at_subtotal') === 'yes';
  const round = (t: number) => (atSubtotal ? t : roundTaxTotal(store, t));
  const cart = new Map<number, number>();
  const shipping = new Map<number, number>();
  const add = (into: Map<number, number>, taxes: Record<string, number>) => {
    for (const [id, tax] of Object.entries(taxes))
      into.set(Number(id), (into.get(Number(id)) ?? 0) + round(tax));
  };
  for (const l of [...lines.line_items, ...lines.fee_lines]) add(cart, l.taxes.total);
  for (const l of lines.shipping_lines) add(shipping, l.taxes.total);
  return [...new Set([...cart.keys(), ...shipping.keys()])].map((rateId) => ({
    id: nextId(store.state, 'item'),
    rate_id: rateId,
    ...rateFields(store, rateId),
    tax_total: cart.get(rateId) ?? 0,
    shipping_tax_total: shipping.get(rateId) ?? 0,
    meta_data: [],
  }));
}

export function deleteRefund(store: Store, o: OrderRec, r: RefundRec): void {
  store.state.refunds.delete(r.id);
  o.refund_ids = o.refund_ids.filter((x) => x !== r.id);
  store.changed('refunds', r.id);
  store.changed('orders', o.id);
}
