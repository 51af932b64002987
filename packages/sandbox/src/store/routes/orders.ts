import { CURRENCY, CURRENCY_SYMBOL, WC_VERSION } from '../model/constants.js';
import {
  ADMIN_USER_ID,
  type Address,
  type FeeLine,
  type LineItem,
  type Meta,
  nextId,
  type OrderRec,
  type ProductRec,
  type Sequences,
  type ShippingLine,
  type StoreState,
  type VariationRec,
} from '../model/state.js';
import type { Store } from '../model/store.js';
import { isPlainObject, money, toNumber, wcDate } from '../model/util.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { CONTEXT, collectionSpecs, META_DATA, type Spec, type Specs, validateParams } from '../wp/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../wp/router.js';
import { activePrice, applyMeta, syncStockStatus, variationName } from './products.js';

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

const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
] as const;

function addressSpec(withEmail: boolean): Spec {
  const props: Record<string, Spec> = {};
  for (const f of ADDRESS_FIELDS) props[f] = { type: 'string' };
  props.phone = { type: 'string' };
  if (withEmail) props.email = { type: 'string', format: 'email', nullable: true };
  return { type: 'object', props };
}

export function blankAddress(withEmail: boolean): Address {
  const a: Address = {
    first_name: '',
    last_name: '',
    company: '',
    address_1: '',
    address_2: '',
    city: '',
    state: '',
    postcode: '',
    country: '',
    phone: '',
  };
  if (withEmail) return { ...a, email: '' };
  return a;
}

export function applyAddress(target: Address, incoming: unknown): void {
  if (!isPlainObject(incoming)) return;
  for (const f of [...ADDRESS_FIELDS, 'phone', 'email'] as const) {
    if (f === 'email' && !('email' in target)) continue;
    const v = incoming[f];
    if (typeof v === 'string') target[f] = v;
    else if (v === null && f === 'email') target[f] = '';
  }
}

export const BILLING_SPEC = addressSpec(true);
export const SHIPPING_SPEC = addressSpec(false);

const ORDER_SPECS: Specs = {
  parent_id: { type: 'integer' },
  status: { type: 'string', enum: ORDER_STATUSES },
  currency: { type: 'string' },
  customer_id: { type: 'integer' },
  customer_note: { type: 'string' },
  billing: BILLING_SPEC,
  shipping: SHIPPING_SPEC,
  payment_method: { type: 'string' },
  payment_method_title: { type: 'string' },
  transaction_id: { type: 'string' },
  meta_data: META_DATA,
  line_items: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string', nullable: true },
        product_id: { type: 'integer', nullable: true },
        variation_id: { type: 'integer', nullable: true },
        quantity: { type: 'integer', nullable: true },
        tax_class: { type: 'string', nullable: true },
        subtotal: { type: 'string', nullable: true },
        total: { type: 'string', nullable: true },
        sku: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  shipping_lines: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        method_title: { type: 'string', nullable: true },
        method_id: { type: 'string', nullable: true },
        instance_id: { type: 'string', nullable: true },
        total: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  fee_lines: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string', nullable: true },
        tax_class: { type: 'string', nullable: true },
        tax_status: { type: 'string', enum: ['taxable', 'none'] },
        total: { type: 'string', nullable: true },
        meta_data: META_DATA,
      },
    },
  },
  coupon_lines: {
    type: 'array',
    items: { type: 'object', props: { id: { type: 'integer' }, code: { type: 'string', nullable: true } } },
  },
  set_paid: { type: 'boolean' },
};

const LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified']),
  status: { type: 'array', items: { type: 'string', enum: ['any', 'trash', ...ORDER_STATUSES] } },
  customer: { type: 'integer' },
  product: { type: 'integer' },
  dp: { type: 'integer' },
  created_via: { type: 'array', items: { type: 'string' } },
};

const DP_SPECS: Specs = { context: CONTEXT, dp: { type: 'integer' } };

// ---- rollback of a failed write ------------------------------------------------------------------------------

