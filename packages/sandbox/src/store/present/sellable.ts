import { productLink } from '../catalog/post.js';
import type { Sellable } from '../catalog/prices.js';
import type { Image, ProductRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { wcDate } from '../runtime/values.js';

export function presentImage(img: Image): Record<string, unknown> {
  return {
    id: img.id,
    date_created: wcDate(img.created),
    date_created_gmt: wcDate(img.created),
    date_modified: wcDate(img.modified),
    date_modified_gmt: wcDate(img.modified),
    src: img.src,
    name: img.name,
    alt: img.alt,
  };
}

export function backorderFlags(p: Sellable) {
  return {
    backorders_allowed: p.backorders !== 'no',
    backordered: p.manage_stock === true && (p.stock_quantity ?? 0) < 0 && p.backorders !== 'no',
  };
}

export function permalink(store: Store, p: ProductRec): string {
  return productLink(store.homeUrl, p);
}

/** get_shipping_class_id(): the term id behind the slug the product holds, 0 for none. */
export function shippingClassId(store: Store, slug: string): number {
  if (slug === '') return 0;
  for (const t of store.state.terms.values())
    if (t.taxonomy === 'product_shipping_class' && t.slug === slug) return t.id;
  return 0;
}
