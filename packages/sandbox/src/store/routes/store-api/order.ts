/**
 * `GET order/{id}` (StoreApi/Routes/V1/Order.php): an order a guest may see with its `key` and `billing_email`
 * (routes/store-api/order-auth.ts), as OrderSchema shows it. A plain route, not a cart route: no session is
 * loaded and no session headers are sent.
 */

import { presentStoreOrder } from '../../present/store-api/order.js';
import type { Router } from '../../rest/router.js';
import { authorizedOrder } from './order-auth.js';

export function registerStoreOrder(router: Pick<Router, 'add'>): void {
  router.add('/wc/store/v1/order/(?P<id>[\\d]+)', ['GET'], (ctx) => ({
    status: 200,
    body: presentStoreOrder(ctx.store, authorizedOrder(ctx)),
  }));
}
