import { activePrice, isOnSale, variationName } from '../catalog/prices.js';
import { effectiveStockStatus } from '../catalog/stock.js';
import { createVariation, deleteVariation, updateVariation } from '../catalog/variations.js';
import type { ProductRec, VariationRec } from '../data/rows.js';
import { presentVariation } from '../present/variations.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { toNumber } from '../runtime/values.js';
import { FORCE, VIEW } from './params/common.js';
import { variationArgs } from './params/sellable.js';
import { VARIATION_LIST_SPECS, VARIATION_SPECS } from './params/variations.js';

function parentFor(ctx: Ctx): ProductRec | undefined {
  return ctx.store.state.products.get(idParam(ctx, 'product_id'));
}

/** The variation in the URL, which must belong to the product in the URL. */
function variationOr(ctx: Ctx, status: number): VariationRec {
  const v = ctx.store.state.variations.get(idParam(ctx));
  if (!v || v.parent_id !== idParam(ctx, 'product_id')) {
    throw new RestError(status, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
  }
  return v;
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, VARIATION_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  const parent = parentFor(ctx);
  let items = parent
    ? parent.variation_ids
        .map((id) => store.state.variations.get(id))
        .filter((v): v is VariationRec => v !== undefined)
    : [];
  const status = (p.status as string | undefined) ?? 'any';
  items = items.filter((x) => (status === 'any' ? x.status !== 'trash' : x.status === status));
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.sku === 'string') {
    const skus = p.sku.split(',').map((s) => s.trim());
    items = items.filter((x) => skus.includes(x.sku));
  }
  if (typeof p.on_sale === 'boolean') items = items.filter((x) => isOnSale(x) === p.on_sale);
  if (typeof p.stock_status === 'string')
    items = items.filter((x) => effectiveStockStatus(store, x) === p.stock_status);
  if (typeof p.min_price === 'string' && p.min_price !== '')
    items = items.filter((x) => toNumber(activePrice(x)) >= toNumber(p.min_price));
  if (typeof p.max_price === 'string' && p.max_price !== '')
    items = items.filter((x) => toNumber(activePrice(x)) <= toNumber(p.max_price));
  if (typeof p.search === 'string' && p.search !== '')
    items = items.filter((x) => searchMatch(p.search, variationName(store, x), x.description));
  const keyFns: Record<string, (x: VariationRec) => string | number> = {
    date: (x) => x.created,
    id: (x) => x.id,
    title: (x) => variationName(store, x),
    slug: (x) => variationName(store, x),
    modified: (x) => x.modified,
    menu_order: (x) => x.menu_order,
  };
  items = sortByParams(items, p, keyFns, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, (x) => presentVariation(store, x));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, VARIATION_SPECS);
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(
      400,
      'woocommerce_rest_product_variation_exists',
      'Cannot create existing product_variation.',
    );
  }
  const parent = parentFor(ctx);
  if (!parent) {
    throw new RestError(
      404,
      'woocommerce_rest_product_variation_invalid_parent',
      'Cannot set attributes due to invalid parent product.',
    );
  }
  const rec = createVariation(ctx.store, parent, variationArgs(p));
  return {
    status: 201,
    body: presentVariation(ctx.store, rec),
    headers: { Location: ctx.store.restUrl(`/products/${parent.id}/variations/${rec.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  if (ctx.store.state.variations.has(idParam(ctx))) requireCap(ctx, 'view');
  return { status: 200, body: presentVariation(ctx.store, variationOr(ctx, 404)) };
}

// The ID is checked before the body is validated: an unknown variation is a 400 whatever the body says.
function update(ctx: Ctx): Result {
  if (ctx.store.state.variations.has(idParam(ctx))) requireCap(ctx, 'edit');
  const rec = variationOr(ctx, 400);
  const p = validateParams(ctx.params, VARIATION_SPECS);
  return {
    status: 200,
    body: presentVariation(ctx.store, updateVariation(ctx.store, rec, variationArgs(p))),
  };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  if (ctx.store.state.variations.has(idParam(ctx))) requireCap(ctx, 'delete');
  const rec = variationOr(ctx, 404);
  const body = presentVariation(ctx.store, rec);
  deleteVariation(ctx.store, rec, p.force === true);
  return { status: 200, body };
}

export function registerVariations(router: Router): void {
  registerCrud(router, '/wc/v3/products/(?P<product_id>[\\d]+)/variations', {
    list,
    create,
    get,
    update,
    delete: remove,
  });
}