/**
 * Undo journal for one order write. Why a journal and not "validate first" or an up-front snapshot: the set of
 * records a write touches (stock holders, sales counters, the paying customer) is only known once the line items
 * are resolved (by id, variation or SKU), so the code that mutates a record first hands it to `touch()`, which
 * keeps a deep copy of it. Everything `writeOrder()` and its callees can change is covered:
 * - the order itself (fields, addresses, lines, meta): `touch(o)` before the write (a new order is only
 *   inserted into `orders` after a successful write, so it needs nothing);
 * - id sequences (`post`, `item`, `meta` through nextId()): `seq` is copied whole (seven numbers);
 * - stock (`stock_quantity`, `stock_status`, `modified`) of products/variations: adjustStock() touches the holder;
 * - `total_sales` of products/variations: recordSales() touches both;
 * - `is_paying_customer`: statusSideEffects() touches the customer.
 * No write inserts into or deletes from a collection map. Webhooks already queued by emit() are not recalled
 * (nor were they when the whole state was cloned). Rollback restores each record in place, key order included.
 */
export class WriteJournal {
  private readonly seq: Sequences;
  private readonly saved = new Map<object, object>();

  constructor(private readonly state: StoreState) {
    this.seq = { ...state.seq };
  }

  /** Call before mutating a record that is already in the state. */
  touch(rec: object): void {
    if (!this.saved.has(rec)) this.saved.set(rec, structuredClone(rec));
  }

  rollback(): void {
    Object.assign(this.state.seq, this.seq);
    for (const [rec, copy] of this.saved) {
      for (const k of Object.keys(rec)) delete (rec as Record<string, unknown>)[k];
      Object.assign(rec, copy);
    }
    this.saved.clear();
  }
}

// ---- totals, stock, status side effects ---------------------------------------------------------------------

function recalcTotals(o: OrderRec): void {
  o.shipping_total = o.shipping_lines.reduce((s, l) => s + l.total, 0);
  const fees = o.fee_lines.reduce((s, l) => s + l.total, 0);
  const items = o.line_items.reduce((s, l) => s + l.total, 0);
  o.discount_total = o.line_items.reduce((s, l) => s + (l.subtotal - l.total), 0);
  o.total = Math.round((items + o.shipping_total + fees) * 100) / 100;
}

/** The product whose stock an item moves: the variation when it manages stock, else a stock-managing parent. */
function stockHolder(
  store: Store,
  item: { product_id: number; variation_id: number },
): ProductRec | VariationRec | null {
  if (item.variation_id) {
    const v = store.state.variations.get(item.variation_id);
    if (v?.manage_stock === true) return v;
    const parent = store.state.products.get(v?.parent_id ?? item.product_id);
    return parent?.manage_stock ? parent : null;
  }
  const p = store.state.products.get(item.product_id);
  return p?.manage_stock ? p : null;
}

export function adjustStock(
  store: Store,
  items: { product_id: number; variation_id: number; quantity: number }[],
  sign: 1 | -1,
  journal?: WriteJournal,
): void {
  const now = store.now();
  for (const item of items) {
    const holder = stockHolder(store, item);
    if (!holder) continue;
    journal?.touch(holder);
    holder.stock_quantity = (holder.stock_quantity ?? 0) + sign * item.quantity;
    syncStockStatus(holder);
    holder.modified = now;
    if ('type' in holder) store.emit('product', 'updated', holder.id);
  }
}

function needsProcessing(store: Store, o: OrderRec): boolean {
  return o.line_items.some((li) => {
    const p = store.state.variations.get(li.variation_id) ?? store.state.products.get(li.product_id);
    return !p || !(p.virtual && p.downloadable);
  });
}

function recordSales(store: Store, o: OrderRec, sign: 1 | -1, journal?: WriteJournal): void {
  for (const li of o.line_items) {
    const p = store.state.products.get(li.product_id);
    if (p) {
      journal?.touch(p);
      p.total_sales = Math.max(0, p.total_sales + sign * li.quantity);
    }
    const v = store.state.variations.get(li.variation_id);
    if (v) {
      journal?.touch(v);
      v.total_sales = Math.max(0, v.total_sales + sign * li.quantity);
    }
  }
}

