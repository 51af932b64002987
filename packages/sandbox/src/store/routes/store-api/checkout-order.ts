/**
 * `POST checkout/{id}` (StoreApi/Routes/V1/CheckoutOrder.php): pays an existing pending or failed order, the
 * order-pay page's API. WordPress checks the arguments first (CheckoutOrderSchema: `billing_address` required),
 * then the permission callback (OrderAuthorizationTrait: `key` and `billing_email`), then the cart route runs
 * with its session and nonce rule like any other (AbstractCartRoute::get_response()): the nonce unless a valid
 * Cart-Token. The answer is CheckoutSchema's, as `POST checkout` gives it.
 */

import { payOrder } from '../../cart/order-pay.js';
import { presentCheckout } from '../../present/store-api/cart.js';
import { isEmail, validateParams } from '../../rest/params.js';
import type { Ctx, Result, Router } from '../../rest/router.js';
import { CHECKOUT_ARGS, withArgs } from './args.js';
import { authorizedOrder } from './order-auth.js';
import { cartRoute, type StoreApiOptions } from './session.js';

export function registerCheckoutOrder(router: Pick<Router, 'add'>, options: StoreApiOptions): void {
  const pay = cartRoute(
    options,
    (ctx, cart) => {
      const p = ctx.params;
      const order = authorizedOrder(ctx);
      payOrder(ctx.store, order, cart, {
        billing_address: p.billing_address as Record<string, unknown>,
        shipping_address: (p.shipping_address ?? undefined) as Record<string, unknown> | undefined,
        payment_method: typeof p.payment_method === 'string' ? p.payment_method : '',
        customer_note: typeof p.customer_note === 'string' ? p.customer_note : '',
        isEmail,
      });
      return { status: 200, body: presentCheckout(ctx.store, order) };
    },
    false,
    // CheckoutOrder::cart_updated() does nothing: the order paid is not the cart's.
    false,
  );
  router.add(
    '/wc/store/v1/checkout/(?P<id>[\\d]+)',
    ['POST'],
    withArgs(CHECKOUT_ARGS, (ctx: Ctx): Result => {
      // The same ctx goes on: a batch knows its sub-requests by it (session.ts joinBatch()).
      ctx.params = validateParams(ctx.params, CHECKOUT_ARGS);
      authorizedOrder(ctx);
      return pay(ctx);
    }),
  );
}
