import type { APIPromise, RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import {
  type AddItemInput,
  addItemInputSchema,
  type CartItem,
  cartItemSchema,
  itemKeySchema,
  quantitySchema,
} from './schemas/cart.js';

const items = z.array(cartItemSchema);
/** `PUT cart/items/{key}` (CartItemsByKey.php) reads only `quantity`; anything else is refused, not dropped. */
const updateInput = z.strictObject({ quantity: quantitySchema });
const none = z.unknown();

/**
 * `cart/items` and `cart/items/{key}` (StoreApi/Routes/V1/CartItems.php, CartItemsByKey.php): the lines
 * of the cart one at a time. Each answers with the line, not the whole cart.
 */
export class CartItems {
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
  }

  #key(key: unknown, what: string): string {
    return checkInput(itemKeySchema, key, `${what} key`, false);
  }

  list(options?: RequestOptions): APIPromise<CartItem[]> {
    return this.#context.caller.request(
      () => ({
        method: 'GET' as const,
        path: '/cart/items',
        schema: items,
        what: 'cart.items.list',
        options,
      }),
      true,
    );
  }

  /** `POST cart/items`: like `cart.addItem`, answering with the line (201). */
  add(input: AddItemInput, options?: RequestOptions): APIPromise<CartItem> {
    return this.#context.caller.request(
      () => ({
        method: 'POST' as const,
        path: '/cart/items',
        body: checkInput(addItemInputSchema, input, 'cart.items.add input', this.#context.allowUnknownFields),
        schema: cartItemSchema,
        what: 'cart.items.add',
        options,
      }),
      true,
    );
  }

  get(key: string, options?: RequestOptions): APIPromise<CartItem> {
    return this.#context.caller.request(
      () => ({
        method: 'GET' as const,
        path: `/cart/items/${this.#key(key, 'cart.items.get')}`,
        schema: cartItemSchema,
        what: 'cart.items.get',
        options,
      }),
      true,
    );
  }

  /** `PUT cart/items/{key}`: the line's new quantity. */
  update(key: string, input: { quantity: number }, options?: RequestOptions): APIPromise<CartItem> {
    return this.#context.caller.request(
      () => ({
        method: 'PUT' as const,
        path: `/cart/items/${this.#key(key, 'cart.items.update')}`,
        body: checkInput(updateInput, input, 'cart.items.update input', this.#context.allowUnknownFields),
        schema: cartItemSchema,
        what: 'cart.items.update',
        options,
      }),
      true,
    );
  }

  /** `DELETE cart/items/{key}` (204). */
  remove(key: string, options?: RequestOptions): APIPromise<unknown> {
    return this.#context.caller.request(
      () => ({
        method: 'DELETE' as const,
        path: `/cart/items/${this.#key(key, 'cart.items.remove')}`,
        schema: none,
        what: 'cart.items.remove',
        options,
      }),
      true,
    );
  }

  /** `DELETE cart/items`: empties the cart (coupons and addresses stay). */
  clear(options?: RequestOptions): APIPromise<CartItem[]> {
    return this.#context.caller.request(
      () => ({
        method: 'DELETE' as const,
        path: '/cart/items',
        schema: items,
        what: 'cart.items.clear',
        options,
      }),
      true,
    );
  }
}
