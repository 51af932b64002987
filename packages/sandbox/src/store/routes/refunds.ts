import type { OrderRec, RefundRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { createRefund, deleteRefund } from '../orders/refunds.js';
import { presentRefund } from '../present/refunds.js';
import { priceDecimals } from '../pricing/tax-math.js';
import { filterDates, filterIncludeExclude, pagedResult, sortBy } from '../rest/list.js';
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
import { checkFormattingMemory, responseDecimals } from '../runtime/numbers.js';
import { FORCE } from './params/common.js';
import { REFUND_GET_SPECS, REFUND_LIST_SPECS, REFUND_SPECS } from './params/refunds.js';

// The refund controller's errors carry the status as a bare `data` int (bareData), unlike the others.
function orderFor(ctx: Ctx): OrderRec {
  const o = ctx.store.state.orders.get(idParam(ctx, 'order_id'));
  if (!o)
    throw new RestError(404, 'woocommerce_rest_invalid_order_id', 'Invalid order ID.', null, {
      bareData: true,
    });
  return o;
}

function refundFor(ctx: Ctx, o: OrderRec): RefundRec {
  const r = ctx.store.state.refunds.get(idParam(ctx));
  if (!r || r.order_id !== o.id) {
    throw new RestError(404, 'woocommerce_rest_invalid_order_refund_id', 'Invalid order refund ID.', null, {
      bareData: true,
    });
  }
  return r;
}

/** Presents refunds with the request's `dp` (absint, unbounded; see the orders route), amount and lines. */
function presenter(store: Store, p: Record<string, unknown>): (r: RefundRec) => unknown {
  const dp = responseDecimals(p.dp, priceDecimals(store));
  let fields = 0;
  return (r) => {
    fields += 1 + 4 * r.line_items.length;
    checkFormattingMemory(fields, dp);
    return presentRefund(store, r, dp);
  };
}

/** One order's refunds (`scoped`), or every refund (`GET /refunds`). */
function list(ctx: Ctx, scoped: boolean): Result {
  const p = validateParams(ctx.params, REFUND_LIST_SPECS);
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
  return pagedResult(ctx, items, presenter(store, p));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, REFUND_SPECS);
  requireCap(ctx, 'create');
  const o = orderFor(ctx);
  const r = createRefund(ctx.store, o, p);
  return {
    status: 201,
    body: presentRefund(ctx.store, r),
    headers: { Location: ctx.store.restUrl(`/orders/${o.id}/refunds/${r.id}`) },
  };
}

function get(ctx: Ctx): Result {
  const p = validateParams(ctx.params, REFUND_GET_SPECS);
  requireCap(ctx, 'view');
  const o = orderFor(ctx);
  return {
    status: 200,
    body: presenter(ctx.store, p)(refundFor(ctx, o)),
  };
}

// The refund route declares `force` with a default of true, so only an explicit `force=false` is refused.
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireCap(ctx, 'delete');
  const o = orderFor(ctx);
  const r = refundFor(ctx, o);
  if (p.force === false) {
    throw new RestError(
      501,
      'woocommerce_rest_trash_not_supported',
      'The shop_order_refund does not support trashing.',
    );
  }
  const body = presentRefund(ctx.store, r);
  deleteRefund(ctx.store, o, r);
  return { status: 200, body };
}

export function registerRefunds(router: Router): void {
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds', READABLE, (ctx) => list(ctx, true));
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds', CREATABLE, create);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds/(?P<id>[\\d]+)', READABLE, get);
  router.add('/wc/v3/orders/(?P<order_id>[\\d]+)/refunds/(?P<id>[\\d]+)', DELETABLE, remove);
  router.add('/wc/v3/refunds', READABLE, (ctx) => list(ctx, false));
}
