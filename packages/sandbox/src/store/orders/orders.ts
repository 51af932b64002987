import { adjustStock } from '../catalog/stock.js';
import { applyAddress, blankAddress } from '../customers/addresses.js';
import { WriteJournal } from '../data/journal.js';
import { applyMeta } from '../data/meta.js';
import { getOption, storeCurrency } from '../data/options.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { WC_VERSION } from '../data/store.js';
import { ADMIN_USER_ID, nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { calculateCoupons, updateCouponUsageCounts } from './coupons.js';
import { applyLineItems, applyLines, FEE_LINE, SHIPPING_LINE } from './lines.js';
import { needsProcessing, statusSideEffects } from './status.js';
import { calculateTotals } from './totals.js';

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'checkout-draft',
] as const;

export function blankOrder(store: Store, id: number, now: number): OrderRec & { sales_recorded?: boolean } {
  return {
    id,
    parent_id: 0,
    status: 'pending',
    currency: storeCurrency(store),
    version: WC_VERSION,
    prices_include_tax: false,
    created: now,
    modified: now,
    customer_id: 0,
    order_key: store.newOrderKey(),
    billing: blankAddress(true),
    shipping: blankAddress(false),
    payment_method: '',
    payment_method_title: '',
    transaction_id: '',
    customer_ip_address: '',
    customer_user_agent: '',
    created_via: 'rest-api',
    customer_note: '',
    date_completed: null,
    date_paid: null,
    cart_hash: '',
    meta_data: [],
    line_items: [],
    shipping_lines: [],
    fee_lines: [],
    coupon_lines: [],
    tax_lines: [],
    refund_ids: [],
    stock_reduced: false,
    coupon_usage_recorded: false,
    discount_total: 0,
    discount_tax: 0,
    shipping_total: 0,
    shipping_tax: 0,
    cart_tax: 0,
    total_tax: 0,
    total: 0,
  };
}

/** The transitions wc_update_coupon_usage_counts() is hooked to. */
const COUPON_COUNT_ON = new Set(['pending', 'processing', 'on-hold', 'completed', 'cancelled']);

/**
 * WC_REST_Orders_V2_Controller::save_object() with a validated body: props, lines, totals, status, then
 * `set_paid` → payment_complete().
 * Records other than `o` (and `seq`) that it changes are handed to `journal` first, so a failed write can be undone.
 * `fromCart`: the Store API writing the order from a cart, whose coupon lines count nothing until a status does
 * (orders/coupons.ts calculateCoupons()).
 */