const REDUCE_ON = new Set(['processing', 'completed', 'on-hold']);

/** The hooks WooCommerce runs on `woocommerce_order_status_{to}` (wc-stock-functions.php, wc-order-functions.php). */
export function statusSideEffects(
  store: Store,
  o: OrderRec & { sales_recorded?: boolean },
  from: string,
  to: string,
  journal?: WriteJournal,
): void {
  if (from === to) return;
  const now = store.now();
  if ((to === 'processing' || to === 'completed') && o.date_paid === null) o.date_paid = now;
  if (to === 'completed') {
    o.date_completed = now;
    const c = store.state.customers.get(o.customer_id);
    if (c) {
      journal?.touch(c);
      c.is_paying_customer = true;
    }
  }
  if (REDUCE_ON.has(to)) {
    if (!o.stock_reduced) {
      adjustStock(store, o.line_items, -1, journal);
      o.stock_reduced = true;
    }
    if (!o.sales_recorded) {
      recordSales(store, o, 1, journal);
      o.sales_recorded = true;
    }
  }
  if ((to === 'cancelled' || to === 'pending') && o.stock_reduced) {
    adjustStock(store, o.line_items, 1, journal);
    o.stock_reduced = false;
  }
  if (to === 'cancelled' && o.sales_recorded) {
    recordSales(store, o, -1, journal);
    o.sales_recorded = false;
  }
}

// ---- presentation -------------------------------------------------------------------------------------------

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
        sku: li.sku,
        price: li.quantity ? li.total / li.quantity : 0,
        image: { id: image?.id ?? '', src: image?.src ?? '' },
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

// ---- writes -------------------------------------------------------------------------------------------------

function isNullOrZeroItem(item: Record<string, unknown>): boolean {
  return Object.entries(item).every(([k, v]) => k === 'id' || v === null || v === 0);
}

function resolveProduct(
  store: Store,
  item: Record<string, unknown>,
): { product: ProductRec | undefined; variation: VariationRec | undefined } {
  const vid = typeof item.variation_id === 'number' ? item.variation_id : 0;
  const pid = typeof item.product_id === 'number' ? item.product_id : 0;
  if (vid) {
    const variation = store.state.variations.get(vid);
    return { product: store.state.products.get(variation?.parent_id ?? pid), variation };
  }
  if (pid) {
    const asVariation = store.state.variations.get(pid);
    if (asVariation)
      return { product: store.state.products.get(asVariation.parent_id), variation: asVariation };
    return { product: store.state.products.get(pid), variation: undefined };
  }
  if (typeof item.sku === 'string' && item.sku !== '') {
    for (const v of store.state.variations.values()) {
      if (v.sku === item.sku) return { product: store.state.products.get(v.parent_id), variation: v };
    }
    for (const p of store.state.products.values())
      if (p.sku === item.sku) return { product: p, variation: undefined };
  }
  return { product: undefined, variation: undefined };
}

/** The order line an item's `id` names (`undefined` for a new line); an ID that is not one of `lines` is a 400. */
function findLine<T extends { id: number }>(lines: T[], item: Record<string, unknown>): T | undefined {
  const id = typeof item.id === 'number' ? item.id : 0;
  const line = id ? lines.find((x) => x.id === id) : undefined;
  if (id && !line) {
    throw new RestError(
      400,
      'woocommerce_rest_invalid_item_id',
      'Order item ID provided is not associated with order.',
    );
  }
  return line;
}

