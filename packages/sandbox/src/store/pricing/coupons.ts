import { applyMeta } from '../data/meta.js';
import type { CouponRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { stripTags } from '../runtime/markup.js';
import { absint, isNumericString, wcFormatDecimal } from '../runtime/numbers.js';
import { parseWcDate } from '../runtime/values.js';

/** The discount types wc_get_coupon_types() lists, in its order (the REST enum and its error message use it). */
export const COUPON_TYPES = ['percent', 'fixed_cart', 'fixed_product'] as const;

/** Statuses get_post_stati() knows; WP_Query ignores any other value of `post_status`. */
const POST_STATI = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
];

/** Statuses registered with `exclude_from_search`, which `post_status=any` leaves out. */
const EXCLUDED_FROM_ANY = ['trash', 'auto-draft'];

/** The props whose change makes WC_Coupon_Data_Store_CPT::update() call wp_update_post() (and move post_modified). */
const POST_FIELDS = ['code', 'description', 'status'] as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#039': "'" };

/**
 * wc_format_coupon_code(): the `woocommerce_coupon_code` filters, html_entity_decode(), wc_sanitize_coupon_code()
 * (sanitize_post_field('post_title', ..., 'db') trims; wp_filter_kses() drops tags and, normalizing entities,
 * turns a bare `&` into `&amp;`: woocommerce#44795, still open) and wc_strtolower(). So "A&B" is stored "a&amp;b".
 */
