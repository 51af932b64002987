/**
 * `GET checkout` (StoreApi/Routes/V1/Checkout.php get_route_response()): the cart as the session's draft order
 * (cart/draft-order.ts), answered as CheckoutSchema with an empty payment result (a new PaymentResult: no status,
 * no details, no redirect), HTTP 200. Checkout::requires_nonce() holds for every method, reads included; as for
 * `POST checkout`, a valid Cart-Token stands in for the nonce here (routes/store-api/checkout.ts).
 */

import { availableGateways } from '../../cart/checkout.js';
import { createOrUpdateDraft } from '../../cart/draft-order.js';
import { presentCheckout } from '../../present/store-api/cart.js';
import type { Router } from '../../rest/router.js';
import { cartRoute, type StoreApiOptions } from './session.js';

export function registerCheckoutDraft(router: Pick<Router, 'add'>, options: StoreApiOptions): void {
  router.add(
    '/wc/store/v1/checkout',
    ['GET'],
    cartRoute(
      options,
      (ctx, cart) => {
        const draft = createOrUpdateDraft(ctx.store, cart, availableGateways(ctx.store)[0]?.id ?? '');
        return {
          status: 200,
          body: {
            ...presentCheckout(ctx.store, draft),
            payment_result: { payment_status: '', payment_details: [], redirect_url: '' },
          },
        };
      },
      true,
    ),
  );
}
