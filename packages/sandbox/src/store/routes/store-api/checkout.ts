/**
 * `POST checkout` (StoreApi/Routes/V1/Checkout.php): the addresses sent replace the cart's, then the cart is
 * ordered (cart/checkout.ts). Every checkout request needs the nonce unless it carries a valid cart token.
 */

import { checkout } from '../../cart/checkout.js';
import { applyAddress } from '../../customers/addresses.js';
import { presentCheckout } from '../../present/store-api/cart.js';
import type { Router } from '../../rest/router.js';
import { missingParams, RestError } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/values.js';
import { CHECKOUT_ARGS, withArgs } from './args.js';
import { cartRoute, type StoreApiOptions } from './session.js';

export function registerCheckout(router: Pick<Router, 'add'>, options: StoreApiOptions): void {
  router.add(
    '/wc/store/v1/checkout',
    ['POST'],
    withArgs(
      CHECKOUT_ARGS,
      cartRoute(
        options,
        (ctx, cart) => {
          const p = ctx.params;
          // CheckoutSchema: billing_address is the one required argument.
          if (p.billing_address === undefined || p.billing_address === null)
            throw missingParams(['billing_address']);
          for (const name of ['billing_address', 'shipping_address'] as const) {
            if (p[name] !== undefined && !isPlainObject(p[name])) {
              throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
                params: { [name]: `${name} is not of type object.` },
              });
            }
          }
          applyAddress(cart.billing, p.billing_address);
          applyAddress(cart.shipping, p.shipping_address ?? p.billing_address);
          // The schema requires a valid billing email (CheckoutSchema billing_address, validate_callback).
          if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(cart.billing.email ?? '')) {
            throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): billing_address', {
              params: { billing_address: 'Please provide a valid email address' },
            });
          }
          const order = checkout(ctx.store, cart, {
            payment_method: typeof p.payment_method === 'string' ? p.payment_method : '',
            customer_note: typeof p.customer_note === 'string' ? p.customer_note : '',
          });
          return { status: 200, body: presentCheckout(ctx.store, order) };
        },
        true,
      ),
    ),
  );
}
