import { attributeByTaxonomy } from '../catalog/attributes.js';
import { lookupPriceRange, productOnSale, productPrice } from '../catalog/prices.js';
import { createProduct, deleteProduct, updateProduct } from '../catalog/products.js';
import { productRating } from '../catalog/reviews.js';
import { productStockStatus } from '../catalog/stock.js';
import { withDescendants } from '../catalog/terms.js';
import type { ProductRec } from '../data/rows.js';
import { presentProduct } from '../present/products.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { toNumber } from '../runtime/values.js';
import { FORCE, VIEW } from './params/common.js';
import { PRODUCT_LIST_SPECS, PRODUCT_SPECS } from './params/products.js';
import { productArgs } from './params/sellable.js';

function invalidId(status: number): RestError {
  return new RestError(status, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
}

/** wp_parse_id_list(): split on commas and whitespace, absint() each, unique. */
function parseIdList(list: string): number[] {
  const ids = list
    .split(/[\s,]+/)
    .filter((s) => s !== '')
    .map((s) => Math.abs(Math.trunc(Number.parseFloat(s))) || 0);
  return [...new Set(ids)];
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, PRODUCT_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.products.values()];
  const status = (p.status as string | undefined) ?? 'any';
  items = items.filter((x) => (status === 'any' ? x.status !== 'trash' : x.status === status));
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.type === 'string') items = items.filter((x) => x.type === p.type);
  if (typeof p.slug === 'string') {
    const slugs = p.slug.split(',').map((s) => s.trim());
    items = items.filter((x) => slugs.includes(x.slug));
  }
  if (typeof p.sku === 'string') {
    const skus = p.sku.split(',').map((s) => s.trim());
    items = items.filter((x) => skus.includes(x.sku));
  }
  if (typeof p.featured === 'boolean') items = items.filter((x) => x.featured === p.featured);
  // `category` and `tag` go through wp_parse_id_list() into a tax_query IN clause; for categories the clause
  // includes child terms (WP_Tax_Query's `include_children` default), so a parent category lists its subtree.
  if (typeof p.category === 'string' && p.category !== '') {
    const ids = withDescendants(store, 'product_cat', parseIdList(p.category));
    items = items.filter((x) => x.categories.some((c) => ids.has(c)));
  }
  if (typeof p.tag === 'string' && p.tag !== '') {
    const ids = parseIdList(p.tag);
    items = items.filter((x) => x.tags.some((c) => ids.includes(c)));
  }
  if (typeof p.tax_class === 'string')
    items = items.filter((x) => x.tax_class === (p.tax_class === 'standard' ? '' : p.tax_class));
  // `shipping_class` is a list of term ids (a product_shipping_class tax_query, like `tag`).
  if (typeof p.shipping_class === 'string' && p.shipping_class !== '') {
    const ids = parseIdList(p.shipping_class);
    const slugs = new Set(
      [...store.state.terms.values()]
        .filter((t) => t.taxonomy === 'product_shipping_class' && ids.includes(t.id))
        .map((t) => t.slug),
    );
    items = items.filter((x) => slugs.has(x.shipping_class));
  }
  // `attribute` (a `pa_` taxonomy) with `attribute_term` (term ids): both are needed, and an attribute that is
  // not a registered taxonomy leaves the list unfiltered (prepare_objects_query() skips the clause).
  const filterAttr =
    typeof p.attribute === 'string' && p.attribute_term ? attributeByTaxonomy(store, p.attribute) : undefined;
  if (filterAttr) {
    const ids = parseIdList(String(p.attribute_term));
    const terms = [...store.state.terms.values()].filter(
      (t) => t.taxonomy === p.attribute && ids.includes(t.id),
    );
    items = items.filter((x) =>
      x.attributes.some(
        (a) =>
          a.id === filterAttr.id &&
          terms.some((t) => a.options.includes(t.name) || a.options.includes(t.slug)),
      ),
    );
  }
  if (typeof p.virtual === 'boolean') items = items.filter((x) => x.virtual === p.virtual);
  if (typeof p.downloadable === 'boolean') items = items.filter((x) => x.downloadable === p.downloadable);
  if (typeof p.on_sale === 'boolean') items = items.filter((x) => productOnSale(store, x) === p.on_sale);
  if (typeof p.stock_status === 'string')
    items = items.filter((x) => productStockStatus(store, x) === p.stock_status);
  if (typeof p.min_price === 'string' && p.min_price !== '') {
    const min = toNumber(p.min_price);
    items = items.filter((x) => productPrice(store, x) !== '' && toNumber(productPrice(store, x)) >= min);
  }
  if (typeof p.max_price === 'string' && p.max_price !== '') {
    const max = toNumber(p.max_price);
    items = items.filter((x) => productPrice(store, x) !== '' && toNumber(productPrice(store, x)) <= max);
  }
  if (Array.isArray(p.parent) && p.parent.length > 0)
    items = items.filter((x) => (p.parent as number[]).includes(x.parent_id));
  if (Array.isArray(p.parent_exclude) && p.parent_exclude.length > 0) {
    items = items.filter((x) => !(p.parent_exclude as number[]).includes(x.parent_id));
  }
  if (typeof p.search === 'string' && p.search !== '') {
    items = items.filter((x) => searchMatch(p.search, x.name, x.description, x.short_description));
  }
  // WC_Query::get_catalog_ordering_args(): `price` sorts on the lookup table's min_price ascending or max_price
  // descending (order_by_price_{asc,desc}_post_clauses()); `popularity` and `rating` always sort descending.
  const descending = p.order === undefined || p.order === 'desc';
  const range = new Map<number, { min: number; max: number }>();
  const priceKey = (x: ProductRec) => {
    let r = range.get(x.id);
    if (!r) {
      r = lookupPriceRange(store, x);
      range.set(x.id, r);
    }
    return descending ? r.max : r.min;
  };
  const keyFns: Record<string, (x: ProductRec) => string | number> = {
    date: (x) => x.created,
    id: (x) => x.id,
    title: (x) => x.name,
    slug: (x) => x.slug,
    modified: (x) => x.modified,
    menu_order: (x) => x.menu_order,
    price: priceKey,
    popularity: (x) => x.total_sales,
  };
  if (p.orderby === 'rating') {
    // WC_Query::order_by_rating_post_clauses(): average_rating DESC, rating_count DESC, product_id DESC.
    const rating = new Map(items.map((x) => [x.id, productRating(store, x.id)]));
    items = [...items].sort((a, b) => {
      const ra = rating.get(a.id)!;
      const rb = rating.get(b.id)!;
      return rb.average - ra.average || rb.count - ra.count || b.id - a.id;
    });
  } else {
    // order_by_popularity_post_clauses(): total_sales DESC, product_id DESC, whatever `order` says.
    const alwaysDesc = p.orderby === 'popularity';
    items = sortByParams(items, alwaysDesc ? { ...p, order: 'desc' } : p, keyFns, {
      orderby: 'date',
      order: 'desc',
    });
  }
  return pagedResult(ctx, items, (x) => presentProduct(store, x));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, PRODUCT_SPECS);
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_product_exists', 'Cannot create existing product.');
  }
  const rec = createProduct(ctx.store, productArgs(p));
  return {
    status: 201,
    body: presentProduct(ctx.store, rec),
    headers: { Location: ctx.store.restUrl(`/products/${rec.id}`) },
  };
}

// Capability checks only run for an existing record, so an anonymous request for a missing one gets the
// "invalid ID" error, not a 401, as in WooCommerce.
function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  const p = ctx.store.state.products.get(idParam(ctx));
  if (p) requireCap(ctx, 'view');
  if (!p) throw invalidId(404);
  return { status: 200, body: presentProduct(ctx.store, p) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, PRODUCT_SPECS);
  const rec = ctx.store.state.products.get(idParam(ctx));
  if (rec) requireCap(ctx, 'edit');
  if (!rec) throw invalidId(400);
  return { status: 200, body: presentProduct(ctx.store, updateProduct(ctx.store, rec, productArgs(p))) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  const rec = ctx.store.state.products.get(idParam(ctx));
  if (rec) requireCap(ctx, 'delete');
  if (!rec) throw invalidId(404);
  const body = presentProduct(ctx.store, rec);
  deleteProduct(ctx.store, rec, p.force === true);
  return { status: 200, body };
}

export function registerProducts(router: Router): void {
  registerCrud(router, '/wc/v3/products', { list, create, get, update, delete: remove });
}
