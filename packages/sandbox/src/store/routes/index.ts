import type { Store } from '../model/store.js';
import type { Router } from '../wp/router.js';
import { registerCustomers } from './customers.js';
import { registerNotes } from './notes.js';
import { registerOrders } from './orders.js';
import { registerProducts } from './products.js';
import { registerRefunds } from './refunds.js';
import { registerTerms } from './terms.js';
import { registerVariations } from './variations.js';
import { registerWebhooks } from './webhooks.js';

/**
 * Every wc/v3 route, in the order the namespace index lists them (and the router tries them), and
 * the presenters webhook deliveries use for `product.*`, `order.*` and `customer.*` payloads.
 */
export function registerRoutes(router: Router, store: Store): void {
  registerProducts(router, store);
  registerVariations(router);
  registerTerms(router, store);
  registerOrders(router, store);
  registerNotes(router);
  registerRefunds(router);
  registerCustomers(router, store);
  registerWebhooks(router);
}
