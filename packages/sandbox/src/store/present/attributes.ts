import type { AttributeRec } from '../data/rows.js';
import type { Store } from '../data/store.js';

/** WC_REST_Product_Attributes_V1_Controller::prepare_item_for_response(): the slug carries its `pa_`. */
export function presentAttribute(store: Store, a: AttributeRec): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    slug: `pa_${a.slug}`,
    type: a.type,
    order_by: a.order_by,
    has_archives: a.has_archives,
    _links: {
      self: [{ href: store.restUrl(`/products/attributes/${a.id}`) }],
      collection: [{ href: store.restUrl('/products/attributes') }],
    },
  };
}
