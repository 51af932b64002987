import { createReview, deleteReview, updateReview } from '../catalog/reviews.js';
import type { ReviewRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { presentReview } from '../present/reviews.js';
import { registerCrud } from '../rest/crud.js';
import { filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { forbidden, RestError } from '../runtime/errors.js';
import { parseWcDate } from '../runtime/values.js';
import { FORCE, VIEW } from './params/common.js';
import { REVIEW_CREATE_SPECS, REVIEW_LIST_SPECS, REVIEW_SPECS } from './params/reviews.js';

const BASE = '/products/reviews';

function context(ctx: Ctx): 'view' | 'edit' {
  return ctx.params.context === 'edit' ? 'edit' : 'view';
}

/**
 * get_review(), run by the get/update/delete permission checks before the capability: a missing id (or one
 * that is not a review) is 404 "Invalid review ID." even for an anonymous request.
 */
function existing(ctx: Ctx): ReviewRec {
  const r = ctx.store.state.reviews.get(idParam(ctx));
  if (!r) throw new RestError(404, 'woocommerce_rest_review_invalid_id', 'Invalid review ID.');
  return r;
}

/** The permission checks' own wording for edit and delete ("cannot", not "not allowed to"). */
function requireReviewCap(ctx: Ctx, cap: 'edit' | 'delete'): void {
  if (ctx.key) return;
  if (cap === 'edit')
    throw forbidden(false, 'woocommerce_rest_cannot_edit', 'Sorry, you cannot edit this resource.');
  throw forbidden(false, 'woocommerce_rest_cannot_delete', 'Sorry, you cannot delete this resource.');
}

/**
 * get_items() through WP_Comment_Query: `status` defaults to approved (`all` = approved + hold), `product`,
 * `reviewer` (user ids), `reviewer_email` (exact), `search` (author, email, content), `after`/`before` on the
 * date; sorted by date_gmt descending by default, the id breaking ties in the same direction.
 */
function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, REVIEW_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = filterIncludeExclude([...store.state.reviews.values()], p);
  const status = typeof p.status === 'string' ? p.status : 'approved';
  items = items.filter((r) =>
    status === 'all' ? r.status === 'approved' || r.status === 'hold' : r.status === status,
  );
  const ids = (v: unknown) => (Array.isArray(v) && v.length > 0 ? new Set(v as number[]) : null);
  const products = ids(p.product);
  if (products) items = items.filter((r) => products.has(r.product_id));
  const authors = ids(p.reviewer);
  if (authors) items = items.filter((r) => authors.has(r.user_id ?? 0));
  const notAuthors = ids(p.reviewer_exclude);
  if (notAuthors) items = items.filter((r) => !notAuthors.has(r.user_id ?? 0));
  if (typeof p.reviewer_email === 'string' && p.reviewer_email !== '') {
    const email = p.reviewer_email.toLowerCase();
    items = items.filter((r) => r.reviewer_email.toLowerCase() === email);
  }
  if (typeof p.search === 'string' && p.search !== '')
    items = items.filter((r) => searchMatch(p.search, r.reviewer, r.reviewer_email, r.review));
  const after = parseWcDate(p.after);
  const before = parseWcDate(p.before);
  if (after !== null) items = items.filter((r) => r.created > after);
  if (before !== null) items = items.filter((r) => r.created < before);
  const keys: Record<string, (r: ReviewRec) => number> = {
    date: (r) => r.created,
    date_gmt: (r) => r.created,
    id: (r) => r.id,
    product: (r) => r.product_id,
  };
  items = sortByParams(items, p, keys, { orderby: 'date_gmt', order: 'desc' });
  const view = context(ctx);
  return pagedResult(ctx, items, (r) => presentReview(store, r, view));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, REVIEW_CREATE_SPECS);
  requireCap(ctx, 'create');
  const id = p.id;
  if (id !== undefined && id !== null && id !== 0 && id !== '' && id !== '0') {
    throw new RestError(400, 'woocommerce_rest_review_exists', 'Cannot create existing product review.');
  }
  const r = createReview(ctx.store, p);
  return {
    status: 201,
    body: presentReview(ctx.store, r, 'edit'),
    headers: { Location: ctx.store.restUrl(`${BASE}/${r.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  const r = existing(ctx);
  requireCap(ctx, 'view');
  return { status: 200, body: presentReview(ctx.store, r, context(ctx)) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, REVIEW_SPECS);
  const r = existing(ctx);
  requireReviewCap(ctx, 'edit');
  return { status: 200, body: presentReview(ctx.store, updateReview(ctx.store, r, p), 'edit') };
}

/** A forced delete answers `{deleted: true, previous}`; a trashing one the trashed review. */
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  const r = existing(ctx);
  requireReviewCap(ctx, 'delete');
  const previous = presentReview(ctx.store, r, 'edit');
  const trashed = deleteReview(ctx.store, r, p.force === true);
  if (trashed === null) return { status: 200, body: { deleted: true, previous } };
  return { status: 200, body: presentReview(ctx.store, trashed, 'edit') };
}

/** `/products/reviews` (WC_REST_Product_Reviews_Controller, wc/v3). */
export function registerReviews(router: Router, _store: Store): void {
  registerCrud(router, `/wc/v3${BASE}`, { list, create, get, update, delete: remove });
}
