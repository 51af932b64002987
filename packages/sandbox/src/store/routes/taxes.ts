import type { TaxRateRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { presentTaxClass, presentTaxRate } from '../present/taxes.js';
import {
  createTaxClass,
  createTaxRate,
  deleteTaxClass,
  deleteTaxRate,
  findTaxClass,
  joinLocations,
  STANDARD_CLASS,
  taxClasses,
  updateTaxRate,
} from '../pricing/taxes.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { pagedResult, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import {
  CREATABLE,
  type Ctx,
  DELETABLE,
  idParam,
  READABLE,
  type Result,
  type Router,
  requireCap,
} from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { sanitizeTitle } from '../runtime/formatting.js';
import { absint } from '../runtime/numbers.js';
import { FORCE, VIEW } from './params/common.js';
import {
  TAX_CLASS_CREATE_SPECS,
  TAX_RATE_CREATE_DEFAULTS,
  taxListSpecs,
  taxRateSpecs,
} from './params/taxes.js';

// WC_REST_Taxes_V1_Controller answers a missing rate with 404 on get/update but 400 on delete.
function notFound(status: 400 | 404): RestError {
  return new RestError(status, 'woocommerce_rest_invalid_id', 'Invalid resource ID.');
}

const NO_TRASH = (): RestError =>
  new RestError(501, 'woocommerce_rest_trash_not_supported', 'Taxes do not support trashing.');

/** WC_REST_Taxes_V1_Controller::get_items(): `ORDER BY tax_rate_{orderby} {order}`, optionally one class. */
function list(ctx: Ctx): Result {
  const store = ctx.store;
  const p = validateParams(ctx.params, taxListSpecs(store));
  requireCap(ctx, 'list');
  const perPage = typeof p.per_page === 'number' ? absint(p.per_page) : 10;
  // A non-empty offset wins over page, and the Link header's page is computed back from it.
  const offset = absint(p.offset);
  if (offset > 0) {
    p.offset = offset;
    p.page = Math.ceil(offset / perPage + 1);
  } else delete p.offset;
  ctx.params = p;
  let items = [...store.state.tax_rates.values()];
  if (typeof p.class === 'string' && p.class !== '') {
    const slug = p.class === 'standard' ? '' : sanitizeTitle(p.class);
    items = items.filter((t) => t.class === slug);
  }
  const keys: Record<string, (t: TaxRateRec) => number> = {
    id: (t) => t.id,
    order: (t) => t.order,
    priority: (t) => t.priority,
  };
  items = sortByParams(items, p, keys, { orderby: 'order', order: 'asc' });
  return pagedResult(ctx, items, (t) => presentTaxRate(store, t));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, taxRateSpecs(ctx.store));
  requireCap(ctx, 'create');
  if (namesId(ctx))
    throw new RestError(400, 'woocommerce_rest_tax_exists', 'Cannot create existing resource.');
  const t = createTaxRate(ctx.store, joinLocations({ ...TAX_RATE_CREATE_DEFAULTS, ...p }));
  return {
    status: 201,
    body: presentTaxRate(ctx.store, t),
    headers: { Location: ctx.store.restUrl(`/taxes/${t.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'view');
  const t = ctx.store.state.tax_rates.get(idParam(ctx));
  if (!t) throw notFound(404);
  return { status: 200, body: presentTaxRate(ctx.store, t) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, taxRateSpecs(ctx.store));
  requireCap(ctx, 'edit');
  const t = ctx.store.state.tax_rates.get(idParam(ctx));
  if (!t) throw notFound(404);
  return { status: 200, body: presentTaxRate(ctx.store, updateTaxRate(ctx.store, t, joinLocations(p))) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireCap(ctx, 'delete');
  if (p.force !== true) throw NO_TRASH();
  const t = ctx.store.state.tax_rates.get(idParam(ctx));
  if (!t) throw notFound(400);
  const body = presentTaxRate(ctx.store, t);
  deleteTaxRate(ctx.store, t);
  return { status: 200, body };
}

/** WC_REST_Tax_Classes_V1_Controller::get_items(): "Standard rate" first, then the classes by name. */
function listClasses(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'list');
  const store = ctx.store;
  const all = [STANDARD_CLASS, ...taxClasses(store)];
  return { status: 200, body: all.map((c) => presentTaxClass(store, c, 'slug-first')) };
}

function createClass(ctx: Ctx): Result {
  const p = validateParams(ctx.params, TAX_CLASS_CREATE_SPECS);
  requireCap(ctx, 'create');
  const c = createTaxClass(ctx.store, p.name as string);
  return {
    status: 201,
    body: presentTaxClass(ctx.store, c, 'name-first'),
    headers: { Location: ctx.store.restUrl(`/taxes/classes/${c.slug}`) },
  };
}

/**
 * WC_REST_Tax_Classes_V2_Controller::get_item(): a list holding the class, or an empty list when no class has
 * that slug (never a 404). It declares no args, so `context` is not checked, and uses the list permission.
 */
function getClass(ctx: Ctx): Result {
  requireCap(ctx, 'list');
  const store = ctx.store;
  const raw = ctx.urlParams.slug ?? '';
  if (raw === 'standard')
    return { status: 200, body: [presentTaxClass(store, STANDARD_CLASS, 'slug-first')] };
  const c = findTaxClass(store, sanitizeTitle(raw));
  return { status: 200, body: c ? [presentTaxClass(store, c, 'name-first')] : [] };
}

/** WC_REST_Tax_Classes_V1_Controller::delete_item(): `force` first, then WC_Tax::delete_tax_class_by(). */
function deleteClass(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireCap(ctx, 'delete');
  if (p.force !== true) throw NO_TRASH();
  const c = deleteTaxClass(ctx.store, sanitizeTitle(ctx.urlParams.slug ?? ''));
  return { status: 200, body: presentTaxClass(ctx.store, c, 'name-first') };
}

/** `/taxes/classes` (registered first, as WooCommerce's `tax-classes` controller is) and `/taxes`. */
export function registerTaxes(router: Router, _store: Store): void {
  const classes = '/wc/v3/taxes/classes';
  router.add(classes, READABLE, listClasses);
  router.add(classes, CREATABLE, createClass);
  router.add(`${classes}/(?P<slug>\\w[\\w\\s\\-]*)`, READABLE, getClass);
  router.add(`${classes}/(?P<slug>\\w[\\w\\s\\-]*)`, DELETABLE, deleteClass);
  registerCrud(router, '/wc/v3/taxes', { list, create, get, update, delete: remove });
}
