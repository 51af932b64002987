import {
  createTerm,
  deleteTerm,
  findTerm,
  productHasTerm,
  TAXONOMIES,
  type TaxonomyDef,
  termCount,
  termsOf,
  updateTerm,
} from '../catalog/terms.js';
import type { TermRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { UNCATEGORIZED_ID } from '../data/tables.js';
import { presentTerm } from '../present/terms.js';
import { batchHandler } from '../rest/batch.js';
import { registerCrud } from '../rest/crud.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, EDITABLE, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { FORCE, VIEW } from './params/common.js';
import { TERM_LIST_SPECS, termArgs, termSpecs } from './params/terms.js';

function notFound(): RestError {
  return new RestError(404, 'woocommerce_rest_term_invalid', 'Resource does not exist.');
}

/**
 * The CRUD routes of one product taxonomy (categories, tags, shipping classes) at `/wc/v3<def.base>`; or, with
 * `route` and `resolve`, of a taxonomy the URL names (an attribute's terms), resolved after the arguments are
 * validated and before the capability check, as WC_REST_Terms_Controller::check_permissions() does.
 */
export function registerTaxonomy(
  router: Router,
  store: Store,
  fixed: TaxonomyDef | { route: string; shape: TaxonomyDef; resolve: (ctx: Ctx) => TaxonomyDef },
): void {
  const resolve = 'resolve' in fixed ? fixed.resolve : () => fixed;
  const route = 'route' in fixed ? fixed.route : fixed.base;
  // The argument specs depend only on the taxonomy's shape, so they are checked before the taxonomy is looked up.
  const shape = 'shape' in fixed ? fixed.shape : fixed;
  const list = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, TERM_LIST_SPECS);
    ctx.params = p;
    const def = resolve(ctx);
    requireCap(ctx, 'list');
    let items = filterIncludeExclude(termsOf(store, def), p);
    if (typeof p.search === 'string')
      items = items.filter((t) => searchMatch(p.search, t.name, t.slug, t.description));
    if (typeof p.slug === 'string') items = items.filter((t) => t.slug === p.slug);
    if (def.hierarchical && typeof p.parent === 'number') items = items.filter((t) => t.parent === p.parent);
    if (p.hide_empty === true) items = items.filter((t) => termCount(store, t) > 0);
    if (typeof p.product === 'number') {
      const prod = store.state.products.get(p.product);
      items = items.filter((t) => prod !== undefined && productHasTerm(store, prod, t));
    }
    const keys: Record<string, (t: TermRec) => string | number> = {
      id: (t) => t.id,
      name: (t) => t.name,
      slug: (t) => t.slug,
      term_group: () => 0,
      description: (t) => t.description,
      count: (t) => termCount(store, t),
    };
    items = sortByParams(items, p, keys, { orderby: 'name', order: 'asc' });
    return pagedResult(ctx, items, (t) => presentTerm(store, def, t));
  };

  const create = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, termSpecs(shape, true));
    const def = resolve(ctx);
    requireCap(ctx, 'create');
    const t = createTerm(store, def, termArgs(p));
    return {
      status: 201,
      body: presentTerm(store, def, t),
      headers: { Location: store.restUrl(`${def.base}/${t.id}`) },
    };
  };

  const get = (ctx: Ctx): Result => {
    validateParams(ctx.params, VIEW);
    const def = resolve(ctx);
    requireCap(ctx, 'view');
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    return { status: 200, body: presentTerm(store, def, t) };
  };

  const update = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, termSpecs(shape, false));
    const def = resolve(ctx);
    requireCap(ctx, 'edit');
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    return { status: 200, body: presentTerm(store, def, updateTerm(store, def, t, termArgs(p))) };
  };

  const remove = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, FORCE);
    const def = resolve(ctx);
    requireCap(ctx, 'delete');
    if (p.force !== true) {
      throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Resource does not support trashing.');
    }
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    // WC_REST_Terms_Controller::delete_item(): the `default_product_cat` option's term stays (woocommerce#21652).
    if (t.id === UNCATEGORIZED_ID) {
      throw new RestError(
        500,
        'woocommerce_rest_cannot_delete',
        'Default product category cannot be deleted.',
      );
    }
    const body = presentTerm(store, def, t);
    deleteTerm(store, t);
    return { status: 200, body };
  };

  registerCrud(router, `/wc/v3${route}`, { list, create, get, update, delete: remove });
  if ('resolve' in fixed) {
    // batch_items_permissions_check() runs check_permissions() too: an unknown taxonomy fails the whole batch.
    const batch = batchHandler({ create, update, delete: remove });
    router.add(`/wc/v3${route}/batch`, EDITABLE, (ctx) => {
      resolve(ctx);
      return batch(ctx);
    });
  }
}

export function registerTerms(router: Router, store: Store): void {
  for (const def of TAXONOMIES) registerTaxonomy(router, store, def);
}
