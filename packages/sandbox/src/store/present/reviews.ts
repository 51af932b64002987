import { createHash } from 'node:crypto';
import type { ReviewRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { wcDate } from '../runtime/values.js';
import { permalink } from './sellable.js';

/**
 * wpautop() for plain text: blank lines split paragraphs, single newlines become `<br />`. The `view`
 * context shows the review this way; `edit` shows it as stored.
 */
export function autop(text: string): string {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  if (trimmed === '') return '';
  return trimmed
    .split(/\n\s*\n/)
    .map((para) => `<p>${para.trim().replace(/\n/g, '<br />\n')}</p>\n`)
    .join('');
}

/**
 * rest_get_avatar_urls(): Gravatar URLs at 24, 48 and 96 px. WordPress 6.8+ hashes the trimmed, lower-cased
 * email with SHA-256; defaults `d=mm`, `r=g`.
 */
function avatarUrls(email: string): Record<string, string> {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  const out: Record<string, string> = {};
  for (const size of [24, 48, 96])
    out[size] = `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
  return out;
}

/** WC_REST_Product_Reviews_Controller::prepare_item_for_response() and prepare_links(). */
export function presentReview(store: Store, r: ReviewRec, context: 'view' | 'edit'): Record<string, unknown> {
  const product = store.state.products.get(r.product_id);
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`/products/reviews/${r.id}`) }],
    collection: [{ href: store.restUrl('/products/reviews') }],
  };
  if (r.product_id !== 0) links.up = [{ href: store.restUrl(`/products/${r.product_id}`) }];
  return {
    id: r.id,
    date_created: wcDate(r.created),
    date_created_gmt: wcDate(r.created),
    product_id: r.product_id,
    product_name: product?.name ?? '',
    product_permalink: product ? permalink(store, product) : '',
    status: r.status,
    reviewer: r.reviewer,
    reviewer_email: r.reviewer_email,
    review: context === 'view' ? autop(r.review) : r.review,
    rating: r.rating,
    verified: r.verified,
    reviewer_avatar_urls: avatarUrls(r.reviewer_email),
    _links: links,
  };
}
