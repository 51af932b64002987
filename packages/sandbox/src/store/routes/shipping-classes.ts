import { SHIPPING_CLASSES } from '../catalog/terms.js';
import type { Store } from '../data/store.js';
import type { Router } from '../rest/router.js';
import { registerTaxonomy } from './terms.js';

/**
 * `/products/shipping_classes`: WC_REST_Product_Shipping_Classes_Controller is a WC_REST_Terms_Controller over
 * `product_shipping_class`, so it is served by the same term routes as tags.
 */
export function registerShippingClasses(router: Router, store: Store): void {
  registerTaxonomy(router, store, SHIPPING_CLASSES);
}
