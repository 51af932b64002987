import type { Store, WebhookResource } from '../data/store.js';
import { presentCoupon } from './coupons.js';
import { presentCustomer } from './customers.js';
import { presentOrder } from './orders.js';
import { presentProduct } from './products.js';

/**
 * What a webhook delivery carries for `resource.created|updated|restored` (WC_Webhook::build_payload()): the
 * record as the REST API presents it, or null once it is gone. The emulator hands this to the deliverer.
 */
export function webhookPayload(store: Store, resource: WebhookResource, id: number): unknown {
  switch (resource) {
    case 'order': {
      const o = store.state.orders.get(id);
      return o ? presentOrder(store, o) : null;
    }
    case 'product': {
      const p = store.state.products.get(id);
      return p ? presentProduct(store, p) : null;
    }
    case 'customer': {
      const c = store.state.customers.get(id);
      return c ? presentCustomer(store, c) : null;
    }
    case 'coupon': {
      const c = store.state.coupons.get(id);
      return c ? presentCoupon(store, c) : null;
    }
  }
}
