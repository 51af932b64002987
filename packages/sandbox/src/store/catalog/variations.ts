import type { ProductRec, VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { isPlainObject } from '../runtime/values.js';
import { applySellable, blankSellable, makeImage } from './sellable.js';
import { syncStockStatus } from './stock.js';

export function blankVariation(id: number, parentId: number, now: number): VariationRec {
  return { ...blankSellable(id, now), parent_id: parentId, manage_stock: false, image: null, attributes: [] };
}

/** Applies a validated variation create/update body. */
export function writeVariation(store: Store, rec: VariationRec, p: Record<string, unknown>): void {
  const now = store.now();
  applySellable(store, rec, p, now);
  if (typeof p.status === 'string') rec.status = p.status;
  if (typeof p.manage_stock === 'boolean') rec.manage_stock = p.manage_stock;
  if (p.image === null) rec.image = null;
  else if (isPlainObject(p.image)) rec.image = makeImage(store, p.image, now);
  if (Array.isArray(p.attributes)) {
    rec.attributes = (p.attributes as Record<string, unknown>[]).map((a) => ({
      id: typeof a.id === 'number' ? a.id : 0,
      name: typeof a.name === 'string' ? a.name : '',
      option: typeof a.option === 'string' ? a.option : '',
    }));
  }
  syncStockStatus(rec);
  rec.modified = now;
}

/** Inserts a variation under `parent` (variations fire no webhooks, as in WooCommerce). */
export function createVariation(store: Store, parent: ProductRec, p: Record<string, unknown>): VariationRec {
  const id = store.state.seq.post + 1;
  const rec = blankVariation(id, parent.id, store.now());
  writeVariation(store, rec, p);
  nextId(store.state, 'post');
  store.state.variations.set(id, rec);
  parent.variation_ids.push(id);
  store.changed('variations', id);
  store.changed('products', parent.id);
  return rec;
}

export function updateVariation(store: Store, rec: VariationRec, p: Record<string, unknown>): VariationRec {
  const draft = structuredClone(rec);
  writeVariation(store, draft, p);
  store.state.variations.set(rec.id, draft);
  store.changed('variations', rec.id);
  return draft;
}

export function deleteVariation(store: Store, rec: VariationRec, force: boolean): void {
  if (force) {
    store.state.variations.delete(rec.id);
    const parent = store.state.products.get(rec.parent_id);
    if (parent) parent.variation_ids = parent.variation_ids.filter((x) => x !== rec.id);
  } else {
    if (rec.status === 'trash') {
      throw new RestError(
        410,
        'woocommerce_rest_already_trashed',
        'The product_variation has already been deleted.',
      );
    }
    rec.status = 'trash';
  }
  store.changed('variations', rec.id);
  store.changed('products', rec.parent_id);
}
