/**
 * `GET products` and `GET products/{id}` of the Store API (StoreApi/Routes/V1/Products.php, ProductsById.php)
 * over StoreApi/Utilities/ProductQuery.php: published products the catalog shows, paged (`per_page` 1–100,
 * default 10) with `X-WP-Total` / `X-WP-TotalPages`, filtered and sorted by the arguments below.
 */

import { productOnSale, productPrice } from '../../catalog/prices.js';
import type { ProductRec } from '../../data/rows.js';
import type { Store } from '../../data/store.js';
import { presentStoreProduct } from '../../present/store-api/products.js';
import { priceDecimals } from '../../pricing/tax-math.js';
import type { Ctx, Result, Router } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';
import { phpFloatval } from '../../runtime/numbers.js';

const NS = '/wc/store/v1';

function invalid(param: string, message: string): RestError {
  return new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, {
    params: { [param]: message },
  });
}

function intArg(ctx: Ctx, name: string, min: number, max: number, fallback: number): number {
  const v = ctx.params[name];
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n))
    throw invalid(name, `${name} is not of type integer.`);
  if (n < min || n > max)
    throw invalid(name, `${name} must be between ${min} (inclusive) and ${max} (inclusive)`);
  return n;
}

/** A comma list or array of ids (wp_parse_id_list()). */
function idList(v: unknown): number[] {
  const parts = Array.isArray(v)
    ? v
    : typeof v === 'string' || typeof v === 'number'
      ? String(v).split(/[\s,]+/)
      : [];
  return parts
    .map((x) => Math.abs(Number.parseInt(String(x), 10)))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** ProductQuery: visible in the catalog or search (not `hidden`), published, and the requested filters. */
function visible(store: Store): ProductRec[] {
  return [...store.state.products.values()].filter(
    (p) => p.status === 'publish' && p.catalog_visibility !== 'hidden',
  );
}

const ORDERBY = [
  'date',
  'modified',
  'id',
  'include',
  'title',
  'slug',
  'price',
  'popularity',
  'rating',
  'menu_order',
];

function list(ctx: Ctx): Result {
  const store = ctx.store;
  const perPage = intArg(ctx, 'per_page', 0, 100, 10);
  const page = intArg(ctx, 'page', 1, Number.MAX_SAFE_INTEGER, 1);
  const p = ctx.params;
  let items = visible(store);
  const include = idList(p.include);
  if (include.length > 0) items = items.filter((x) => include.includes(x.id));
  const exclude = idList(p.exclude);
  if (exclude.length > 0) items = items.filter((x) => !exclude.includes(x.id));
  if (typeof p.search === 'string' && p.search !== '') {
    const needle = p.search.toLowerCase();
    items = items.filter((x) =>
      `${x.name} ${x.description} ${x.short_description}`.toLowerCase().includes(needle),
    );
  }
  if (typeof p.slug === 'string' && p.slug !== '') items = items.filter((x) => x.slug === p.slug);
  if (typeof p.sku === 'string' && p.sku !== '') {
    const skus = p.sku.split(',');
    items = items.filter((x) => skus.includes(x.sku));
  }
  if (typeof p.type === 'string' && p.type !== '') items = items.filter((x) => x.type === p.type);
  const categories = idList(p.category);
  if (categories.length > 0) items = items.filter((x) => x.categories.some((c) => categories.includes(c)));
  const tags = idList(p.tag);
  if (tags.length > 0) items = items.filter((x) => x.tags.some((t) => tags.includes(t)));
  if (p.featured === true || p.featured === 'true' || p.featured === '1')
    items = items.filter((x) => x.featured);
  if (p.on_sale === true || p.on_sale === 'true' || p.on_sale === '1')
    items = items.filter((x) => productOnSale(store, x));
  // min_price / max_price are in minor units (ProductQuery::prepare_price_filter()).
  const cents = (v: unknown) => phpFloatval(v) / 10 ** priceDecimals(store);
  if (p.min_price !== undefined)
    items = items.filter((x) => phpFloatval(productPrice(store, x)) >= cents(p.min_price));
  if (p.max_price !== undefined)
    items = items.filter((x) => phpFloatval(productPrice(store, x)) <= cents(p.max_price));
  const orderby = typeof p.orderby === 'string' && ORDERBY.includes(p.orderby) ? p.orderby : 'date';
  const order = p.order === 'asc' ? 1 : -1;
  const key: (x: ProductRec) => number | string =
    orderby === 'title'
      ? (x) => x.name.toLowerCase()
      : orderby === 'slug'
        ? (x) => x.slug
        : orderby === 'price'
          ? (x) => phpFloatval(productPrice(store, x))
          : orderby === 'popularity'
            ? (x) => x.total_sales
            : orderby === 'menu_order'
              ? (x) => x.menu_order
              : orderby === 'id'
                ? (x) => x.id
                : orderby === 'modified'
                  ? (x) => x.modified
                  : orderby === 'include'
                    ? (x) => include.indexOf(x.id)
                    : (x) => x.created;
  const dir = orderby === 'include' ? 1 : order;
  items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || (a.id - b.id) * dir;
  });
  const total = items.length;
  const slice = perPage === 0 ? items : items.slice((page - 1) * perPage, page * perPage);
  return {
    status: 200,
    body: slice.map((x) => presentStoreProduct(store, x)),
    headers: {
      'X-WP-Total': String(total),
      'X-WP-TotalPages': String(perPage === 0 ? 1 : Math.ceil(total / perPage)),
    },
  };
}

/** ProductsById: `woocommerce_rest_product_invalid_id` (404) for what the catalog does not show. */
function get(ctx: Ctx): Result {
  const id = Number(ctx.urlParams.id);
  const p = ctx.store.state.products.get(id);
  if (p?.status !== 'publish') {
    throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid product ID.');
  }
  return { status: 200, body: presentStoreProduct(ctx.store, p) };
}

export function registerStoreProducts(router: Pick<Router, 'add'>): void {
  router.add(`${NS}/products`, ['GET'], list);
  router.add(`${NS}/products/(?P<id>[\\d]+)`, ['GET'], get);
}
