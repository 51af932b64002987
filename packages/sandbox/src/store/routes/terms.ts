import type { TermRec } from '../model/records.js';
import type { Store } from '../model/store.js';
import {
  createTerm,
  deleteTerm,
  findTerm,
  TAXONOMIES,
  type TaxonomyDef,
  termCount,
  termsOf,
  updateTerm,
} from '../model/terms.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { validateParams } from '../wp/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../wp/router.js';
import { termArgs } from './empty-args.js';
import { FORCE, VIEW } from './params/common.js';
import { TERM_LIST_SPECS, termSpecs } from './params/terms.js';
import { presentTerm } from './present/terms.js';

function notFound(): RestError {
  return new RestError(404, 'woocommerce_rest_term_invalid', 'Resource does not exist.');
}

/** The CRUD routes of one product taxonomy (categories or tags). */
function register(router: Router, store: Store, def: TaxonomyDef): void {
  const list = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, TERM_LIST_SPECS);
    ctx.params = p;
    requireCap(ctx, 'list');
    let items = filterIncludeExclude(termsOf(store, def), p);
    if (typeof p.search === 'string')
      items = items.filter((t) => searchMatch(p.search, t.name, t.slug, t.description));
    if (typeof p.slug === 'string') items = items.filter((t) => t.slug === p.slug);
    if (def.hierarchical && typeof p.parent === 'number') items = items.filter((t) => t.parent === p.parent);
    if (p.hide_empty === true) items = items.filter((t) => termCount(store, t) > 0);
    if (typeof p.product === 'number') {
      const prod = store.state.products.get(p.product);
      const ids = prod ? (def.taxonomy === 'product_cat' ? prod.categories : prod.tags) : [];
      items = items.filter((t) => ids.includes(t.id));
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
    const p = validateParams(ctx.params, termSpecs(def, true));
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
    requireCap(ctx, 'view');
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    return { status: 200, body: presentTerm(store, def, t) };
  };

  const update = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, termSpecs(def, false));
    requireCap(ctx, 'edit');
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    return { status: 200, body: presentTerm(store, def, updateTerm(store, def, t, termArgs(p))) };
  };

  const remove = (ctx: Ctx): Result => {
    const p = validateParams(ctx.params, FORCE);
    requireCap(ctx, 'delete');
    if (p.force !== true) {
      throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Resource does not support trashing.');
    }
    const t = findTerm(store, def, idParam(ctx));
    if (!t) throw notFound();
    const body = presentTerm(store, def, t);
    deleteTerm(store, t);
    return { status: 200, body };
  };

  registerCrud(router, `/wc/v3${def.base}`, { list, create, get, update, delete: remove });
}

export function registerTerms(router: Router, store: Store): void {
  for (const def of TAXONOMIES) register(router, store, def);
}
