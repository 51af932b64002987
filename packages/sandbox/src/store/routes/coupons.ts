import type { CouponRec } from '../data/rows.js';
import { presentCoupon } from '../present/coupons.js';
import {
  couponIdByCode,
  couponStatusFilter,
  createCoupon,
  deleteCoupon,
  updateCoupon,
} from '../pricing/coupons.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterDates, filterIncludeExclude, pagedResult, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { slugify } from '../runtime/formatting.js';
import { FORCE, VIEW } from './params/common.js';
import { COUPON_LIST_SPECS, couponSpecs } from './params/coupons.js';

/** WC_REST_CRUD_Controller's "woocommerce_rest_{post_type}_invalid_id": 404 on get and delete, 400 on update. */
function invalidId(status: number): RestError {
  return new RestError(status, 'woocommerce_rest_shop_coupon_invalid_id', 'Invalid ID.');
}

/**
 * WP_Query's `s`: each space-separated term must appear in the title (the code), excerpt (the description) or
 * content, case-insensitively; a term with a leading `-` must not.
 */
function searchFilter(search: string): (c: CouponRec) => boolean {
  const terms = search
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '' && t !== '-');
  return (c) => {
    const text = `${c.code}\n${c.description.toLowerCase()}`;
    return terms.every((t) => (t.startsWith('-') ? !text.includes(t.slice(1)) : text.includes(t)));
  };
}

/** WC_REST_Coupons_Controller::prepare_objects_query() over WC_REST_CRUD_Controller's. */
function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, COUPON_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.coupons.values()];
  const status = couponStatusFilter(p.status || 'all');
  if (status) items = items.filter(status);
  // `code` replaces post__in with the one published coupon wc_get_coupon_id_by_code() finds (0: none).
  const include =
    typeof p.code === 'string' && p.code !== '' ? { ...p, include: [couponIdByCode(store, p.code)] } : p;
  items = filterIncludeExclude(filterDates(items, p), include);
  if (typeof p.search === 'string' && p.search.trim() !== '') items = items.filter(searchFilter(p.search));
  const keys: Record<string, (c: CouponRec) => string | number> = {
    date: (c) => c.created,
    id: (c) => c.id,
    title: (c) => c.code,
    slug: (c) => slugify(c.code),
    modified: (c) => c.modified,
  };
  items = sortByParams(items, include, keys, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, (c) => presentCoupon(store, c));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, couponSpecs(true));
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_shop_coupon_exists', 'Cannot create existing shop_coupon.');
  }
  const c = createCoupon(ctx.store, p);
  return {
    status: 201,
    body: presentCoupon(ctx.store, c),
    headers: { Location: ctx.store.restUrl(`/coupons/${c.id}`) },
  };
}

// Capability checks only run for an existing coupon (WC_REST_CRUD_Controller::get_item_permissions_check()), so
// an anonymous request for a missing one gets the "invalid ID" error, not a 401.
function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  const c = ctx.store.state.coupons.get(idParam(ctx));
  if (c) requireCap(ctx, 'view');
  if (!c) throw invalidId(404);
  return { status: 200, body: presentCoupon(ctx.store, c) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, couponSpecs(false));
  const c = ctx.store.state.coupons.get(idParam(ctx));
  if (c) requireCap(ctx, 'edit');
  if (!c) throw invalidId(400);
  return { status: 200, body: presentCoupon(ctx.store, updateCoupon(ctx.store, c, p)) };
}

// Coupons are posts and support the trash (EMPTY_TRASH_DAYS > 0). The response is prepared before the delete,
// so a trashed coupon is answered with the status it had.
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  const c = ctx.store.state.coupons.get(idParam(ctx));
  if (c) requireCap(ctx, 'delete');
  if (!c) throw invalidId(404);
  const body = presentCoupon(ctx.store, c);
  deleteCoupon(ctx.store, c, p.force === true);
  return { status: 200, body };
}

export function registerCoupons(router: Router): void {
  registerCrud(router, '/wc/v3/coupons', { list, create, get, update, delete: remove });
}
