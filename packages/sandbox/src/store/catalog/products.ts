import type { AttributeRec, ProductAttribute, ProductRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId, UNCATEGORIZED_ID } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { slugify } from '../runtime/formatting.js';
import { applyDateCreated, savePost } from './post.js';
import { applySellable, blankSellable, makeImage } from './sellable.js';
import { syncStockStatus } from './stock.js';
import { attributeTermsDef, createTerm, termsOf } from './terms.js';

export function blankProduct(id: number, now: number): ProductRec {
  return {
    ...blankSellable(id, now),
    name: '',
    slug: '',
    type: 'simple',
    featured: false,
    catalog_visibility: 'visible',
    short_description: '',
    external_url: '',
    button_text: '',
    manage_stock: false,
    sold_individually: false,
    reviews_allowed: true,
    upsell_ids: [],
    cross_sell_ids: [],
    purchase_note: '',
    categories: [],
    tags: [],
    images: [],
    attributes: [],
    default_attributes: [],
    grouped_products: [],
    variation_ids: [],
  };
}

/** Applies a validated product create/update body (WC_REST_Products_Controller::prepare_object_for_database()). */
export function writeProduct(
  store: Store,
  rec: ProductRec,
  p: Record<string, unknown>,
  before: ProductRec | null,
): void {
  const now = store.now();
  applySellable(store, rec, p, now);
  for (const k of [
    'name',
    'type',
    'catalog_visibility',
    'short_description',
    'external_url',
    'button_text',
    'purchase_note',
  ] as const) {
    if (typeof p[k] === 'string') rec[k] = p[k] as string;
  }
  if (typeof p.status === 'string') rec.status = p.status;
  for (const k of ['featured', 'sold_individually', 'reviews_allowed', 'manage_stock'] as const) {
    if (typeof p[k] === 'boolean') rec[k] = p[k] as boolean;
  }
  if (typeof p.parent_id === 'number') rec.parent_id = p.parent_id;
  for (const k of ['upsell_ids', 'cross_sell_ids', 'grouped_products'] as const) {
    if (Array.isArray(p[k])) rec[k] = p[k] as number[];
  }
  const termIds = (v: unknown, taxonomy: 'product_cat' | 'product_tag') =>
    (v as Record<string, unknown>[])
      .map((t) => t.id)
      .filter(
        (id): id is number => typeof id === 'number' && store.state.terms.get(id)?.taxonomy === taxonomy,
      );
  if (Array.isArray(p.categories)) rec.categories = termIds(p.categories, 'product_cat');
  if (Array.isArray(p.tags)) rec.tags = termIds(p.tags, 'product_tag');
  if (Array.isArray(p.images))
    rec.images = (p.images as Record<string, unknown>[]).map((img) => makeImage(store, img, now));
  if (Array.isArray(p.attributes))
    rec.attributes = productAttributes(store, p.attributes as Record<string, unknown>[]);
  if (Array.isArray(p.default_attributes)) {
    rec.default_attributes = (p.default_attributes as Record<string, unknown>[]).map((a) => ({
      id: typeof a.id === 'number' ? a.id : 0,
      name: typeof a.name === 'string' ? a.name : '',
      option: typeof a.option === 'string' ? a.option : '',
    }));
  }
  // set_slug() takes the value as given; wp_insert_post() in savePost() decides the stored post_name.
  if (typeof p.slug === 'string') rec.slug = p.slug;
  if (rec.categories.length === 0) rec.categories = [UNCATEGORIZED_ID];
  applyDateCreated(rec, p);
  syncStockStatus(rec);
  savePost(store, rec, before, now);
}

/**
 * WC_REST_Products_V2_Controller::prepare_attributes(): an `id` names a global attribute (its name is the
 * attribute's, whatever `name` says), and such a row is kept only with options, which are term names (or
 * slugs) of `pa_<slug>`: wp_set_object_terms() creates the ones that do not exist yet. Without an id, `name`
 * makes a custom attribute with free-text options.
 */
function productAttributes(store: Store, rows: Record<string, unknown>[]): ProductAttribute[] {
  const out: ProductAttribute[] = [];
  rows.forEach((a, i) => {
    const id = typeof a.id === 'number' ? Math.abs(a.id) : 0;
    const name = typeof a.name === 'string' ? a.name.trim() : '';
    if (!id && !name) return;
    const given = Array.isArray(a.options) ? (a.options as string[]) : [];
    const row = {
      position: typeof a.position === 'number' ? a.position : i,
      visible: a.visible === true,
      variation: a.variation === true,
    };
    if (!id) {
      if (Array.isArray(a.options)) out.push({ id: 0, name, ...row, options: given });
      return;
    }
    // wc_sanitize_term_text_based() and array_filter( 'strlen' ): blank options are dropped.
    const options = given.map((o) => String(o).trim()).filter((o) => o !== '');
    if (options.length === 0) return;
    const attr = store.state.attributes.get(id);
    out.push({
      id,
      name: attr ? attr.name : '',
      ...row,
      options: attr ? attributeTerms(store, attr, options) : [],
    });
  });
  return out;
}

/** The term names behind the options, creating terms for names that match no term's name or slug. */
function attributeTerms(store: Store, attr: AttributeRec, options: string[]): string[] {
  const def = attributeTermsDef(attr.id, attr.slug);
  const names: string[] = [];
  for (const o of options) {
    const term =
      termsOf(store, def).find((t) => t.slug === slugify(o) || t.name.toLowerCase() === o.toLowerCase()) ??
      createTerm(store, def, { name: o });
    if (!names.includes(term.name)) names.push(term.name);
  }
  return names;
}

/** Inserts a product; its id is taken only once the body has been applied, so a rejected body wastes none. */
export function createProduct(store: Store, p: Record<string, unknown>): ProductRec {
  const id = store.state.seq.post + 1;
  const rec = blankProduct(id, store.now());
  writeProduct(store, rec, p, null);
  nextId(store.state, 'post');
  store.state.products.set(id, rec);
  store.changed('products', id);
  store.emit('product', 'created', id);
  return rec;
}

/** Writes onto a copy that replaces the product only once the whole body applied (no half-updated product). */
export function updateProduct(store: Store, rec: ProductRec, p: Record<string, unknown>): ProductRec {
  const draft = structuredClone(rec);
  const wasTrash = rec.status === 'trash';
  writeProduct(store, draft, p, rec);
  store.state.products.set(rec.id, draft);
  store.changed('products', rec.id);
  if (wasTrash && draft.status !== 'trash') store.emit('product', 'restored', rec.id);
  store.emit('product', 'updated', rec.id);
  return draft;
}

/** `force` deletes the product and its variations; otherwise it goes to the trash (once). */
export function deleteProduct(store: Store, rec: ProductRec, force: boolean): void {
  if (force) {
    for (const vid of rec.variation_ids) store.state.variations.delete(vid);
    store.changed('variations', ...rec.variation_ids);
    store.state.products.delete(rec.id);
    // wp_delete_post() deletes the post's comments, its reviews among them.
    for (const r of [...store.state.reviews.values()]) {
      if (r.product_id !== rec.id) continue;
      store.state.reviews.delete(r.id);
      store.changed('reviews', r.id);
    }
  } else {
    if (rec.status === 'trash') {
      throw new RestError(410, 'woocommerce_rest_already_trashed', 'The product has already been deleted.');
    }
    rec.pre_trash_status = rec.status;
    rec.status = 'trash';
    rec.modified = store.now();
  }
  store.changed('products', rec.id);
  store.emit('product', 'deleted', rec.id);
}