function applyLineItems(store: Store, o: OrderRec, items: Record<string, unknown>[]): void {
  for (const item of items) {
    let existing = findLine(o.line_items, item);
    if (existing && isNullOrZeroItem(item)) {
      const id = existing.id;
      o.line_items = o.line_items.filter((li) => li.id !== id);
      continue;
    }
    const refersToProduct =
      (typeof item.product_id === 'number' && item.product_id !== 0) ||
      (typeof item.variation_id === 'number' && item.variation_id !== 0) ||
      (typeof item.sku === 'string' && item.sku !== '');
    if (!existing && !refersToProduct) {
      throw new RestError(
        400,
        'woocommerce_rest_required_product_reference',
        'Product ID or SKU is required.',
      );
    }
    const quantity = typeof item.quantity === 'number' ? item.quantity : (existing?.quantity ?? 1);
    let recompute = !existing || existing.quantity !== quantity;
    if (refersToProduct) {
      const { product, variation } = resolveProduct(store, item);
      if (!product || (typeof item.variation_id === 'number' && item.variation_id !== 0 && !variation)) {
        throw new RestError(400, 'woocommerce_rest_invalid_product_id', 'Product ID provided is invalid.');
      }
      const sellable = variation ?? product;
      const changed =
        !existing || existing.product_id !== product.id || existing.variation_id !== (variation?.id ?? 0);
      if (changed) {
        recompute = true;
        const base: LineItem = existing ?? {
          id: nextId(store.state, 'item'),
          name: '',
          product_id: 0,
          variation_id: 0,
          quantity,
          tax_class: '',
          subtotal: 0,
          total: 0,
          sku: '',
          meta_data: [],
        };
        base.product_id = product.id;
        base.variation_id = variation?.id ?? 0;
        base.name = variation ? variationName(store, variation) : product.name;
        base.sku = sellable.sku;
        base.tax_class = sellable.tax_class;
        if (!existing) {
          o.line_items.push(base);
          existing = base;
        }
      }
    }
    const li = existing!;
    li.quantity = quantity;
    if (recompute) {
      const sellable = store.state.variations.get(li.variation_id) ?? store.state.products.get(li.product_id);
      const unit = sellable ? toNumber(activePrice(sellable)) : li.quantity ? li.total / li.quantity : 0;
      li.subtotal = unit * quantity;
      li.total = unit * quantity;
    }
    if (typeof item.name === 'string') li.name = item.name;
    if (typeof item.tax_class === 'string') li.tax_class = item.tax_class;
    if (typeof item.subtotal === 'string') li.subtotal = toNumber(item.subtotal);
    if (typeof item.total === 'string') li.total = toNumber(item.total);
    if (item.meta_data !== undefined) li.meta_data = applyMeta(store, li.meta_data, item.meta_data);
  }
}

/** What tells shipping and fee lines apart: the field a new line must have, its blank record, the fields copied. */
interface LineKind<T extends { id: number; meta_data: Meta[] }> {
  required: string;
  code: string;
  message: string;
  blank: (id: number) => T;
  copy: (line: T, item: Record<string, unknown>) => void;
}

const SHIPPING_LINE: LineKind<ShippingLine> = {
  required: 'method_id',
  code: 'woocommerce_rest_invalid_shipping_item',
  message: 'Shipping method ID is required.',
  blank: (id) => ({ id, method_title: '', method_id: '', instance_id: '', total: 0, meta_data: [] }),
  copy: (line, l) => {
    if (typeof l.method_title === 'string') line.method_title = l.method_title;
    if (typeof l.method_id === 'string') line.method_id = l.method_id;
    if (typeof l.instance_id === 'string') line.instance_id = l.instance_id;
    if (typeof l.total === 'string') line.total = toNumber(l.total);
  },
};

const FEE_LINE: LineKind<FeeLine> = {
  required: 'name',
  code: 'woocommerce_rest_invalid_fee_item',
  message: 'Fee name is required.',
  blank: (id) => ({
    id,
    name: '',
    tax_class: '',
    tax_status: 'taxable',
    amount: '',
    total: 0,
    meta_data: [],
  }),
  copy: (line, l) => {
    if (typeof l.name === 'string') line.name = l.name;
    if (typeof l.tax_class === 'string') line.tax_class = l.tax_class;
    if (typeof l.tax_status === 'string') line.tax_status = l.tax_status;
    if (typeof l.total === 'string') {
      line.total = toNumber(l.total);
      line.amount = l.total;
    }
  },
};

