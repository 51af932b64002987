import type { APIPromise, RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import {
  type CheckoutResult,
  checkoutResultSchema,
  type PlaceOrderInput,
  placeOrderInputSchema,
} from './schemas/checkout.js';
import { type PayOrderInput, payOrderInputSchema } from './schemas/order.js';

const orderId = z.number().check(z.int(), z.positive());

/** `checkout` (StoreApi/Routes/V1/Checkout.php): turns the session's cart into an order. */
export class StorefrontCheckout {
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
  }

  /**
   * `GET checkout`: the cart as the session's draft order (`status: 'checkout-draft'`, a `wc/v3` order that
   * cart changes keep in step and `place()` then places), for a checkout page that shows the order to come.
   * An empty cart is a `BadRequestError` (`woocommerce_rest_cart_empty`).
   */
  get(options?: RequestOptions): APIPromise<CheckoutResult> {
    return this.#context.caller.request(
      () => ({
        method: 'GET' as const,
        path: '/checkout',
        schema: checkoutResultSchema,
        what: 'checkout.get',
        options,
      }),
      true,
    );
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

  /**
   * `POST checkout/{id}` (StoreApi/Routes/V1/CheckoutOrder.php): pays an existing pending or failed order (the
   * order-pay page), proven the guest's by its `key` and `billing_email`, sent in the body so neither lands in
   * a URL or a log. The answer is the checkout's; wc/v3 then shows the order paid. Never retried.
   */
  pay(id: number, input: PayOrderInput, options?: RequestOptions): APIPromise<CheckoutResult> {
    return this.#context.caller.request(
      () => ({
        method: 'POST' as const,
        path: `/checkout/${checkInput(orderId, id, 'checkout.pay orderId', false)}`,
        body: checkInput(payOrderInputSchema, input, 'checkout.pay input', this.#context.allowUnknownFields),
        schema: checkoutResultSchema,
        what: 'checkout.pay',
        options,
      }),
      true,
    );
  }
}