export function writeOrder(
  store: Store,
  o: OrderRec,
  p: Record<string, unknown>,
  creating: boolean,
  journal?: WriteJournal,
  fromCart = false,
): void {
  if (typeof p.customer_id === 'number' && p.customer_id !== 0) {
    if (p.customer_id !== ADMIN_USER_ID && !store.state.customers.has(p.customer_id)) {
      throw new RestError(400, 'woocommerce_rest_invalid_customer_id', 'Customer ID is invalid.');
    }
  }
  const from = creating ? 'pending' : o.status;
  for (const k of [
    'currency',
    'customer_note',
    'payment_method',
    'payment_method_title',
    'transaction_id',
  ] as const) {
    if (typeof p[k] === 'string') o[k] = p[k] as string;
  }
  if (typeof p.parent_id === 'number') o.parent_id = p.parent_id;
  if (typeof p.customer_id === 'number') o.customer_id = p.customer_id;
  applyAddress(o.billing, p.billing);
  applyAddress(o.shipping, p.shipping);
  if (p.meta_data !== undefined) o.meta_data = applyMeta(store, o.meta_data, p.meta_data);
  if (Array.isArray(p.line_items)) applyLineItems(store, o, p.line_items as Record<string, unknown>[]);
  if (Array.isArray(p.shipping_lines)) {
    o.shipping_lines = applyLines(
      store,
      o.shipping_lines,
      p.shipping_lines as Record<string, unknown>[],
      SHIPPING_LINE,
    );
  }
  if (Array.isArray(p.fee_lines)) {
    o.fee_lines = applyLines(store, o.fee_lines, p.fee_lines as Record<string, unknown>[], FEE_LINE);
  }
  // save_object(): a new order takes the store's prices-include-tax setting and is totalled; an update is
  // totalled again when its addresses or lines were sent. Coupons come after, then the status.
  if (creating) o.prices_include_tax = getOption(store, 'woocommerce_prices_include_tax') === 'yes';
  const touched = ['billing', 'shipping', 'line_items', 'shipping_lines', 'fee_lines', 'coupon_lines'];
  if (creating || touched.some((k) => p[k] !== undefined)) calculateTotals(store, o);
  if (Array.isArray(p.coupon_lines)) calculateCoupons(store, o, p.coupon_lines, journal, !fromCart);
  o.modified = store.now();
  if (typeof p.status === 'string') {
    o.status = p.status;
    o.pre_trash_status = undefined;
  }
  statusSideEffects(store, o, from, o.status, journal);
  if (from !== o.status && COUPON_COUNT_ON.has(o.status)) updateCouponUsageCounts(store, o, journal);
  if (
    p.set_paid === true &&
    (creating || ((o.status === 'pending' || o.status === 'failed') && o.total > 0))
  ) {
    if (['on-hold', 'pending', 'failed', 'cancelled'].includes(o.status)) {
      const before = o.status;
      if (o.date_paid === null) o.date_paid = store.now();
      o.status = needsProcessing(store, o) ? 'processing' : 'completed';
      statusSideEffects(store, o, before, o.status, journal);
      updateCouponUsageCounts(store, o, journal);
      if (!o.stock_reduced) {
        adjustStock(store, o.line_items, -1, journal);
        o.stock_reduced = true;
      }
    }
  }
}

/**
 * Inserts an order; a write that fails half-way is undone (stock, sales, id sequences), so it leaves no trace.
 * `createdVia` is the order's `created_via`: `rest-api`, or `store-api` for a Store API checkout.
 */
export function createOrder(store: Store, p: Record<string, unknown>, createdVia = 'rest-api'): OrderRec {
  const journal = new WriteJournal(store.state);
  const id = store.state.seq.post + 1;
  const o = blankOrder(store, id, store.now());
  o.created_via = createdVia;
  try {
    nextId(store.state, 'post');
    // A Store API order is made from the cart (OrderController::create_order_from_cart()).
    writeOrder(store, o, p, true, journal, createdVia === 'store-api');
  } catch (err) {
    journal.rollback();
    throw err;
  }
  store.state.orders.set(id, o);
  store.changed('orders', id);
  store.emit('order', 'created', id);
  return o;
}

/** Updates an order in place; a write that fails half-way is undone, the order included. */
export function updateOrder(store: Store, o: OrderRec, p: Record<string, unknown>): void {
  const journal = new WriteJournal(store.state);
  journal.touch(o);
  const wasTrash = o.status === 'trash';
  try {
    writeOrder(store, o, p, false, journal);
  } catch (err) {
    journal.rollback();
    throw err;
  }
  store.changed('orders', o.id);
  if (wasTrash && o.status !== 'trash') store.emit('order', 'restored', o.id);
  store.emit('order', 'updated', o.id);
}

/** `force` deletes the order with its refunds and notes; otherwise it goes to the trash (once). */
export function deleteOrder(store: Store, o: OrderRec, force: boolean): void {
  if (force) {
    for (const rid of o.refund_ids) store.state.refunds.delete(rid);
    store.changed('refunds', ...o.refund_ids);
    for (const n of [...store.state.notes.values()]) {
      if (n.order_id !== o.id) continue;
      store.state.notes.delete(n.id);
      store.changed('notes', n.id);
    }
    store.state.orders.delete(o.id);
  } else {
    if (o.status === 'trash') {
      throw new RestError(
        410,
        'woocommerce_rest_already_trashed',
        'The shop_order has already been deleted.',
      );
    }
    o.pre_trash_status = o.status;
    o.status = 'trash';
    o.modified = store.now();
  }
  store.changed('orders', o.id);
  store.emit('order', 'deleted', o.id);
}
