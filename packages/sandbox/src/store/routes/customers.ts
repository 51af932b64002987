import { createHash } from 'node:crypto';
import { ADMIN_USER_ID, type CustomerRec, nextId } from '../model/state.js';
import type { Store } from '../model/store.js';
import { wcDate } from '../model/util.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { CONTEXT, META_DATA, type Specs, validateParams } from '../wp/params.js';
import { type Ctx, idParam, READABLE, type Result, type Router, requireCap } from '../wp/router.js';
import { applyAddress, BILLING_SPEC, blankAddress, SHIPPING_SPEC } from './orders.js';
import { applyMeta } from './products.js';

const ROLES = [
  'all',
  'administrator',
  'editor',
  'author',
  'contributor',
  'subscriber',
  'customer',
  'shop_manager',
];

function specs(creating: boolean): Specs {
  return {
    email: { type: 'string', format: 'email', required: creating },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    billing: BILLING_SPEC,
    shipping: SHIPPING_SPEC,
    meta_data: META_DATA,
  };
}

const LIST_SPECS: Specs = {
  context: CONTEXT,
  page: { type: 'integer', min: 1 },
  per_page: { type: 'integer', min: 1, max: 100 },
  search: { type: 'string' },
  exclude: { type: 'array', items: { type: 'integer' } },
  include: { type: 'array', items: { type: 'integer' } },
  offset: { type: 'integer' },
  order: { type: 'string', enum: ['asc', 'desc'] },
  orderby: { type: 'string', enum: ['id', 'include', 'name', 'registered_date'] },
  email: { type: 'string', format: 'email' },
  role: { type: 'string', enum: ROLES },
};

function displayName(c: CustomerRec): string {
  const full = `${c.first_name} ${c.last_name}`.trim();
  return full || c.username;
}

export function presentCustomer(store: Store, c: CustomerRec): Record<string, unknown> {
  const hash = createHash('md5').update(c.email.trim().toLowerCase()).digest('hex');
  return {
    id: c.id,
    date_created: wcDate(c.created),
    date_created_gmt: wcDate(c.created),
    date_modified: wcDate(c.modified),
    date_modified_gmt: wcDate(c.modified),
    email: c.email,
    first_name: c.first_name,
    last_name: c.last_name,
    role: c.role,
    username: c.username,
    billing: c.billing,
    shipping: c.shipping,
    is_paying_customer: c.is_paying_customer,
    avatar_url: `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`,
    meta_data: c.meta_data,
    _links: {
      self: [{ href: store.restUrl(`/customers/${c.id}`) }],
      collection: [{ href: store.restUrl('/customers') }],
    },
  };
}

function emailTaken(store: Store, email: string, selfId: number): boolean {
  const e = email.toLowerCase();
  for (const c of store.state.customers.values())
    if (c.id !== selfId && c.email.toLowerCase() === e) return true;
  return e === 'admin@example.com' && selfId !== ADMIN_USER_ID;
}

function usernameTaken(store: Store, username: string, selfId: number): boolean {
  const u = username.toLowerCase();
  if (u === 'admin') return true;
  for (const c of store.state.customers.values())
    if (c.id !== selfId && c.username.toLowerCase() === u) return true;
  return false;
}

/** wc_create_new_customer_username(): the email's local part, made unique with a numeric suffix. */
function generateUsername(store: Store, email: string): string {
  const base = (email.split('@')[0] ?? 'user').toLowerCase().replace(/[^a-z0-9_.-]/g, '') || 'user';
  if (!usernameTaken(store, base, 0)) return base;
  for (let i = 1; ; i++) if (!usernameTaken(store, `${base}${i}`, 0)) return `${base}${i}`;
}

function notFound(): RestError {
  return new RestError(404, 'wc_user_invalid_id', 'Invalid user ID.');
}

function findCustomer(store: Store, id: number): CustomerRec | undefined {
  return id > 0 ? store.state.customers.get(id) : undefined;
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, LIST_SPECS);
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

