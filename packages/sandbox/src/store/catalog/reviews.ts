import type { ReviewRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { parseWcDate } from '../runtime/values.js';

/** The statuses WooCommerce counts ratings of: approved reviews only (comment_approved = '1'). */
function rated(store: Store, productId: number): number[] {
  const out: number[] = [];
  for (const r of store.state.reviews.values())
    if (r.product_id === productId && r.status === 'approved' && r.rating > 0) out.push(r.rating);
  return out;
}

/**
 * WC_Comments::get_rating_counts_for_product() / get_average_rating_for_product(): approved reviews with a
 * rating above 0; the average is number_format(sum / count, 2), or 0 when none is rated.
 */
export function productRating(store: Store, productId: number): { average: number; count: number } {
  const ratings = rated(store, productId);
  if (ratings.length === 0) return { average: 0, count: 0 };
  const sum = ratings.reduce((a, b) => a + b, 0);
  return { average: Math.round((sum / ratings.length) * 100) / 100, count: ratings.length };
}

/**
 * wc_customer_bought_product(): a paid order (processing or completed) billed to that email with the product
 * (or one of its variations) on a line. WC_Comments::add_comment_purchase_verification() stores the answer the
 * first time the review is read, which for a review made through the API is its create response.
 */
function boughtProduct(store: Store, email: string, productId: number): boolean {
  if (email === '') return false;
  const target = email.toLowerCase();
  for (const o of store.state.orders.values()) {
    if (o.status !== 'processing' && o.status !== 'completed') continue;
    if ((o.billing.email ?? '').toLowerCase() !== target) continue;
    if (o.line_items.some((l) => l.product_id === productId || l.variation_id === productId)) return true;
  }
  return false;
}

/** wp_check_comment_data_max_lengths(), with the codes the controller renames (comment_author → reviewer). */
function checkLengths(p: { reviewer?: string; reviewer_email?: string; review?: string }): void {
  const fail = (code: string) =>
    new RestError(400, `woocommerce_rest_${code}`, 'Product review field exceeds maximum length allowed.');
  if (p.reviewer !== undefined && p.reviewer.length > 245) throw fail('reviewer_column_length');
  if (p.reviewer_email !== undefined && p.reviewer_email.length > 100)
    throw fail('reviewer_email_column_length');
  if (p.review !== undefined && p.review.length > 65525) throw fail('review_content_column_length');
}

function invalidContent(): RestError {
  return new RestError(400, 'woocommerce_rest_review_content_invalid', 'Invalid review content.');
}

/**
 * sanitize_email(), which wp_filter_comment() runs on the author email (pre_comment_author_email): what cannot be
 * an address becomes '', invalid characters are dropped from the local part and the domain labels.
 */
export function sanitizeEmail(raw: string): string {
  const email = raw.trim();
  const at = email.indexOf('@', 1);
  if (email.length < 6 || at < 0) return '';
  const local = email.slice(0, at).replace(/[^a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]/g, '');
  const domain = email.slice(at + 1);
  if (local === '' || domain.includes('..')) return '';
  const labels = domain
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .split('.')
    .map((l) => l.replace(/^[\s-]+|[\s-]+$/g, '').replace(/[^a-z0-9-]+/gi, ''))
    .filter((l) => l !== '');
  return labels.length < 2 ? '' : `${local}@${labels.join('.')}`;
}

/** Only `product` posts take reviews: a variation, an order or nothing at all is "Invalid product ID." (404). */
export function checkProduct(store: Store, productId: number): void {
  if (!store.state.products.has(productId)) {
    throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid product ID.');
  }
}

/** rest_get_date_with_gmt() of `date_created` (site time, UTC here) or else `date_created_gmt`. */
function requestedDate(p: Record<string, unknown>): number | null {
  for (const k of ['date_created', 'date_created_gmt']) {
    if (typeof p[k] === 'string' && p[k] !== '') return parseWcDate(p[k]);
  }
  return null;
}

/**
 * WC_REST_Product_Reviews_Controller::handle_status_param(): approve/hold set the status; spam and trash
 * remember the one they replace; unspam and untrash restore it, or put the review on hold when there is none
 * (wp_unspam_comment() / wp_untrash_comment() fall back to '0').
 */
export function applyStatus(r: ReviewRec, status: string): void {
  switch (status) {
    case 'approved':
    case 'hold':
      r.status = status;
      return;
    case 'spam':
    case 'trash':
      r.pre_trash_status = r.status;
      r.status = status;
      return;
    case 'unspam':
    case 'untrash':
      r.status = r.pre_trash_status || 'hold';
      delete r.pre_trash_status;
      return;
  }
}

/**
 * WC_REST_Product_Reviews_Controller::create_item(): the product must exist, the content be non-empty and
 * within the column lengths, and not repeat a review the same author already left on the product
 * (wp_allow_comment()'s duplicate check: 409). `status` defaults to approved (its schema default applies to
 * creates); `rating` is stored as given or 0.
 */
export function createReview(store: Store, p: Record<string, unknown>): ReviewRec {
  const productId = p.product_id as number;
  checkProduct(store, productId);
  const review = p.review as string;
  const reviewer = p.reviewer as string;
  const email = sanitizeEmail(p.reviewer_email as string);
  if (review === '') throw invalidContent();
  checkLengths({ reviewer, reviewer_email: email, review });
  const dupe = [...store.state.reviews.values()].some(
    (r) =>
      r.product_id === productId &&
      r.status !== 'trash' &&
      (r.reviewer.toLowerCase() === reviewer.toLowerCase() ||
        (email !== '' && r.reviewer_email.toLowerCase() === email.toLowerCase())) &&
      r.review.toLowerCase() === review.toLowerCase(),
  );
  if (dupe) {
    throw new RestError(
      409,
      'woocommerce_rest_comment_duplicate',
      'Duplicate comment detected; it looks as though you&#8217;ve already said that!',
    );
  }
  const id = nextId(store.state, 'comment');
  const r: ReviewRec = {
    id,
    product_id: productId,
    status: 'approved',
    reviewer,
    reviewer_email: email,
    review,
    rating: typeof p.rating === 'number' && p.rating !== 0 ? p.rating : 0,
    verified: false,
    created: requestedDate(p) ?? store.now(),
    user_id: 0,
  };
  applyStatus(r, typeof p.status === 'string' ? p.status : 'approved');
  r.verified = p.verified === true || boughtProduct(store, email, productId);
  store.state.reviews.set(id, r);
  store.changed('reviews', id);
  return r;
}

/**
 * WC_REST_Product_Reviews_Controller::update_item(): fields given are written (an empty review is refused);
 * `rating` and `verified` change only when non-empty, so neither can be reset to 0 / false.
 */
export function updateReview(store: Store, existing: ReviewRec, p: Record<string, unknown>): ReviewRec {
  const r = { ...existing };
  if (typeof p.product_id === 'number' && p.product_id !== 0) {
    checkProduct(store, p.product_id);
    r.product_id = p.product_id;
  }
  if (typeof p.review === 'string') {
    if (p.review === '') throw invalidContent();
    r.review = p.review;
  }
  if (typeof p.reviewer === 'string') r.reviewer = p.reviewer;
  if (typeof p.reviewer_email === 'string') r.reviewer_email = sanitizeEmail(p.reviewer_email);
  checkLengths(r);
  const date = requestedDate(p);
  if (date !== null) r.created = date;
  if (typeof p.rating === 'number' && p.rating !== 0) r.rating = p.rating;
  if (typeof p.status === 'string') applyStatus(r, p.status);
  if (p.verified === true) r.verified = true;
  store.state.reviews.set(r.id, r);
  store.changed('reviews', r.id);
  return r;
}

/** delete_item(): `force` deletes for good; otherwise wp_trash_comment(), and a trashed review is 410. */
export function deleteReview(store: Store, r: ReviewRec, force: boolean): ReviewRec | null {
  if (force) {
    store.state.reviews.delete(r.id);
    store.changed('reviews', r.id);
    return null;
  }
  if (r.status === 'trash') {
    throw new RestError(410, 'woocommerce_rest_already_trashed', 'The object has already been trashed.');
  }
  const trashed = { ...r };
  applyStatus(trashed, 'trash');
  store.state.reviews.set(r.id, trashed);
  store.changed('reviews', r.id);
  return trashed;
}
