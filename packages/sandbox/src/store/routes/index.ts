import type { Store } from '../data/store.js';
import type { Router } from '../rest/router.js';
import { registerAttributes } from './attributes.js';
import { registerCoupons } from './coupons.js';
import { registerCustomers } from './customers.js';
import { registerData } from './data.js';
import { registerNotes } from './notes.js';
import { registerOrders } from './orders.js';
import { registerPaymentGateways } from './payment-gateways.js';
import { registerProducts } from './products.js';
import { registerRefunds } from './refunds.js';
import { registerReports } from './reports.js';
import { registerReviews } from './reviews.js';
import { registerSettings } from './settings.js';
import { registerShippingClasses } from './shipping-classes.js';
import { registerShippingZones } from './shipping-zones.js';
import { registerSystemStatus } from './system-status.js';
import { registerTaxes } from './taxes.js';
import { registerTerms } from './terms.js';
import { registerVariations } from './variations.js';
import { registerWebhooks } from './webhooks.js';

/**
 * Every wc/v3 route, in the order the namespace index lists them (and the router tries them).
 */
export function registerRoutes(router: Router, store: Store): void {
  registerCoupons(router);
  registerProducts(router);
  registerVariations(router);
  registerTerms(router, store);

  registerAttributes(router, store);

  registerShippingClasses(router, store);

  registerReviews(router, store);

  registerOrders(router);
  registerNotes(router);
  registerRefunds(router);
  registerCustomers(router);
  registerWebhooks(router);

  registerReports(router, store);

  registerSettings(router, store);

  registerShippingZones(router, store);

  registerTaxes(router, store);

  registerSystemStatus(router, store);

  registerPaymentGateways(router, store);

  registerData(router, store);
}