/** Updates, removes (all fields null or 0) or adds shipping/fee lines; returns the order's new list of them. */
function applyLines<T extends { id: number; meta_data: Meta[] }>(
  store: Store,
  lines: T[],
  items: Record<string, unknown>[],
  kind: LineKind<T>,
): T[] {
  for (const l of items) {
    let line = findLine(lines, l);
    if (line && isNullOrZeroItem(l)) {
      const id = line.id;
      lines = lines.filter((x) => x.id !== id);
      continue;
    }
    if (!line) {
      const required = l[kind.required];
      if (typeof required !== 'string' || required === '') throw new RestError(400, kind.code, kind.message);
      line = kind.blank(nextId(store.state, 'item'));
      lines.push(line);
    }
    kind.copy(line, l);
    if (l.meta_data !== undefined) line.meta_data = applyMeta(store, line.meta_data, l.meta_data);
  }
  return lines;
}

export function blankOrder(store: Store, id: number, now: number): OrderRec & { sales_recorded?: boolean } {
  return {
    id,
    parent_id: 0,
    status: 'pending',
    currency: CURRENCY,
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
    refund_ids: [],
    stock_reduced: false,
    discount_total: 0,
    shipping_total: 0,
    total: 0,
  };
}

/**
 * WC_REST_Orders_V2_Controller::save_object(): props, lines, totals, status, then `set_paid` → payment_complete().
 * Records other than `o` (and `seq`) that it changes are handed to `journal` first, so a failed write can be undone.
 */
export function writeOrder(
  store: Store,
  o: OrderRec,
  body: Record<string, unknown>,
  creating: boolean,
  journal?: WriteJournal,
): void {
  const p = validateParams(body, ORDER_SPECS);
  if (typeof p.customer_id === 'number' && p.customer_id !== 0) {
    if (p.customer_id !== ADMIN_USER_ID && !store.state.customers.has(p.customer_id)) {
      throw new RestError(400, 'woocommerce_rest_invalid_customer_id', 'Customer ID is invalid.');
    }
  }
  if (Array.isArray(p.coupon_lines)) {
    for (const c of p.coupon_lines as Record<string, unknown>[]) {
      if (typeof c.id === 'number' && c.id && c.code === null) continue;
      const code = typeof c.code === 'string' ? c.code : '';
      throw new RestError(
        400,
        'woocommerce_rest_invalid_coupon',
        `Coupon "${code.toLowerCase()}" does not exist!`,
      );
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
  recalcTotals(o);
  o.modified = store.now();
  if (typeof p.status === 'string') {
    o.status = p.status;
    o.pre_trash_status = undefined;
  }
  statusSideEffects(store, o, from, o.status, journal);
  if (
    p.set_paid === true &&
    (creating || ((o.status === 'pending' || o.status === 'failed') && o.total > 0))
  ) {
    if (['on-hold', 'pending', 'failed', 'cancelled'].includes(o.status)) {
      const before = o.status;
      if (o.date_paid === null) o.date_paid = store.now();
      o.status = needsProcessing(store, o) ? 'processing' : 'completed';
      statusSideEffects(store, o, before, o.status, journal);
      if (!o.stock_reduced) {
        adjustStock(store, o.line_items, -1, journal);
        o.stock_reduced = true;
      }
    }
  }
}

// ---- handlers -----------------------------------------------------------------------------------------------

function dpOf(p: Record<string, unknown>): number | undefined {
  return typeof p.dp === 'number' ? Math.abs(p.dp) : undefined;
}

function listOrders(ctx: Ctx): Result {
  const p = validateParams(ctx.params, LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.orders.values()];
  const statuses = Array.isArray(p.status) && p.status.length > 0 ? (p.status as string[]) : ['any'];
  items = items.filter(
    (o) => (statuses.includes('any') && o.status !== 'trash') || statuses.includes(o.status),
  );
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.customer === 'number') items = items.filter((o) => o.customer_id === p.customer);
  if (typeof p.product === 'number') {
    const pid = p.product;
    items = items.filter((o) => o.line_items.some((li) => li.product_id === pid || li.variation_id === pid));
  }
  if (Array.isArray(p.parent) && p.parent.length > 0)
    items = items.filter((o) => (p.parent as number[]).includes(o.parent_id));
  if (Array.isArray(p.parent_exclude) && p.parent_exclude.length > 0) {
    items = items.filter((o) => !(p.parent_exclude as number[]).includes(o.parent_id));
  }
  if (Array.isArray(p.created_via) && p.created_via.length > 0) {
    items = items.filter((o) => (p.created_via as string[]).includes(o.created_via));
  }
  if (typeof p.search === 'string' && p.search !== '') {
    items = items.filter((o) =>
      searchMatch(
        p.search,
        String(o.id),
        ...Object.values(o.billing),
        ...Object.values(o.shipping),
        ...o.line_items.map((li) => li.name),
      ),
    );
  }
  const keys: Record<string, (o: OrderRec) => number> = {
    date: (o) => o.created,
    id: (o) => o.id,
    title: (o) => o.id,
    slug: (o) => o.id,
    modified: (o) => o.modified,
  };
  items = sortByParams(items, p, keys, { orderby: 'date', order: 'desc' });
  const dp = dpOf(p);
  return pagedResult(ctx, items, (o) => presentOrder(store, o, dp));
}

function createOrder(ctx: Ctx): Result {
  validateParams(ctx.params, ORDER_SPECS);
  requireCap(ctx, 'create');
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(400, 'woocommerce_rest_shop_order_exists', 'Cannot create existing shop_order.');
  }
  const store = ctx.store;
  const journal = new WriteJournal(store.state);
  const id = store.state.seq.post + 1;
  const o = blankOrder(store, id, store.now());
  try {
    nextId(store.state, 'post');
    writeOrder(store, o, ctx.params, true, journal);
  } catch (err) {
    journal.rollback();
    throw err;
  }
  store.state.orders.set(id, o);
  store.changed();
  store.emit('order', 'created', id);
  return { status: 201, body: presentOrder(store, o), headers: { Location: store.restUrl(`/orders/${id}`) } };
}

