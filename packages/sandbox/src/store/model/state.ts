import type { Sequences, StoreState } from './records.js';

const COLLECTIONS = [
  'products',
  'variations',
  'orders',
  'refunds',
  'notes',
  'customers',
  'terms',
  'webhooks',
] as const;

/** The WordPress install's own rows: user 1 is the admin the API keys belong to; term 15 is "Uncategorized". */
export const ADMIN_USER_ID = 1;

export const UNCATEGORIZED_ID = 15;

export function createEmptyState(now = Date.now()): StoreState {
  const state: StoreState = {
    seq: { post: 10, user: 1, term: 15, comment: 0, webhook: 0, meta: 0, item: 0 },
    products: new Map(),
    variations: new Map(),
    orders: new Map(),
    refunds: new Map(),
    notes: new Map(),
    customers: new Map(),
    terms: new Map(),
    webhooks: new Map(),
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

interface SerializedState {
  format: 'x-sandbox-store';
  version: 1;
  seq: Sequences;
  [collection: string]: unknown;
}

export function serializeState(state: StoreState): string {
  const out: SerializedState = { format: 'x-sandbox-store', version: 1, seq: state.seq };
  for (const name of COLLECTIONS) out[name] = [...state[name].values()];
  return JSON.stringify(out);
}

export function deserializeState(text: string): StoreState {
  const raw = JSON.parse(text) as SerializedState;
  if (raw?.format !== 'x-sandbox-store' || raw.version !== 1) {
    throw new Error('Not an x-sandbox store data file (format/version mismatch).');
  }
  const state = createEmptyState();
  state.seq = { ...state.seq, ...raw.seq };
  for (const name of COLLECTIONS) {
    const list = raw[name];
    const map = new Map<number, never>();
    if (Array.isArray(list)) for (const rec of list) map.set((rec as { id: number }).id, rec as never);
    (state as unknown as Record<string, Map<number, unknown>>)[name] = map;
  }
  return state;
}
