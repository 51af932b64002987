import type { APIPromise, RequestOptions } from '@x/core';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import {
  type CheckoutResult,
  checkoutResultSchema,
  type PlaceOrderInput,
  placeOrderInputSchema,
} from './schemas/checkout.js';

/** `checkout` (StoreApi/Routes/V1/Checkout.php): turns the session's cart into an order. */
export class StorefrontCheckout {
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
  }

  /**
   * `POST checkout`: places the order with the cart's items, coupons and chosen shipping (stock is reduced
   * and coupon usage counted as WooCommerce does); the result has `order_id`, `order_key` and the payment's
   * outcome. A cart that cannot be ordered (empty, out of stock) is a `CartConflictError` with the cart.
   * Never retried: a second POST could place a second order.
   */
  place(input: PlaceOrderInput, options?: RequestOptions): APIPromise<CheckoutResult> {
    return this.#context.caller.request(
      () => ({
        method: 'POST' as const,
        path: '/checkout',
        body: checkInput(
          placeOrderInputSchema,
          input,
          'checkout.place input',
          this.#context.allowUnknownFields,
        ),
        schema: checkoutResultSchema,
        what: 'checkout.place',
        options,
      }),
      true,
    );
  }
}
