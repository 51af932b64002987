import type { ProductRec, TermRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { sanitizeTitle, uniqueSlug } from '../runtime/formatting.js';
import { isPlainObject } from '../runtime/values.js';

type Taxonomy = TermRec['taxonomy'];

export interface TaxonomyDef {
  taxonomy: Taxonomy;
  base: string;
  hierarchical: boolean;
  /** Attribute terms keep a `menu_order` (term meta `order`) without being hierarchical. */
  menuOrder?: boolean;
}

/** The two product taxonomies and the REST base each is served under. */
export const TAXONOMIES: readonly TaxonomyDef[] = [
  { taxonomy: 'product_cat', base: '/products/categories', hierarchical: true },
  { taxonomy: 'product_tag', base: '/products/tags', hierarchical: false },
];

/** WC_REST_Product_Shipping_Classes_Controller: a flat taxonomy with the tags' shape. */
export const SHIPPING_CLASSES: TaxonomyDef = {
  taxonomy: 'product_shipping_class',
  base: '/products/shipping_classes',
  hierarchical: false,
};

/** The terms of a global attribute (WC_REST_Product_Attribute_Terms_Controller). */
export function attributeTermsDef(attributeId: number, slug: string): TaxonomyDef {
  return {
    taxonomy: `pa_${slug}`,
    base: `/products/attributes/${attributeId}/terms`,
    hierarchical: false,
    menuOrder: true,
  };
}

/** Whether a product attribute row (options are term names) holds the term. */
function holdsOption(options: string[], t: TermRec): boolean {
  return options.some((o) => o === t.name || o === t.slug);
}

/** Whether the product carries the term (the terms list's `product` filter). */
export function productHasTerm(store: Store, prod: ProductRec, t: TermRec): boolean {
  if (t.taxonomy === 'product_cat') return prod.categories.includes(t.id);
  if (t.taxonomy === 'product_tag') return prod.tags.includes(t.id);
  if (t.taxonomy === 'product_shipping_class') return prod.shipping_class === t.slug;
  const attr = [...store.state.attributes.values()].find((a) => `pa_${a.slug}` === t.taxonomy);
  return !!attr && prod.attributes.some((a) => a.id === attr.id && holdsOption(a.options, t));
}

/**
 * `count`. Categories and tags: the products (trash aside) that carry the term. Shipping classes and attribute
 * terms are registered with `_update_post_term_count`, which counts published posts only (variations too, for
 * shipping classes, which are registered for `product_variation` as well).
 */
export function termCount(store: Store, t: TermRec): number {
  let n = 0;
  if (t.taxonomy === 'product_shipping_class') {
    for (const p of store.state.products.values())
      if (p.status === 'publish' && p.shipping_class === t.slug) n++;
    for (const v of store.state.variations.values())
      if (v.status === 'publish' && v.shipping_class === t.slug) n++;
    return n;
  }
  if (t.taxonomy.startsWith('pa_')) {
    const attr = [...store.state.attributes.values()].find((a) => `pa_${a.slug}` === t.taxonomy);
    if (!attr) return 0;
    for (const p of store.state.products.values()) {
      if (p.status !== 'publish') continue;
      if (p.attributes.some((a) => a.id === attr.id && holdsOption(a.options, t))) n++;
    }
    return n;
  }
  for (const p of store.state.products.values()) {
    if (p.status === 'trash') continue;
    if ((t.taxonomy === 'product_cat' ? p.categories : p.tags).includes(t.id)) n++;
  }
  return n;
}

/**
 * The terms and all their descendants: WP_Tax_Query::clean_query() adds get_term_children() of every term of a
 * hierarchical taxonomy, since a tax_query clause defaults to `include_children => true`.
 */
export function withDescendants(store: Store, taxonomy: TermRec['taxonomy'], ids: number[]): Set<number> {
  const out = new Set(ids);
  const all = [...store.state.terms.values()].filter((t) => t.taxonomy === taxonomy);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of all) {
      if (t.parent !== 0 && out.has(t.parent) && !out.has(t.id)) {
        out.add(t.id);
        grew = true;
      }
    }
  }
  return out;
}

export function termsOf(store: Store, def: TaxonomyDef): TermRec[] {
  return [...store.state.terms.values()].filter((t) => t.taxonomy === def.taxonomy);
}

export function findTerm(store: Store, def: TaxonomyDef, id: number): TermRec | undefined {
  const t = store.state.terms.get(id);
  return t && t.taxonomy === def.taxonomy ? t : undefined;
}

/**
 * wp_insert_term() / wp_update_term() rules on a validated body: names unique per parent (per taxonomy for
 * tags), an existing parent, a unique slug derived from the name unless given.
 */
