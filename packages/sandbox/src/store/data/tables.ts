import { DataFileError } from '../../kit/persistence.js';
import { isPlainObject } from '../runtime/values.js';
import type { NoteRec, OrderRec, RefundRec } from './order-rows.js';
import type {
  AttributeRec,
  CouponRec,
  CustomerRec,
  OptionRec,
  ProductRec,
  ReviewRec,
  TaxClassRec,
  TaxRateRec,
  TermRec,
  VariationRec,
  WebhookRec,
  ZoneRec,
} from './rows.js';

export interface Sequences {
  post: number;
  user: number;
  term: number;
  comment: number;
  webhook: number;
  meta: number;
  item: number;
  /** wp_options.option_id */
  option: number;
  /** woocommerce_attribute_taxonomies.attribute_id */
  attribute: number;
  /** woocommerce_tax_rates.tax_rate_id */
  tax_rate: number;
  /** wc_tax_rate_classes.tax_rate_class_id */
  tax_class: number;
  /** woocommerce_shipping_zones.zone_id */
  zone: number;
  /** woocommerce_shipping_zone_methods.instance_id */
  zone_method: number;
}

export interface StoreState {
  seq: Sequences;
  products: Map<number, ProductRec>;
  variations: Map<number, VariationRec>;
  orders: Map<number, OrderRec>;
  refunds: Map<number, RefundRec>;
  notes: Map<number, NoteRec>;
  customers: Map<number, CustomerRec>;
  terms: Map<number, TermRec>;
  webhooks: Map<number, WebhookRec>;
  coupons: Map<number, CouponRec>;
  tax_rates: Map<number, TaxRateRec>;
  tax_classes: Map<number, TaxClassRec>;
  options: Map<number, OptionRec>;
  attributes: Map<number, AttributeRec>;
  reviews: Map<number, ReviewRec>;
  zones: Map<number, ZoneRec>;
}

/** The state's record collections, as the data file and the journal name them. */
export const COLLECTIONS = [
  'products',
  'variations',
  'orders',
  'refunds',
  'notes',
  'customers',
  'terms',
  'webhooks',
  'coupons',
  'tax_rates',
  'tax_classes',
  'options',
  'attributes',
  'reviews',
  'zones',
] as const;

export type Collection = (typeof COLLECTIONS)[number];

/** The WordPress install's own rows: user 1 is the admin the API keys belong to; term 15 is "Uncategorized". */
export const ADMIN_USER_ID = 1;

export const UNCATEGORIZED_ID = 15;

/** What WC_Install::create_options() leaves in wc_tax_rate_classes on a new install (rows 1 and 2). */
export const DEFAULT_TAX_CLASSES: readonly TaxClassRec[] = [
  { id: 1, slug: 'reduced-rate', name: 'Reduced rate' },
  { id: 2, slug: 'zero-rate', name: 'Zero rate' },
];

export function createEmptyState(now = Date.now()): StoreState {
  const state: StoreState = {
    seq: {
      post: 10,
      user: 1,
      term: 15,
      comment: 0,
      webhook: 0,
      meta: 0,
      item: 0,
      option: 0,
      attribute: 0,
      tax_rate: 0,
      tax_class: DEFAULT_TAX_CLASSES.length,
      zone: 0,
      zone_method: 0,
    },
    products: new Map(),
    variations: new Map(),
    orders: new Map(),
    refunds: new Map(),
    notes: new Map(),
    customers: new Map(),
    terms: new Map(),
    webhooks: new Map(),
    coupons: new Map(),
    tax_rates: new Map(),
    tax_classes: new Map(DEFAULT_TAX_CLASSES.map((c) => [c.id, { ...c }])),
    options: new Map(),
    attributes: new Map(),
    reviews: new Map(),
    zones: new Map(),
  };
  void now;
  state.terms.set(UNCATEGORIZED_ID, {
    id: UNCATEGORIZED_ID,
    taxonomy: 'product_cat',
    name: 'Uncategorized',
    slug: 'uncategorized',
    parent: 0,
    description: '',
    display: 'default',
    image: null,
    menu_order: 0,
  });
  return state;
}

export function nextId(state: StoreState, kind: keyof Sequences): number {
  state.seq[kind] += 1;
  return state.seq[kind];
}

const NO_TAX = { total_tax: 0, taxes: { total: {}, subtotal: {} } };

/** Sets the fields `rec` lacks (a record from an older data file) to their defaults. */
function fillMissing(rec: object, defaults: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(defaults)) {
    if (!(key in rec)) (rec as Record<string, unknown>)[key] = structuredClone(value);
  }
}

/** Orders written before taxes and coupons were emulated get them empty, as they were. */
function upgradeOrder(o: OrderRec): void {
  fillMissing(o, {
    coupon_lines: [],
    tax_lines: [],
    coupon_usage_recorded: false,
    discount_tax: 0,
    shipping_tax: 0,
    cart_tax: 0,
    total_tax: 0,
  });
  // A hand-written data file may leave out whole lists; what is there is filled in.
  for (const line of Array.isArray(o.line_items) ? o.line_items : [])
    fillMissing(line, { ...NO_TAX, subtotal_tax: 0 });
  for (const list of [o.shipping_lines, o.fee_lines]) {
    for (const line of Array.isArray(list) ? list : []) fillMissing(line, NO_TAX);
  }
}

