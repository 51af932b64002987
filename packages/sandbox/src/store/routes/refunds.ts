import { ADMIN_USER_ID, nextId, type OrderRec, type RefundLineItem, type RefundRec } from '../model/state.js';
import type { Store } from '../model/store.js';
import { isPlainObject, money, toNumber, wcDate } from '../model/util.js';
import { RestError } from '../wp/errors.js';
import { filterDates, filterIncludeExclude, pagedResult, sortBy } from '../wp/list.js';
import { CONTEXT, collectionSpecs, META_DATA, validateParams } from '../wp/params.js';
import {
  CREATABLE,
  type Ctx,
  DELETABLE,
  idParam,
  READABLE,
  type Result,
  type Router,
  requireCap,
} from '../wp/router.js';
import { addSystemNote } from './notes.js';
import { adjustStock } from './orders.js';
import { applyMeta } from './products.js';

/** Gateways that exist in a stock install but do not support automatic refunds. */
const OFFLINE_GATEWAYS = new Set(['bacs', 'cheque', 'cod']);

export function presentRefund(store: Store, r: RefundRec, dpIn?: number): Record<string, unknown> {
  const dp = dpIn ?? 2;
  return {
    id: r.id,
    date_created: wcDate(r.created),
    date_created_gmt: wcDate(r.created),
    amount: money(r.amount, dp),
    reason: r.reason,
    refunded_by: r.refunded_by,
    refunded_payment: r.refunded_payment,
    meta_data: r.meta_data,
    line_items: r.line_items.map((li) => ({
      id: li.id,
      name: li.name,
      product_id: li.product_id,
      variation_id: li.variation_id,
      quantity: li.quantity,
      tax_class: '',
      subtotal: money(li.subtotal, dp),
      subtotal_tax: money(0, dp),
      total: money(li.total, dp),
      total_tax: money(0, dp),
      taxes: [],
      meta_data: [
        {
          id: 0,
          key: '_refunded_item_id',
          value: String(li.refunded_item_id),
          display_key: '_refunded_item_id',
          display_value: String(li.refunded_item_id),
        },
      ],
      sku: li.sku,
      price: li.quantity ? li.total / li.quantity : 0,
    })),
    shipping_lines: [],
    tax_lines: [],
    fee_lines: [],
    _links: {
      self: [{ href: store.restUrl(`/orders/${r.order_id}/refunds/${r.id}`) }],
      collection: [{ href: store.restUrl(`/orders/${r.order_id}/refunds`) }],
      up: [{ href: store.restUrl(`/orders/${r.order_id}`) }],
    },
  };
}

function orderFor(ctx: Ctx): OrderRec {
  const o = ctx.store.state.orders.get(idParam(ctx, 'order_id'));
  if (!o)
    throw new RestError(404, 'woocommerce_rest_invalid_order_id', 'Invalid order ID.', null, {
      bareData: true,
    });
  return o;
}

function refundedTotal(store: Store, o: OrderRec): number {
  return o.refund_ids.reduce((s, id) => s + (store.state.refunds.get(id)?.amount ?? 0), 0);
}

function cannotCreate(message: string): RestError {
  return new RestError(500, 'woocommerce_rest_cannot_create_order_refund', message, null, { bareData: true });
}

