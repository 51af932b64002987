import {
  createCustomer,
  deleteCustomer,
  displayName,
  findCustomer,
  updateCustomer,
} from '../customers/customers.js';
import type { CustomerRec } from '../data/rows.js';
import { presentCustomer } from '../present/customers.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, READABLE, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { VIEW } from './params/common.js';
import { CUSTOMER_DELETE_SPECS, CUSTOMER_LIST_SPECS, customerSpecs } from './params/customers.js';

function notFound(): RestError {
  return new RestError(404, 'wc_user_invalid_id', 'Invalid user ID.');
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, CUSTOMER_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = filterIncludeExclude([...store.state.customers.values()], p);
  const role = (p.role as string | undefined) ?? 'customer';
  if (role !== 'all') items = items.filter((c) => c.role === role);
  if (typeof p.email === 'string')
    items = items.filter((c) => c.email.toLowerCase() === (p.email as string).toLowerCase());
  if (typeof p.search === 'string' && p.search !== '') {
    items = items.filter((c) => searchMatch(p.search, c.email, c.username, displayName(c)));
  }
  const keys: Record<string, (c: CustomerRec) => string | number> = {
    id: (c) => c.id,
    name: (c) => displayName(c),
    registered_date: (c) => c.created,
  };
  items = sortByParams(items, p, keys, { orderby: 'name', order: 'asc' });
  return pagedResult(ctx, items, (c) => presentCustomer(store, c));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, customerSpecs(true));
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_customer_exists', 'Cannot create existing resource.');
  }
  const c = createCustomer(ctx.store, p);
  return {
    status: 201,
    body: presentCustomer(ctx.store, c),
    headers: { Location: ctx.store.restUrl(`/customers/${c.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'view');
  const c = findCustomer(ctx.store, idParam(ctx));
  if (!c) throw notFound();
  return { status: 200, body: presentCustomer(ctx.store, c) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, customerSpecs(false));
  requireCap(ctx, 'edit');
  const existing = findCustomer(ctx.store, idParam(ctx));
  if (!existing) throw notFound();
  return { status: 200, body: presentCustomer(ctx.store, updateCustomer(ctx.store, existing, p)) };
}

// Users cannot be trashed: without `force=true` the request fails before the id is even looked up.
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, CUSTOMER_DELETE_SPECS);
  requireCap(ctx, 'delete');
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Customers do not support trashing.');
  }
  const c = findCustomer(ctx.store, idParam(ctx));
  if (!c) throw notFound();
  const body = presentCustomer(ctx.store, c);
  deleteCustomer(ctx.store, c, typeof p.reassign === 'number' ? p.reassign : 0);
  return { status: 200, body };
}

export function registerCustomers(router: Router): void {
  registerCrud(router, '/wc/v3/customers', { list, create, get, update, delete: remove });
  router.add('/wc/v3/customers/(?P<id>[\\d]+)/downloads', READABLE, (ctx) => {
    requireCap(ctx, 'list');
    if (!findCustomer(ctx.store, idParam(ctx))) throw notFound();
    return { status: 200, body: [] };
  });
}