function writeTerm(store: Store, def: TaxonomyDef, t: TermRec, p: Record<string, unknown>): void {
  const all = () => termsOf(store, def);
  if (typeof p.name === 'string') {
    const name = p.name.trim();
    const clash = all().find(
      (o) =>
        o.id !== t.id &&
        o.name.toLowerCase() === name.toLowerCase() &&
        (!def.hierarchical || o.parent === (typeof p.parent === 'number' ? p.parent : t.parent)),
    );
    if (clash) {
      throw new RestError(
        400,
        'term_exists',
        def.hierarchical
          ? 'A term with the name provided already exists with this parent.'
          : 'A term with the name provided already exists in this taxonomy.',
        { resource_id: clash.id },
      );
    }
    t.name = name;
  }
  if (typeof p.description === 'string') t.description = p.description;
  if (def.hierarchical) {
    if (typeof p.parent === 'number') {
      if (p.parent !== 0 && !findTerm(store, def, p.parent)) {
        throw new RestError(400, 'woocommerce_rest_term_invalid', 'Parent term does not exist.');
      }
      t.parent = p.parent;
    }
    if (typeof p.display === 'string') t.display = p.display;
    if (p.image === null) t.image = null;
    else if (isPlainObject(p.image) && typeof p.image.src === 'string') {
      const now = store.now();
      t.image = {
        id: typeof p.image.id === 'number' ? p.image.id : nextId(store.state, 'post'),
        src: p.image.src,
        name: typeof p.image.name === 'string' ? p.image.name : '',
        alt: typeof p.image.alt === 'string' ? p.image.alt : '',
        created: now,
        modified: now,
      };
    }
  }
  if ((def.hierarchical || def.menuOrder) && typeof p.menu_order === 'number') t.menu_order = p.menu_order;
  const wanted =
    typeof p.slug === 'string' && p.slug !== '' ? sanitizeTitle(p.slug) : t.slug || sanitizeTitle(t.name);
  t.slug = uniqueSlug(wanted, (s) => all().some((o) => o.slug === s && o.id !== t.id));
}

export function createTerm(store: Store, def: TaxonomyDef, p: Record<string, unknown>): TermRec {
  const id = store.state.seq.term + 1;
  const t: TermRec = {
    id,
    taxonomy: def.taxonomy,
    name: '',
    slug: '',
    parent: 0,
    description: '',
    display: 'default',
    image: null,
    menu_order: 0,
  };
  writeTerm(store, def, t, p);
  nextId(store.state, 'term');
  store.state.terms.set(id, t);
  store.changed('terms', id);
  return t;
}

export function updateTerm(store: Store, def: TaxonomyDef, t: TermRec, p: Record<string, unknown>): TermRec {
  const draft = structuredClone(t);
  writeTerm(store, def, draft, p);
  store.state.terms.set(t.id, draft);
  store.changed('terms', t.id);
  relinkTerm(store, t, draft);
  return draft;
}

/**
 * Products hold shipping classes by slug and attribute terms by name (WooCommerce holds term ids), so a
 * renamed term is written through to them to keep the link WooCommerce's ids would keep.
 */
function relinkTerm(store: Store, before: TermRec, after: TermRec | null): void {
  if (before.taxonomy === 'product_shipping_class') {
    if (after && after.slug === before.slug) return;
    const sellables = [...store.state.products.values(), ...store.state.variations.values()];
    for (const s of sellables) {
      if (s.shipping_class !== before.slug) continue;
      s.shipping_class = after ? after.slug : '';
      store.changed(store.state.products.has(s.id) ? 'products' : 'variations', s.id);
    }
    return;
  }
  if (!before.taxonomy.startsWith('pa_')) return;
  const attr = [...store.state.attributes.values()].find((a) => `pa_${a.slug}` === before.taxonomy);
  if (!attr) return;
  for (const prod of store.state.products.values()) {
    let touched = false;
    for (const a of prod.attributes) {
      if (a.id !== attr.id || !holdsOption(a.options, before)) continue;
      const rest = a.options.filter((o) => o !== before.name && o !== before.slug);
      a.options = after ? [...rest, after.name] : rest;
      touched = true;
    }
    if (touched) store.changed('products', prod.id);
  }
}

/** Deleting a term takes it off every product, and its children move up to its parent. */
export function deleteTerm(store: Store, t: TermRec): void {
  relinkTerm(store, t, null);
  store.state.terms.delete(t.id);
  store.changed('terms', t.id);
  for (const prod of store.state.products.values()) {
    if (!prod.categories.includes(t.id) && !prod.tags.includes(t.id)) continue;
    prod.categories = prod.categories.filter((c) => c !== t.id);
    prod.tags = prod.tags.filter((c) => c !== t.id);
    store.changed('products', prod.id);
  }
  for (const o of store.state.terms.values()) {
    if (o.parent !== t.id) continue;
    o.parent = t.parent;
    store.changed('terms', o.id);
  }
}
