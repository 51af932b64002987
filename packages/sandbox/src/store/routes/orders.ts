import { storeCurrency } from '../data/options.js';
import type { OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { createOrder, deleteOrder, updateOrder } from '../orders/orders.js';
import { presentOrder } from '../present/orders.js';
import { priceDecimals } from '../pricing/tax-math.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { checkFormattingMemory, responseDecimals } from '../runtime/numbers.js';
import { FORCE } from './params/common.js';
import { DP_SPECS, ORDER_LIST_SPECS, ORDER_SPECS, orderArgs } from './params/orders.js';

function invalidId(status: number): RestError {
  return new RestError(status, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
}

/** The money fields an order's response formats with `dp` (order totals, per line, per refund). */
function moneyFields(o: OrderRec): number {
  return (
    7 + 4 * o.line_items.length + 2 * (o.shipping_lines.length + o.fee_lines.length) + o.refund_ids.length
  );
}

/**
 * Presents orders with the request's `dp`: absint and unbounded, as in WooCommerce, so a `dp` whose padded
 * amounts would pass PHP's memory is the fatal error a real site answers, checked before each order is built.
 */
function presenter(store: Store, p: Record<string, unknown>): (o: OrderRec) => unknown {
  const dp = responseDecimals(p.dp, priceDecimals(store));
  let fields = 0;
  return (o) => {
    fields += moneyFields(o);
    checkFormattingMemory(fields, dp);
    return presentOrder(store, o, dp);
  };
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ORDER_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.orders.values()];
  const statuses = Array.isArray(p.status) && p.status.length > 0 ? (p.status as string[]) : ['any'];
  items = items.filter(
    (o) => (statuses.includes('any') && o.status !== 'trash') || statuses.includes(o.status),
  );
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.customer === 'number') items = items.filter((o) => o.customer_id === p.customer);
  if (typeof p.product === 'number') {
    const pid = p.product;
    items = items.filter((o) => o.line_items.some((li) => li.product_id === pid || li.variation_id === pid));
  }
  if (Array.isArray(p.parent) && p.parent.length > 0)
    items = items.filter((o) => (p.parent as number[]).includes(o.parent_id));
  if (Array.isArray(p.parent_exclude) && p.parent_exclude.length > 0) {
    items = items.filter((o) => !(p.parent_exclude as number[]).includes(o.parent_id));
  }
  if (Array.isArray(p.created_via) && p.created_via.length > 0) {
    items = items.filter((o) => (p.created_via as string[]).includes(o.created_via));
  }
  if (typeof p.search === 'string' && p.search !== '') {
    items = items.filter((o) =>
      searchMatch(
        p.search,
        String(o.id),
        ...Object.values(o.billing),
        ...Object.values(o.shipping),
        ...o.line_items.map((li) => li.name),
      ),
    );
  }
  const keys: Record<string, (o: OrderRec) => number> = {
    date: (o) => o.created,
    id: (o) => o.id,
    title: (o) => o.id,
    slug: (o) => o.id,
    modified: (o) => o.modified,
  };
  items = sortByParams(items, p, keys, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, presenter(store, p));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ORDER_SPECS);
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_shop_order_exists', 'Cannot create existing shop_order.');
  }
  const o = createOrder(ctx.store, orderArgs(p, storeCurrency(ctx.store)));
  return {
    status: 201,
    body: presentOrder(ctx.store, o),
    headers: { Location: ctx.store.restUrl(`/orders/${o.id}`) },
  };
}

function get(ctx: Ctx): Result {
  const p = validateParams(ctx.params, DP_SPECS);
  const o = ctx.store.state.orders.get(idParam(ctx));
  if (o) requireCap(ctx, 'view');
  if (!o) throw invalidId(404);
  return { status: 200, body: presenter(ctx.store, p)(o) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ORDER_SPECS);
  const o = ctx.store.state.orders.get(idParam(ctx));
  if (o) requireCap(ctx, 'edit');
  if (!o) throw invalidId(400);
  updateOrder(ctx.store, o, orderArgs(p, storeCurrency(ctx.store)));
  return { status: 200, body: presenter(ctx.store, p)(o) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  const o = ctx.store.state.orders.get(idParam(ctx));
  if (o) requireCap(ctx, 'delete');
  if (!o) throw invalidId(404);
  const body = presentOrder(ctx.store, o);
  deleteOrder(ctx.store, o, p.force === true);
  return { status: 200, body };
}

export function registerOrders(router: Router): void {
  registerCrud(router, '/wc/v3/orders', { list, create, get, update, delete: remove });
}