interface SerializedState {
  format: 'x-sandbox-store';
  version: 1;
  seq: Sequences;
  /** The last journal entry this snapshot includes (see kit/persistence.ts); absent in older files. */
  journal?: number;
  [collection: string]: unknown;
}

export function serializeState(state: StoreState, journal = 0): string {
  const out: SerializedState = { format: 'x-sandbox-store', version: 1, seq: state.seq, journal };
  for (const name of COLLECTIONS) out[name] = [...state[name].values()];
  return JSON.stringify(out);
}

/** Which sequence hands out the ids of each collection (products, variations, orders and refunds are posts). */
const SEQUENCE_OF: Record<(typeof COLLECTIONS)[number], keyof Sequences> = {
  products: 'post',
  variations: 'post',
  orders: 'post',
  refunds: 'post',
  notes: 'comment',
  customers: 'user',
  terms: 'term',
  webhooks: 'webhook',
  coupons: 'post',
  tax_rates: 'tax_rate',
  tax_classes: 'tax_class',
  options: 'option',
  attributes: 'attribute',
  reviews: 'comment',
  zones: 'zone',
};

/** Highest id found under `key` arrays anywhere in `value` (order items, meta rows), for raiseSequences(). */
function maxNestedId(value: unknown, keys: readonly string[], max = 0): number {
  if (Array.isArray(value)) {
    for (const v of value) max = maxNestedId(v, keys, max);
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (keys.includes(k) && Array.isArray(v)) {
        for (const row of v)
          if (isPlainObject(row) && Number.isSafeInteger(row.id)) max = Math.max(max, row.id as number);
      }
      if (typeof v === 'object' && v !== null) max = maxNestedId(v, keys, max);
    }
  }
  return max;
}

/**
 * No sequence behind an id already in use, as MySQL moves AUTO_INCREMENT past the highest key: a data file
 * edited by hand (or written by an older sandbox that lost writes) can never make the next id collide.
 */
export function raiseSequences(state: StoreState): void {
  for (const name of COLLECTIONS) {
    const seq = SEQUENCE_OF[name];
    for (const id of state[name].keys()) state.seq[seq] = Math.max(state.seq[seq], id);
  }
  const all = COLLECTIONS.map((name) => [...state[name].values()]);
  state.seq.item = Math.max(
    state.seq.item,
    maxNestedId(all, ['line_items', 'shipping_lines', 'fee_lines', 'coupon_lines', 'tax_lines']),
  );
  state.seq.zone_method = Math.max(
    state.seq.zone_method,
    maxNestedId([...state.zones.values()], ['methods']),
  );
  state.seq.meta = Math.max(state.seq.meta, maxNestedId(all, ['meta_data']));
}

/** The state a data file holds and the last journal entry it includes; anything malformed names `file`. */
export function deserializeState(text: string, file: string): { state: StoreState; journal: number } {
  const fail = (detail: string): never => {
    throw new DataFileError(file, detail);
  };
  if (text.trim() === '') fail('the file is empty');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    fail(`not valid JSON (${(err as Error).message})`);
  }
  if (!isPlainObject(raw) || raw.format !== 'x-sandbox-store' || raw.version !== 1) {
    fail('not an x-sandbox store data file (expected "format": "x-sandbox-store", "version": 1)');
  }
  const data = raw as Record<string, unknown>;
  const state = createEmptyState();
  if (data.seq !== undefined && !isPlainObject(data.seq)) fail('"seq" is not an object');
  const seq = (data.seq ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(state.seq) as (keyof Sequences)[]) {
    if (seq[key] === undefined) continue;
    if (!Number.isSafeInteger(seq[key]) || (seq[key] as number) < 0) fail(`"seq.${key}" is not a count`);
    state.seq[key] = seq[key] as number;
  }
  const journal = data.journal ?? 0;
  if (!Number.isSafeInteger(journal) || (journal as number) < 0) fail('"journal" is not a count');
  for (const name of COLLECTIONS) {
    const list = data[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(`"${name}" is not a list`);
    const map = new Map<number, never>();
    (list as unknown[]).forEach((rec, i) => {
      if (!isPlainObject(rec) || !Number.isSafeInteger(rec.id) || (rec.id as number) <= 0) {
        fail(`${name}[${i}] is not a record with a numeric id (${JSON.stringify(rec)?.slice(0, 60)})`);
      }
      const id = (rec as { id: number }).id;
      if (map.has(id)) fail(`${name}[${i}] repeats id ${id}`);
      map.set(id, rec as never);
    });
    (state as unknown as Record<string, Map<number, unknown>>)[name] = map;
  }
  for (const o of state.orders.values()) upgradeOrder(o);
  for (const r of state.refunds.values()) {
    fillMissing(r, { tax_lines: [], shipping_lines: [], fee_lines: [] });
    for (const li of Array.isArray(r.line_items) ? r.line_items : [])
      fillMissing(li, { ...NO_TAX, subtotal_tax: 0, tax_class: '' });
  }
  raiseSequences(state);
  return { state, journal: journal as number };
}
