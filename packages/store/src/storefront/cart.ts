import type { APIPromise, RequestOptions } from '@x/core';
import type * as z from 'zod/mini';
import { checkInput } from '../schemas/validate.js';
import type { Caller, StorefrontContext } from './call.js';
import { CartItems } from './cart-items.js';
import {
  type AddItemInput,
  addItemInputSchema,
  type Cart,
  cartSchema,
  couponCodeSchema,
  itemKeySchema,
  quantitySchema,
  type SelectShippingRateInput,
  selectShippingRateInputSchema,
  type UpdateCustomerInput,
  updateCustomerInputSchema,
} from './schemas/cart.js';

/**
 * The shopper's cart (StoreApi/Routes/V1/Cart*.php). Each call answers with the whole cart, totals
 * recomputed (coupons, taxes, shipping); the cart is the one the session's `Cart-Token` names.
 */
export class StorefrontCart {
  /** `cart/items`: the lines one by one. */
  readonly items: CartItems;
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
    this.items = new CartItems(context);
  }

  get #caller(): Caller {
    return this.#context.caller;
  }

  #check<S extends z.ZodMiniType>(schema: S, input: unknown, what: string): z.output<S> {
    return checkInput(schema, input, what, this.#context.allowUnknownFields);
  }

  #post(
    route: string,
    what: string,
    body: () => unknown,
    options: RequestOptions | undefined,
  ): APIPromise<Cart> {
    return this.#caller.request(
      () => ({
        method: 'POST' as const,
        path: `/cart/${route}`,
        body: body(),
        schema: cartSchema,
        what,
        options,
      }),
      true,
    );
  }

  /** `GET cart`. The first call of a session also gets its `Cart-Token`. */
  get(options?: RequestOptions): APIPromise<Cart> {
    return this.#caller.request(
      () => ({ method: 'GET' as const, path: '/cart', schema: cartSchema, what: 'cart.get', options }),
      true,
    );
  }

  /** `cart/add-item`: adds `quantity` (default 1) of a product or variation; more of one already there adds up. */
  addItem(input: AddItemInput, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'add-item',
      'cart.addItem',
      () => this.#check(addItemInputSchema, input, 'cart.addItem input'),
      options,
    );
  }

  /** `cart/update-item`: sets the quantity of the line `key`. */
  updateItem(key: string, quantity: number, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'update-item',
      'cart.updateItem',
      () => ({
        key: this.#check(itemKeySchema, key, 'cart.updateItem key'),
        quantity: this.#check(quantitySchema, quantity, 'cart.updateItem quantity'),
      }),
      options,
    );
  }

  /** `cart/remove-item`. */
  removeItem(key: string, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'remove-item',
      'cart.removeItem',
      () => ({ key: this.#check(itemKeySchema, key, 'cart.removeItem key') }),
      options,
    );
  }

  /** `cart/apply-coupon`: an unknown or unusable code is a `BadRequestError` with WooCommerce's reason. */
  applyCoupon(code: string, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'apply-coupon',
      'cart.applyCoupon',
      () => ({ code: this.#check(couponCodeSchema, code, 'cart.applyCoupon code') }),
      options,
    );
  }

  /** `cart/remove-coupon`: a code the cart does not hold is a `CartConflictError` carrying the cart. */
  removeCoupon(code: string, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'remove-coupon',
      'cart.removeCoupon',
      () => ({ code: this.#check(couponCodeSchema, code, 'cart.removeCoupon code') }),
      options,
    );
  }

  /** `cart/update-customer`: the given address fields replace the cart's; shipping rates follow. */
  updateCustomer(input: UpdateCustomerInput, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'update-customer',
      'cart.updateCustomer',
      () => this.#check(updateCustomerInputSchema, input, 'cart.updateCustomer input'),
      options,
    );
  }

  /** `cart/select-shipping-rate`: a `rate_id` from `shipping_rates[].shipping_rates[]`. */
  selectShippingRate(input: SelectShippingRateInput, options?: RequestOptions): APIPromise<Cart> {
    return this.#post(
      'select-shipping-rate',
      'cart.selectShippingRate',
      () => this.#check(selectShippingRateInputSchema, input, 'cart.selectShippingRate input'),
      options,
    );
  }

  /** Forgets the session's token (not the cart on the server): the next cart call starts a new cart. */
  forget(): Promise<void> {
    return this.#caller.session.clear();
  }
}
