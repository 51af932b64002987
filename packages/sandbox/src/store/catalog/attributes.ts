import type { AttributeRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { sanitizeTextField, sanitizeTitle, urldecode } from '../runtime/formatting.js';

/** wc_check_if_attribute_name_is_reserved(): WordPress query vars a taxonomy may not be named after. */
const RESERVED = new Set(
  (
    'attachment attachment_id author author_name calendar cat category category__and category__in ' +
    'category__not_in category_name comments_per_page comments_popup cpage day debug error exact feed hour ' +
    'link_category m minute monthnum more name nav_menu nopaging offset order orderby p page page_id paged ' +
    'pagename pb perm post post__in post__not_in post_format post_mime_type post_status post_tag post_type ' +
    'posts posts_per_archive_page posts_per_page preview robots s search second sentence showposts static ' +
    'subpost subpost_id tag tag__and tag__in tag__not_in tag_id tag_slug__and tag_slug__in taxonomy tb term ' +
    'type w withcomments withoutcomments year'
  ).split(' '),
);

export const ATTRIBUTE_ORDER_BY = ['menu_order', 'name', 'name_num', 'id'] as const;

/** wc_get_attribute_types() without a block theme: only `select` ("Text"). */
export const ATTRIBUTE_TYPES = ['select'] as const;

/**
 * wc_sanitize_taxonomy_name(): urldecode( mb_strtolower( sanitize_title( urldecode( $name ) ) ) ). Underscores
 * stay (`pa_`, `post_type`), which is what the reserved-name check sees.
 */
export function sanitizeTaxonomyName(text: string): string {
  return urldecode(sanitizeTitle(urldecode(text))).toLowerCase();
}

export function attributeTaxonomy(a: AttributeRec): `pa_${string}` {
  return `pa_${a.slug}`;
}

/** The attribute behind a `pa_<slug>` taxonomy (wc_attribute_taxonomy_id_by_name()). */
export function attributeByTaxonomy(store: Store, taxonomy: string): AttributeRec | undefined {
  for (const a of store.state.attributes.values()) if (attributeTaxonomy(a) === taxonomy) return a;
  return undefined;
}

/** wc_get_attribute_taxonomies(): every attribute, `ORDER BY attribute_name ASC`. */
export function allAttributes(store: Store): AttributeRec[] {
  return [...store.state.attributes.values()].sort(
    (a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) || a.id - b.id,
  );
}

interface AttributeArgs {
  name?: unknown;
  slug?: unknown;
  type?: unknown;
  order_by?: unknown;
  has_archives?: unknown;
}

/**
 * wc_create_attribute(): the name is required; the slug comes from `slug` (a leading `pa_` dropped) or else
 * from the name, and must be at most 28 characters, not a reserved term and not taken by another
 * attribute. An unknown type or order_by falls back to `select` / `menu_order`. `errorCode` is what the REST
 * controller wraps the error in: `woocommerce_rest_cannot_create` or `woocommerce_rest_cannot_edit` (400).
 */
function applyAttribute(
  store: Store,
  rec: AttributeRec,
  args: AttributeArgs,
  errorCode: string,
  oldSlug: string | null,
): void {
  const fail = (message: string) => new RestError(400, errorCode, message);
  const name = typeof args.name === 'string' ? args.name : '';
  if (name === '') throw fail('Please, provide an attribute name.');
  const rawSlug = typeof args.slug === 'string' ? args.slug : '';
  const slug =
    rawSlug === '' ? sanitizeTaxonomyName(name) : sanitizeTaxonomyName(rawSlug).replace(/^pa_/, '');
  if (slug.length > 28) throw fail(`Slug "${slug}" is too long (28 characters max). Shorten it, please.`);
  if (RESERVED.has(slug)) {
    throw fail(`Slug "${slug}" is not allowed because it is a reserved term. Change it, please.`);
  }
  const taken = [...store.state.attributes.values()].some((a) => a.slug === slug && a.id !== rec.id);
  if ((oldSlug === null || oldSlug !== slug) && taken) {
    throw fail(`Slug "${slug}" is already in use. Change it, please.`);
  }
  rec.name = name;
  rec.slug = slug;
  rec.type = (ATTRIBUTE_TYPES as readonly unknown[]).includes(args.type) ? (args.type as string) : 'select';
  rec.order_by = (ATTRIBUTE_ORDER_BY as readonly unknown[]).includes(args.order_by)
    ? (args.order_by as string)
    : 'menu_order';
  rec.has_archives = args.has_archives === true;
}

/** sanitize_text_field(), the `name` arg's sanitize callback. */
function textField(v: unknown): unknown {
  return typeof v === 'string' ? sanitizeTextField(v) : v;
}

/** WC_REST_Product_Attributes_V1_Controller::create_item(); the id is taken only once the row is valid. */
export function createAttribute(store: Store, p: Record<string, unknown>): AttributeRec {
  const rec: AttributeRec = {
    id: 0,
    name: '',
    slug: '',
    type: 'select',
    order_by: 'menu_order',
    has_archives: false,
  };
  applyAttribute(
    store,
    rec,
    {
      name: textField(p.name),
      slug: p.slug,
      type: p.type || 'select',
      order_by: p.order_by || 'menu_order',
      has_archives: p.has_archives === true,
    },
    'woocommerce_rest_cannot_create',
    null,
  );
  rec.id = nextId(store.state, 'attribute');
  store.state.attributes.set(rec.id, rec);
  store.changed('attributes', rec.id);
  return rec;
}

/**
 * wc_update_attribute() as the REST controller calls it: an absent name, type, order_by or has_archives keeps
 * the stored value, but the controller always passes `slug` (as '' when absent), so an update without a slug
 * derives it from the name again. A new slug moves the terms and the products' attributes to `pa_<new>`.
 */
export function updateAttribute(
  store: Store,
  existing: AttributeRec,
  p: Record<string, unknown>,
): AttributeRec {
  const draft = { ...existing };
  applyAttribute(
    store,
    draft,
    {
      name: typeof p.name === 'string' && textField(p.name) !== '' ? textField(p.name) : existing.name,
      slug: typeof p.slug === 'string' ? p.slug : '',
      type: p.type ?? existing.type,
      order_by: p.order_by ?? existing.order_by,
      has_archives: typeof p.has_archives === 'boolean' ? p.has_archives : existing.has_archives,
    },
    'woocommerce_rest_cannot_edit',
    existing.slug,
  );
  if (draft.slug !== existing.slug) {
    const from = attributeTaxonomy(existing);
    for (const t of store.state.terms.values()) {
      if (t.taxonomy !== from) continue;
      t.taxonomy = attributeTaxonomy(draft);
      store.changed('terms', t.id);
    }
  }
  store.state.attributes.set(draft.id, draft);
  store.changed('attributes', draft.id);
  return draft;
}

/** wc_delete_attribute(): the row and every term of its taxonomy (wp_delete_term() takes them off products). */
export function deleteAttribute(store: Store, a: AttributeRec, deleteTerm: (id: number) => void): void {
  const taxonomy = attributeTaxonomy(a);
  for (const t of [...store.state.terms.values()]) if (t.taxonomy === taxonomy) deleteTerm(t.id);
  store.state.attributes.delete(a.id);
  store.changed('attributes', a.id);
}
