import type { ProductRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { sanitizeTitle, uniqueSlug } from '../runtime/formatting.js';
import { restParseDate } from '../runtime/values.js';

/** Statuses wp_insert_post() and wp_unique_post_slug() let go without a slug ("date floating" drafts). */
const SLUGLESS = new Set(['draft', 'pending', 'auto-draft']);

/**
 * The product props that make WC_Product_Data_Store_CPT::update() call wp_update_post(); any other change only
 * bumps post_modified. (post_password and date_modified are not writable here.)
 */
const POST_FIELDS = [
  'name',
  'description',
  'short_description',
  'parent_id',
  'reviews_allowed',
  'status',
  'menu_order',
  'created',
  'slug',
] as const;

/**
 * `date_created` / `date_created_gmt` of a product body, applied last as in
 * WC_REST_Products_Controller::prepare_object_for_database(): each non-empty one that rest_parse_date() accepts sets
 * the creation date, the `_gmt` one (parsed with its offset forced to UTC) winning. Unparseable dates are ignored.
 */
export function applyDateCreated(rec: ProductRec, p: Record<string, unknown>): void {
  for (const [key, gmt] of [
    ['date_created', false],
    ['date_created_gmt', true],
  ] as const) {
    const value = p[key];
    if (typeof value !== 'string' || value === '' || value === '0') continue;
    const t = restParseDate(value, gmt);
    if (t !== null) rec.created = t;
  }
}

/**
 * What wp_insert_post() does with the post row WooCommerce hands it (WC_Product_Data_Store_CPT::create() /
 * update()): a product without a name is titled "Product" on create; `publish` with a date a minute or more
 * ahead becomes `future` and `future` with a past date `publish`; the slug (post_name) stays empty for drafts and
 * pending products unless given, is derived from the title otherwise, and is made unique among products except
 * for those slugless statuses; post_modified equals the creation date on insert and is "now" on update. On an
 * update that changes none of the post fields only post_modified moves, so the slug is not re-checked.
 */
export function savePost(store: Store, rec: ProductRec, before: ProductRec | null, now: number): void {
  if (before && POST_FIELDS.every((k) => before[k] === rec[k])) {
    rec.modified = now;
    return;
  }
  if (!before && rec.name === '') rec.name = 'Product';
  if (rec.status === 'publish' && rec.created - now >= 60_000) rec.status = 'future';
  else if (rec.status === 'future' && rec.created - now < 60_000) rec.status = 'publish';
  const slugless = SLUGLESS.has(rec.status);
  let slug = rec.slug !== '' ? sanitizeTitle(rec.slug) : slugless ? '' : sanitizeTitle(rec.name);
  if (!slugless) {
    // sanitize_title( $post_title, $post_ID ): a title with nothing left for a slug falls back to the ID.
    if (slug === '') slug = String(rec.id);
    // wp_unique_post_slug(): `-2`, `-3`... against other products; trashed ones carry a `__trashed` suffix in
    // WordPress, so they never hold a slug.
    slug = uniqueSlug(slug, (s) =>
      [...store.state.products.values()].some((x) => x.slug === s && x.id !== rec.id && x.status !== 'trash'),
    );
  }
  rec.slug = slug;
  rec.modified = before ? now : rec.created;
}

/**
 * get_permalink(): published and private products get the pretty /product/<slug>/ link; for any other status
 * wp_force_plain_post_permalink() is true and the link is the plain `?post_type=product&p=<id>`.
 */
export function productLink(homeUrl: string, rec: ProductRec): string {
  return rec.status === 'publish' || rec.status === 'private'
    ? `${homeUrl}/product/${rec.slug}/`
    : `${homeUrl}/?post_type=product&p=${rec.id}`;
}