function getOrder(ctx: Ctx): Result {
  const p = validateParams(ctx.params, DP_SPECS);
  const o = ctx.store.state.orders.get(idParam(ctx));
  if (o) requireCap(ctx, 'view');
  if (!o) throw new RestError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
  return { status: 200, body: presentOrder(ctx.store, o, dpOf(p)) };
}

function updateOrder(ctx: Ctx): Result {
  validateParams(ctx.params, ORDER_SPECS);
  const store = ctx.store;
  const existing = store.state.orders.get(idParam(ctx));
  if (existing) requireCap(ctx, 'edit');
  if (!existing) throw new RestError(400, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
  const o = existing;
  const journal = new WriteJournal(store.state);
  journal.touch(o);
  const wasTrash = o.status === 'trash';
  try {
    writeOrder(store, o, ctx.params, false, journal);
  } catch (err) {
    journal.rollback();
    throw err;
  }
  store.changed();
  if (wasTrash && o.status !== 'trash') store.emit('order', 'restored', o.id);
  store.emit('order', 'updated', o.id);
  return { status: 200, body: presentOrder(store, o, dpOf(ctx.params)) };
}

function deleteOrder(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  const store = ctx.store;
  const o = store.state.orders.get(idParam(ctx));
  if (o) requireCap(ctx, 'delete');
  if (!o) throw new RestError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
  const body = presentOrder(store, o);
  if (p.force === true) {
    for (const rid of o.refund_ids) store.state.refunds.delete(rid);
    for (const n of [...store.state.notes.values()]) if (n.order_id === o.id) store.state.notes.delete(n.id);
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
  store.changed();
  store.emit('order', 'deleted', o.id);
  return { status: 200, body };
}

export function registerOrders(router: Router, store: Store): void {
  store.presenters.order = (id) => {
    const o = store.state.orders.get(id);
    return o ? presentOrder(store, o) : null;
  };
  registerCrud(router, '/wc/v3/orders', {
    list: listOrders,
    create: createOrder,
    get: getOrder,
    update: updateOrder,
    delete: deleteOrder,
  });
}
