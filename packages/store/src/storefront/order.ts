import type { APIPromise, RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import { type OrderAuth, orderAuthSchema, type StoreOrder, storeOrderSchema } from './schemas/order.js';

const orderId = z.number().check(z.int(), z.positive());

/**
 * `order/{id}` (StoreApi/Routes/V1/Order.php): an order a guest may read with its key and billing email (the
 * order-received and order-pay pages). Not a cart route: it is sent without the session.
 */
export class StorefrontOrder {
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
  }

  /** `GET order/{id}?key=&billing_email=`: a wrong key or email is an `AuthenticationError` (401). */
  get(id: number, auth: OrderAuth, options?: RequestOptions): APIPromise<StoreOrder> {
    return this.#context.caller.request(
      () => ({
        method: 'GET' as const,
        path: `/order/${checkInput(orderId, id, 'order.get id', false)}`,
        query: { ...checkInput(orderAuthSchema, auth, 'order.get auth', false) },
        schema: storeOrderSchema,
        what: 'order.get',
        options,
      }),
      false,
    );
  }
}
