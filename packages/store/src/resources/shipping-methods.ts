import { type APIPromise, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import { type ShippingMethod, shippingMethod } from '../schemas/shipping-zones.js';
import type { StoreContext } from './collection.js';

const methodId = z.string().check(z.regex(/^[\w-]+$/, 'expected a method id such as "flat_rate"'));

/** `/shipping_methods`: the methods the store offers (read-only); add them to zones by `id`. */
export class ShippingMethods {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** Every registered method, in one response. */
  list(options?: RequestOptions): APIPromise<ShippingMethod[]> {
    return this.#context.client.request({
      method: 'GET',
      path: '/shipping_methods',
      schema: z.array(shippingMethod),
      what: 'shippingMethods.list',
      options,
    });
  }

  /** One method by id (`flat_rate`, `free_shipping`, `local_pickup`, ...). */
  get(id: string, options?: RequestOptions): APIPromise<ShippingMethod> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: `/shipping_methods/${checkInputId(id)}`,
      schema: shippingMethod,
      what: 'shippingMethods.get',
      options,
    }));
  }
}

function checkInputId(id: unknown): string {
  if (typeof id === 'string' && /^[\w-]+$/.test(id)) return id;
  return parseInput(z.object({ id: methodId }), { id }, 'id').id;
}