function apply(store: Store, c: CustomerRec, p: Record<string, unknown>): void {
  if (typeof p.first_name === 'string') c.first_name = p.first_name;
  if (typeof p.last_name === 'string') c.last_name = p.last_name;
  applyAddress(c.billing, p.billing);
  applyAddress(c.shipping, p.shipping);
  if (p.meta_data !== undefined) c.meta_data = applyMeta(store, c.meta_data, p.meta_data);
  c.modified = store.now();
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, specs(true));
  requireCap(ctx, 'create');
  const store = ctx.store;
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(400, 'woocommerce_rest_customer_exists', 'Cannot create existing resource.');
  }
  const email = (p.email as string).trim();
  if (email === '')
    throw new RestError(400, 'registration-error-invalid-email', 'Please provide a valid email address.');
  if (emailTaken(store, email, 0)) {
    throw new RestError(
      400,
      'registration-error-email-exists',
      'An account is already registered with your email address. <a href="#" class="showlogin">Please log in.</a>',
    );
  }
  let username = typeof p.username === 'string' ? p.username.trim() : '';
  if (username) {
    if (usernameTaken(store, username, 0)) {
      throw new RestError(
        400,
        'registration-error-username-exists',
        'An account is already registered with that username. Please choose another.',
      );
    }
  } else username = generateUsername(store, email);
  const now = store.now();
  const c: CustomerRec = {
    id: 0,
    created: now,
    modified: now,
    email,
    first_name: '',
    last_name: '',
    role: 'customer',
    username,
    billing: blankAddress(true),
    shipping: blankAddress(false),
    is_paying_customer: false,
    meta_data: [],
  };
  apply(store, c, p);
  c.id = nextId(store.state, 'user');
  store.state.customers.set(c.id, c);
  store.changed();
  store.emit('customer', 'created', c.id);
  return {
    status: 201,
    body: presentCustomer(store, c),
    headers: { Location: store.restUrl(`/customers/${c.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, { context: CONTEXT });
  requireCap(ctx, 'view');
  const c = findCustomer(ctx.store, idParam(ctx));
  if (!c) throw notFound();
  return { status: 200, body: presentCustomer(ctx.store, c) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, specs(false));
  requireCap(ctx, 'edit');
  const store = ctx.store;
  const existing = findCustomer(store, idParam(ctx));
  if (!existing) throw notFound();
  const c = structuredClone(existing);
  if (typeof p.email === 'string' && p.email !== c.email) {
    if (emailTaken(store, p.email, c.id)) {
      throw new RestError(400, 'woocommerce_rest_customer_invalid_email', 'Email address is invalid.');
    }
    c.email = p.email;
  }
  if (typeof p.username === 'string' && p.username !== '' && p.username !== c.username) {
    throw new RestError(400, 'woocommerce_rest_customer_invalid_argument', "Username isn't editable.");
  }
  apply(store, c, p);
  store.state.customers.set(c.id, c);
  store.changed();
  store.emit('customer', 'updated', c.id);
  return { status: 200, body: presentCustomer(store, c) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, {
    force: { type: 'boolean' },
    reassign: { type: 'integer', nullable: true },
  });
  requireCap(ctx, 'delete');
  const store = ctx.store;
  const id = idParam(ctx);
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Customers do not support trashing.');
  }
  const c = findCustomer(store, id);
  if (!c) throw notFound();
  const reassign = typeof p.reassign === 'number' ? p.reassign : 0;
  if (reassign && (reassign === id || (reassign !== ADMIN_USER_ID && !store.state.customers.has(reassign)))) {
    throw new RestError(
      400,
      'woocommerce_rest_customer_invalid_reassign',
      'Invalid resource id for reassignment.',
    );
  }
  const body = presentCustomer(store, c);
  store.state.customers.delete(id);
  for (const o of store.state.orders.values()) if (o.customer_id === id) o.customer_id = reassign;
  store.changed();
  store.emit('customer', 'deleted', id);
  return { status: 200, body };
}

export function registerCustomers(router: Router, store: Store): void {
  store.presenters.customer = (id) => {
    const c = store.state.customers.get(id);
    return c ? presentCustomer(store, c) : null;
  };
  registerCrud(router, '/wc/v3/customers', { list, create, get, update, delete: remove });
  router.add('/wc/v3/customers/(?P<id>[\\d]+)/downloads', READABLE, (ctx) => {
    requireCap(ctx, 'list');
    if (!findCustomer(ctx.store, idParam(ctx))) throw notFound();
    return { status: 200, body: [] };
  });
}
