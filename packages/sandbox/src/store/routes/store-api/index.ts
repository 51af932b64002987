/**
 * The Store API (`/wp-json/wc/store/v1`, StoreApi/RoutesController.php): products, the cart and checkout,
 * computed from the same catalogue, coupons, taxes and shipping zones the REST API edits.
 */

import { type Handler, Router } from '../../rest/router.js';
import { registerBatch } from './batch.js';
import { registerCartRoutes } from './cart.js';
import { registerCheckout } from './checkout.js';
import { registerCheckoutDraft } from './checkout-draft.js';
import { registerCheckoutOrder } from './checkout-order.js';
import { registerStoreOrder } from './order.js';
import { registerStoreProducts } from './products.js';
import { type StoreApiRateLimit, StoreApiRateLimiter } from './rate-limit.js';
import type { StoreApiOptions } from './session.js';

export type { StoreApiRateLimit };

export interface StoreApiSettings extends StoreApiOptions {
  /** The optional rate limit; `false` (WooCommerce's default) leaves it off. */
  rateLimit: StoreApiRateLimit | false;
}

export function registerStoreApi(router: Router, settings: StoreApiSettings): void {
  const limiter = settings.rateLimit ? new StoreApiRateLimiter(settings.rateLimit) : null;
  const limited: Pick<Router, 'add'> = {
    add(pattern: string, methods: readonly string[], handler: Handler): void {
      router.add(pattern, methods, limiter ? limiter.wrap(handler) : handler);
    },
  };
  // The routes that declare `'allow_batch' => [ 'v1' => true ]` (the Cart* routes, Checkout, CheckoutOrder), as
  // a batch's sub-requests reach them: without the rate limit, which counted the batch itself.
  const batchable = new Router();
  const batchableToo: Pick<Router, 'add'> = {
    add(pattern: string, methods: readonly string[], handler: Handler): void {
      limited.add(pattern, methods, handler);
      batchable.add(pattern, methods, handler);
    },
  };
  registerStoreProducts(limited);
  registerCartRoutes(batchableToo, settings);
  registerCheckout(batchableToo, settings);
  registerCheckoutDraft(batchableToo, settings);
  registerCheckoutOrder(batchableToo, settings);
  registerStoreOrder(limited);
  registerBatch(limited, router, batchable, settings);
  // GET /wc/store/v1: the namespace's index, as WP_REST_Server::get_namespace_index() lists it.
  router.add('/wc/store/v1', ['GET'], (ctx) => {
    const routes: Record<string, unknown> = {};
    for (const r of router.list()) {
      if (!r.pattern.startsWith('/wc/store/v1')) continue;
      const route = r.pattern.replace(/\\\\/g, '\\');
      routes[route] = {
        namespace: 'wc/store/v1',
        methods: r.methods,
        endpoints: [{ methods: r.methods, args: {} }],
      };
    }
    return {
      status: 200,
      body: {
        namespace: 'wc/store/v1',
        routes,
        _links: { up: [{ href: `${ctx.store.homeUrl}/wp-json/` }] },
      },
    };
  });
}
