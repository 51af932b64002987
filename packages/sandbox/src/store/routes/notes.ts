import type { NoteRec, OrderRec } from '../data/order-rows.js';
import { createNote, deleteNote } from '../orders/notes.js';
import { presentNote } from '../present/notes.js';
import { namesId } from '../rest/crud.js';
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
import { FORCE, VIEW } from './params/common.js';
import { NOTE_LIST_SPECS, NOTE_SPECS } from './params/notes.js';

/** wp_comments.comment_content is a MySQL TEXT column. */
const COMMENT_CONTENT_BYTES = 65_535;

function orderFor(ctx: Ctx): OrderRec {
  const o = ctx.store.state.orders.get(idParam(ctx, 'order_id'));
  if (!o) throw new RestError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid order ID.');
  return o;
}

function noteFor(ctx: Ctx, o: OrderRec): NoteRec {
  const n = ctx.store.state.notes.get(idParam(ctx));
  if (!n || n.order_id !== o.id)
    throw new RestError(404, 'woocommerce_rest_invalid_id', 'Invalid resource ID.');
  return n;
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, NOTE_LIST_SPECS);
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
  const p = validateParams(ctx.params, NOTE_SPECS);
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_shop_order_exists', 'Cannot create existing shop_order.');
  }
  const o = orderFor(ctx);
  // The note is a comment, stored in wp_comments.comment_content (TEXT: 65,535 bytes). wpdb refuses a value
  // longer than its column (wpdb::process_fields), so add_order_note() returns 0 and the controller answers
  // 500 (class-wc-rest-order-notes-v1-controller.php, create_item).
  if (Buffer.byteLength(String(p.note), 'utf8') > COMMENT_CONTENT_BYTES) {
    throw new RestError(
      500,
      'woocommerce_api_cannot_create_order_note',
      'Cannot create order note, please try again.',
    );
  }
  const n = createNote(ctx.store, o, p);
  return {
    status: 201,
    body: presentNote(ctx.store, n),
    headers: { Location: ctx.store.restUrl(`/orders/${o.id}/notes/${n.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'view');
  const o = orderFor(ctx);
  return { status: 200, body: presentNote(ctx.store, noteFor(ctx, o)) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireCap(ctx, 'delete');
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
  }
  const o = orderFor(ctx);
  const n = noteFor(ctx, o);
  const body = presentNote(ctx.store, n);
  deleteNote(ctx.store, n);
  return { status: 200, body };
}

export function registerNotes(router: Router): void {
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes', READABLE, list);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes', CREATABLE, create);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes/(?P<id>[\\d]+)', READABLE, get);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/notes/(?P<id>[\\d]+)', DELETABLE, remove);
}