function list(ctx: Ctx, scoped: boolean): Result {
  const p = validateParams(ctx.params, {
    ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified']),
    dp: { type: 'integer' },
  });
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.refunds.values()].map((r) => ({ ...r, modified: r.created }));
  if (scoped) {
    const o = orderFor(ctx);
    items = items.filter((r) => r.order_id === o.id);
  }
  items = filterIncludeExclude(filterDates(items, p), p);
  const order = (p.order as 'asc' | 'desc' | undefined) ?? 'desc';
  const orderby = (p.orderby as string | undefined) ?? 'date';
  items =
    orderby === 'include'
      ? sortBy(items, 'include', order, p.include as number[] | undefined)
      : sortBy(items, orderby === 'date' || orderby === 'modified' ? (r) => r.created : (r) => r.id, order);
  const dp = typeof p.dp === 'number' ? Math.abs(p.dp) : undefined;
  return pagedResult(ctx, items, (r) => presentRefund(store, r, dp));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, {
    amount: { type: 'string' },
    reason: { type: 'string' },
    refunded_by: { type: 'integer' },
    meta_data: META_DATA,
    line_items: { type: 'array', items: { type: 'object' } },
    api_refund: { type: 'boolean' },
    api_restock: { type: 'boolean' },
  });
  requireCap(ctx, 'create');
  const store = ctx.store;
  const o = orderFor(ctx);
  const lines: RefundLineItem[] = [];
  let lineTotal = 0;
  for (const raw of (p.line_items as unknown[] | undefined) ?? []) {
    if (!isPlainObject(raw)) continue;
    const itemId = Number(raw.id);
    const li = o.line_items.find((x) => x.id === itemId);
    if (!li) continue;
    const qty = Math.max(0, Math.trunc(toNumber(raw.quantity)));
    const total = toNumber(raw.refund_total);
    if (qty === 0 && total === 0) continue;
    lineTotal += total;
    lines.push({
      id: nextId(store.state, 'item'),
      name: li.name,
      product_id: li.product_id,
      variation_id: li.variation_id,
      quantity: -qty,
      subtotal: -total,
      total: -total,
      sku: li.sku,
      refunded_item_id: li.id,
    });
  }
  const amount = p.amount !== undefined && p.amount !== '' ? toNumber(p.amount) : lineTotal;
  if (amount < 0) {
    throw new RestError(
      400,
      'woocommerce_rest_invalid_order_refund',
      'Refund amount must be greater than zero.',
      null,
      { bareData: true },
    );
  }
  const remaining = Math.round((o.total - refundedTotal(store, o)) * 100) / 100;
  if (amount <= 0 || amount > remaining) throw cannotCreate('Invalid refund amount.');
  const apiRefund = typeof p.api_refund === 'boolean' ? p.api_refund : true;
  if (apiRefund) {
    if (!OFFLINE_GATEWAYS.has(o.payment_method))
      throw cannotCreate('The payment gateway for this order does not exist.');
    throw cannotCreate('The payment gateway for this order does not support automatic refunds.');
  }
  const id = nextId(store.state, 'post');
  const r: RefundRec = {
    id,
    order_id: o.id,
    created: store.now(),
    amount,
    reason: typeof p.reason === 'string' ? p.reason : '',
    refunded_by: typeof p.refunded_by === 'number' ? p.refunded_by : ADMIN_USER_ID,
    refunded_payment: false,
    meta_data: applyMeta(store, [], p.meta_data),
    line_items: lines,
  };
  store.state.refunds.set(id, r);
  o.refund_ids.unshift(id);
  // wc_create_refund() always restocks the refunded quantities (restock_items => true in the REST controller).
  if (p.api_restock !== false && o.stock_reduced) {
    adjustStock(
      store,
      lines.map((l) => ({ product_id: l.product_id, variation_id: l.variation_id, quantity: -l.quantity })),
      1,
    );
  }
  addSystemNote(store, o.id, `Refunded ${money(amount)} \u2013 ${r.reason || 'no reason given'}`);
  if (Math.round((remaining - amount) * 100) / 100 <= 0) {
    o.status = 'refunded';
  }
  o.modified = store.now();
  store.changed();
  store.emit('order', 'updated', o.id);
  return {
    status: 201,
    body: presentRefund(store, r),
    headers: { Location: store.restUrl(`/orders/${o.id}/refunds/${id}`) },
  };
}

function findRefund(ctx: Ctx, o: OrderRec): RefundRec {
  const r = ctx.store.state.refunds.get(idParam(ctx));
  if (!r || r.order_id !== o.id) {
    throw new RestError(404, 'woocommerce_rest_invalid_order_refund_id', 'Invalid order refund ID.', null, {
      bareData: true,
    });
  }
  return r;
}

function get(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { context: CONTEXT, dp: { type: 'integer' } });
  requireCap(ctx, 'view');
  const o = orderFor(ctx);
  return {
    status: 200,
    body: presentRefund(ctx.store, findRefund(ctx, o), typeof p.dp === 'number' ? p.dp : undefined),
  };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  requireCap(ctx, 'delete');
  const o = orderFor(ctx);
  const r = findRefund(ctx, o);
  if (p.force === false) {
    throw new RestError(
      501,
      'woocommerce_rest_trash_not_supported',
      'The shop_order_refund does not support trashing.',
    );
  }
  const body = presentRefund(ctx.store, r);
  ctx.store.state.refunds.delete(r.id);
  o.refund_ids = o.refund_ids.filter((x) => x !== r.id);
  ctx.store.changed();
  return { status: 200, body };
}

export function registerRefunds(router: Router): void {
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds', READABLE, (ctx) => list(ctx, true));
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds', CREATABLE, create);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds/(?P<id>[\\d]+)', READABLE, get);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds/(?P<id>[\\d]+)', DELETABLE, remove);
  router.add('/wc/v3/refunds', READABLE, (ctx) => list(ctx, false));
}
