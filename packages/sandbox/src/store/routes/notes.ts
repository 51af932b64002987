import { type NoteRec, nextId, type OrderRec } from '../model/state.js';
import type { Store } from '../model/store.js';
import { wcDate } from '../model/util.js';
import { RestError } from '../wp/errors.js';
import { CONTEXT, validateParams } from '../wp/params.js';
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

export function presentNote(store: Store, n: NoteRec): Record<string, unknown> {
  return {
    id: n.id,
    author: n.author,
    date_created: wcDate(n.created),
    date_created_gmt: wcDate(n.created),
    note: n.note,
    customer_note: n.customer_note,
    _links: {
      self: [{ href: store.restUrl(`/orders/${n.order_id}/notes/${n.id}`) }],
      collection: [{ href: store.restUrl(`/orders/${n.order_id}/notes`) }],
      up: [{ href: store.restUrl(`/orders/${n.order_id}`) }],
    },
  };
}

/** WC_Order::add_order_note() as the system (author "WooCommerce"). */
export function addSystemNote(store: Store, orderId: number, note: string): void {
  const id = nextId(store.state, 'comment');
  store.state.notes.set(id, {
    id,
    order_id: orderId,
    created: store.now(),
    note,
    customer_note: false,
    author: 'WooCommerce',
  });
}

function orderFor(ctx: Ctx): OrderRec {
  const o = ctx.store.state.orders.get(idParam(ctx, 'order_id'));
  if (!o) throw new RestError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid order ID.');
  return o;
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, {
    context: CONTEXT,
    type: { type: 'string', enum: ['any', 'customer', 'internal'] },
  });
  requireCap(ctx, 'list');
  const o = orderFor(ctx);
  const type = (p.type as string | undefined) ?? 'any';
  const notes = [...ctx.store.state.notes.values()]
    .filter((n) => n.order_id === o.id)
    .filter((n) => type === 'any' || (type === 'customer' ? n.customer_note : !n.customer_note))
    .sort((a, b) => b.created - a.created || b.id - a.id);
  return { status: 200, body: notes.map((n) => presentNote(ctx.store, n)) };
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, {
    note: { type: 'string', required: true },
    customer_note: { type: 'boolean' },
    added_by_user: { type: 'boolean' },
  });
  requireCap(ctx, 'create');
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(400, 'woocommerce_rest_shop_order_exists', 'Cannot create existing shop_order.');
  }
  const o = orderFor(ctx);
  const store = ctx.store;
  const id = nextId(store.state, 'comment');
  const n: NoteRec = {
    id,
    order_id: o.id,
    created: store.now(),
    note: p.note as string,
    customer_note: p.customer_note === true,
    author: p.added_by_user === true ? 'admin' : 'WooCommerce',
  };
  store.state.notes.set(id, n);
  store.changed();
  return {
    status: 201,
    body: presentNote(store, n),
    headers: { Location: store.restUrl(`/orders/${o.id}/notes/${id}`) },
  };
}

function findNote(ctx: Ctx, o: OrderRec): NoteRec {
  const n = ctx.store.state.notes.get(idParam(ctx));
  if (!n || n.order_id !== o.id)
    throw new RestError(404, 'woocommerce_rest_invalid_id', 'Invalid resource ID.');
  return n;
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, { context: CONTEXT });
  requireCap(ctx, 'view');
  const o = orderFor(ctx);
  return { status: 200, body: presentNote(ctx.store, findNote(ctx, o)) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  requireCap(ctx, 'delete');
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
  }
  const o = orderFor(ctx);
  const n = findNote(ctx, o);
  const body = presentNote(ctx.store, n);
  ctx.store.state.notes.delete(n.id);
  ctx.store.changed();
  return { status: 200, body };
}

export function registerNotes(router: Router): void {
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes', READABLE, list);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes', CREATABLE, create);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes/(?P<id>[\\d]+)', READABLE, get);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes/(?P<id>[\\d]+)', DELETABLE, remove);
}