export function formatCouponCode(value: string): string {
  return stripTags(value.replace(/&(amp|lt|gt|quot|apos|#039);/g, (_m, name: string) => ENTITIES[name] ?? ''))
    .replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .trim()
    .toLowerCase();
}

/**
 * wc_get_coupon_id_by_code(): WC_Coupon_Data_Store_CPT::get_ids_by_code() matches `LOWER(post_title)` among
 * *published* coupons only, newest post_date first; `exclude` (the coupon being saved) is skipped. 0 when none.
 */
export function couponIdByCode(store: Store, code: string, exclude = 0): number {
  if (code.trim() === '') return 0;
  const wanted = formatCouponCode(code);
  const ids = [...store.state.coupons.values()]
    .filter((c) => c.status === 'publish' && c.code.toLowerCase() === wanted && c.id !== exclude)
    .sort((a, b) => b.created - a.created || b.id - a.id)
    .map((c) => c.id);
  return ids[0] ?? 0;
}

/** The published coupon with this code (what applying a code to an order finds), if any. */
export function findCouponByCode(store: Store, code: string): CouponRec | undefined {
  const id = couponIdByCode(store, code);
  return id ? store.state.coupons.get(id) : undefined;
}

/**
 * WP_Query's `post_status` as WC_REST_Coupons_Controller::prepare_objects_query() passes it (`status ?: 'all'`):
 * a comma list or array; `any` leaves out trash and auto-drafts; values WordPress does not know are ignored, and
 * when none is left (as with the default `all`) there is no status clause at all, so trashed coupons are listed.
 */
export function couponStatusFilter(status: unknown): ((c: CouponRec) => boolean) | null {
  const raw = Array.isArray(status)
    ? status.map(String)
    : typeof status === 'string'
      ? status.split(',')
      : [];
  const wanted = raw.map((s) => s.trim());
  if (wanted.includes('any'))
    return (c) => !EXCLUDED_FROM_ANY.includes(c.status) || wanted.includes(c.status);
  const known = wanted.filter((s) => POST_STATI.includes(s));
  return known.length === 0 ? null : (c) => known.includes(c.status);
}

export function blankCoupon(id: number, now: number): CouponRec {
  return {
    id,
    code: '',
    amount: '0',
    status: 'publish',
    discount_type: 'fixed_cart',
    description: '',
    date_expires: null,
    usage_count: 0,
    individual_use: false,
    product_ids: [],
    excluded_product_ids: [],
    usage_limit: null,
    usage_limit_per_user: null,
    limit_usage_to_x_items: null,
    free_shipping: false,
    product_categories: [],
    excluded_product_categories: [],
    exclude_sale_items: false,
    minimum_amount: '',
    maximum_amount: '',
    email_restrictions: [],
    used_by: [],
    meta_data: [],
    created: now,
    modified: now,
  };
}

/** sanitize_email(): drops what cannot be in an address; '' when no address is left. */
function sanitizeEmail(email: string): string {
  if (email.length < 6 || email.indexOf('@', 1) === -1) return '';
  const at = email.indexOf('@');
  const local = email.slice(0, at).replace(/[^a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]/g, '');
  if (local === '') return '';
  const domain = email
    .slice(at + 1)
    .replace(/\.{2,}/g, '')
    .replace(/^[\s\0.]+|[\s\0.]+$/g, '');
  if (domain === '' || domain.split('.').length < 2) return '';
  const subs = domain
    .split('.')
    .map((sub) => sub.replace(/^[\s\0-]+|[\s\0-]+$/g, '').replace(/[^a-z0-9-]+/gi, ''))
    .filter((sub) => sub !== '');
  return subs.length < 2 ? '' : `${local}@${subs.join('.')}`;
}

/** is_email() on what sanitize_email() left: each domain part alphanumerics and inner dashes. */
function isSanitizedEmail(email: string): boolean {
  const subs = email.slice(email.indexOf('@') + 1).split('.');
  return subs.every((sub) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(sub));
}

/**
 * WC_Data::set_date_prop() followed by a save and a read: empty is no date; a numeric string is a Unix
 * timestamp; an ISO 8601 date-time (offset optional, site time = UTC here) or anything strtotime() reads is that
 * moment. What strtotime() cannot read becomes the epoch, which the data store saves as `0` and reads back as no
 * date. Whole seconds, as WC_DateTime keeps them.
 */
export function couponExpiry(value: string): number | null {
  if (value === '' || value === '0' || value === '0000-00-00 00:00:00') return null;
  let ms: number | null;
  if (isNumericString(value)) ms = Number(value) * 1000;
  else {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00` : value;
    ms = parseWcDate(dateOnly);
  }
  if (ms === null || !Number.isFinite(ms)) return null;
  const seconds = Math.floor(ms / 1000);
  return seconds === 0 ? null : seconds * 1000;
}

const ID_LISTS = [
  'product_ids',
  'excluded_product_ids',
  'product_categories',
  'excluded_product_categories',
] as const;

const FLAGS = ['individual_use', 'free_shipping', 'exclude_sale_items'] as const;

const LIMITS = ['usage_limit', 'usage_limit_per_user', 'limit_usage_to_x_items'] as const;

function invalidAmount(): RestError {
  return new RestError(400, 'coupon_invalid_amount', 'Invalid discount amount.');
}

/**
 * WC_REST_Coupons_V2_Controller::prepare_object_for_database(): every writable schema prop the request holds (a
 * null one is skipped), in schema order, through WC_Coupon's setters. The order matters: `amount` is checked
 * against the discount type the coupon has *before* this request's `discount_type` is set. `date_expires_gmt` is
 * writable in the schema but WC_Coupon has no setter for it, so it changes nothing. Setter errors are the
 * WC_Data_Exceptions save_object() turns into 400s.
 */
function applyCouponProps(store: Store, rec: CouponRec, p: Record<string, unknown>, creating: boolean): void {
  const has = (k: string) => p[k] !== undefined && p[k] !== null;
  if (has('code')) {
    const code = formatCouponCode(String(p.code));
    if (couponIdByCode(store, code, creating ? 0 : rec.id)) {
      throw new RestError(
        400,
        'woocommerce_rest_coupon_code_already_exists',
        'The coupon code already exists',
      );
    }
    rec.code = code;
  }
  if (has('amount')) {
    // WC_Coupon::set_amount(): wc_format_decimal(), 0 when not numeric, never negative, at most 100 percent.
    const formatted = wcFormatDecimal(p.amount);
    const amount = isNumericString(formatted) ? formatted : '0';
    if (Number(amount) < 0) throw invalidAmount();
    if (rec.discount_type === 'percent' && Number(amount) > 100) throw invalidAmount();
    rec.amount = amount;
  }
  if (has('status')) rec.status = String(p.status);
  if (has('discount_type')) rec.discount_type = String(p.discount_type);
  if (has('description')) rec.description = String(p.description);
  if (has('date_expires')) rec.date_expires = couponExpiry(String(p.date_expires));
  for (const k of ID_LISTS) {
    // set_product_ids() & co.: wp_parse_id_list() (absint, unique) and array_filter() (no 0).
    if (has(k)) rec[k] = [...new Set((p[k] as unknown[]).map(absint))].filter((id) => id !== 0);
  }
  for (const k of FLAGS) if (has(k)) rec[k] = p[k] === true;
  // absint(); the data store keeps 0 and the response shows it as null ("no limit").
  for (const k of LIMITS) if (has(k)) rec[k] = absint(p[k]) || null;
  if (has('minimum_amount')) rec.minimum_amount = wcFormatDecimal(p.minimum_amount);
  if (has('maximum_amount')) rec.maximum_amount = wcFormatDecimal(p.maximum_amount);
  if (has('email_restrictions')) {
    // set_email_restrictions(): strtolower, sanitize_email, empty ones dropped, then is_email() on each.
    const emails = (p.email_restrictions as unknown[])
      .map((e) => sanitizeEmail(String(e).toLowerCase()))
      .filter((e) => e !== '');
    if (!emails.every(isSanitizedEmail)) {
      throw new RestError(400, 'coupon_invalid_email_address', 'Invalid email address restriction.');
    }
    rec.email_restrictions = emails;
  }
  if (has('meta_data')) rec.meta_data = applyMeta(store, rec.meta_data, p.meta_data);
}

/**
 * wp_insert_post() / wp_update_post() on the coupon's post: an empty status is `publish` on insert (the data
 * store's default) and `draft` on update; `future` becomes `publish`, the post date being now or past.
 */
function normalizeStatus(rec: CouponRec, creating: boolean): void {
  if (rec.status === '') rec.status = creating ? 'publish' : 'draft';
  if (rec.status === 'future') rec.status = 'publish';
}

/** Inserts a coupon; its id is taken only once the body has been applied, so a rejected body wastes none. */
export function createCoupon(store: Store, p: Record<string, unknown>): CouponRec {
  if (p.code === undefined || p.code === null || p.code === '' || p.code === '0') {
    throw new RestError(400, 'woocommerce_rest_empty_coupon_code', 'The coupon code cannot be empty.');
  }
  const rec = blankCoupon(store.state.seq.post + 1, store.now());
  applyCouponProps(store, rec, p, true);
  normalizeStatus(rec, true);
  nextId(store.state, 'post');
  store.state.coupons.set(rec.id, rec);
  store.changed('coupons', rec.id);
  store.emit('coupon', 'created', rec.id);
  return rec;
}

/**
 * Writes onto a copy that replaces the coupon only once the whole body applied. post_modified moves only when a
 * post field (code, description, status) changed: other props are post meta (WC_Coupon_Data_Store_CPT::update()).
 */
export function updateCoupon(store: Store, rec: CouponRec, p: Record<string, unknown>): CouponRec {
  const draft = structuredClone(rec);
  applyCouponProps(store, draft, p, false);
  if (p.status !== undefined && p.status !== null) normalizeStatus(draft, false);
  if (POST_FIELDS.some((k) => draft[k] !== rec[k])) draft.modified = store.now();
  store.state.coupons.set(rec.id, draft);
  store.changed('coupons', rec.id);
  if (rec.status === 'trash' && draft.status !== 'trash') store.emit('coupon', 'restored', rec.id);
  store.emit('coupon', 'updated', rec.id);
  return draft;
}

/** `force` deletes the coupon; otherwise wp_trash_post() moves it to the trash (once: then 410). */
export function deleteCoupon(store: Store, rec: CouponRec, force: boolean): void {
  if (force) store.state.coupons.delete(rec.id);
  else {
    if (rec.status === 'trash') {
      throw new RestError(
        410,
        'woocommerce_rest_already_trashed',
        'The shop_coupon has already been deleted.',
      );
    }
    rec.status = 'trash';
    rec.modified = store.now();
  }
  store.changed('coupons', rec.id);
  store.emit('coupon', 'deleted', rec.id);
}
