import { applyMeta } from '../data/meta.js';
import type { CustomerRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { ADMIN_USER_ID, nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { applyAddress, blankAddress } from './addresses.js';

/** The name customers sort and search by: first and last name, else the username. */
export function displayName(c: CustomerRec): string {
  const full = `${c.first_name} ${c.last_name}`.trim();
  return full || c.username;
}

/** Emails are unique among users, the admin (admin@example.com) included. */
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

/** Customers are users with id > 0; user 1 (the admin) is not one of them. */
export function findCustomer(store: Store, id: number): CustomerRec | undefined {
  return id > 0 ? store.state.customers.get(id) : undefined;
}

function applyCustomer(store: Store, c: CustomerRec, p: Record<string, unknown>): void {
  if (typeof p.first_name === 'string') c.first_name = p.first_name;
  if (typeof p.last_name === 'string') c.last_name = p.last_name;
  applyAddress(c.billing, p.billing);
  applyAddress(c.shipping, p.shipping);
  if (p.meta_data !== undefined) c.meta_data = applyMeta(store, c.meta_data, p.meta_data);
  c.modified = store.now();
}

/** wc_create_new_customer() from a validated body: unique email, given or generated unique username. */
export function createCustomer(store: Store, p: Record<string, unknown>): CustomerRec {
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
  applyCustomer(store, c, p);
  c.id = nextId(store.state, 'user');
  store.state.customers.set(c.id, c);
  store.changed('customers', c.id);
  store.emit('customer', 'created', c.id);
  return c;
}

/** Updates a copy that replaces the customer once the body applied: the email stays unique, the username fixed. */
export function updateCustomer(store: Store, existing: CustomerRec, p: Record<string, unknown>): CustomerRec {
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
  applyCustomer(store, c, p);
  store.state.customers.set(c.id, c);
  store.changed('customers', c.id);
  store.emit('customer', 'updated', c.id);
  return c;
}

/** wp_delete_user(): the customer's orders go to `reassign` (an existing user) or to guest (0). */
export function deleteCustomer(store: Store, c: CustomerRec, reassign: number): void {
  const id = c.id;
  if (reassign && (reassign === id || (reassign !== ADMIN_USER_ID && !store.state.customers.has(reassign)))) {
    throw new RestError(
      400,
      'woocommerce_rest_customer_invalid_reassign',
      'Invalid resource id for reassignment.',
    );
  }
  store.state.customers.delete(id);
  store.changed('customers', id);
  for (const o of store.state.orders.values()) {
    if (o.customer_id !== id) continue;
    o.customer_id = reassign;
    store.changed('orders', o.id);
  }
  store.emit('customer', 'deleted', id);
}
