import { type TaxonomyDef, termCount } from '../catalog/terms.js';
import type { TermRec } from '../data/rows.js';
import type { Store } from '../data/store.js';

/** Categories carry parent, display, image and order; attribute terms an order; tags and shipping classes only name, slug and description. */
export function presentTerm(store: Store, def: TaxonomyDef, t: TermRec): Record<string, unknown> {
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`${def.base}/${t.id}`) }],
    collection: [{ href: store.restUrl(def.base) }],
  };
  if (def.hierarchical) {
    if (t.parent) links.up = [{ href: store.restUrl(`${def.base}/${t.parent}`) }];
    return {
      id: t.id,
      name: t.name,
      slug: t.slug,
      parent: t.parent,
      description: t.description,
      display: t.display,
      image: t.image,
      menu_order: t.menu_order,
      count: termCount(store, t),
      _links: links,
    };
  }
  if (def.menuOrder) {
    // WC_REST_Product_Attribute_Terms_Controller::prepare_item_for_response().
    return {
      id: t.id,
      name: t.name,
      slug: t.slug,
      description: t.description,
      menu_order: t.menu_order,
      count: termCount(store, t),
      _links: links,
    };
  }
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    count: termCount(store, t),
    _links: links,
  };
}
