import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type Coupon,
  type CouponCreateInput,
  type CouponListParams,
  type CouponUpdateInput,
  coupon,
  couponCreateInput,
  couponListParams,
  couponUpdateInput,
} from '../schemas/coupons.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  type DeleteParams,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';

const couponSchemas = {
  item: coupon,
  create: couponCreateInput,
  update: couponUpdateInput,
  list: couponListParams,
  name: 'coupons',
  trashable: true,
} satisfies Schemas;

/** `/coupons`: discount codes (`shop_coupon` posts). Applying one to an order is `coupon_lines` on the order. */
export class Coupons {
  readonly #collection: Collection<typeof couponSchemas>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/coupons', couponSchemas);
  }

  /** `code` is required and must not belong to another published coupon (any case). */
  create(input: CouponCreateInput, options?: RequestOptions): APIPromise<Coupon> {
    return this.#collection.create(input, options);
  }

  /** Trashed coupons are found too (`status: 'trash'`). */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Coupon> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; `status: 'publish'` restores a trashed coupon. */
  update(id: number, input: CouponUpdateInput, options?: RequestOptions): APIPromise<Coupon> {
    return this.#collection.update(id, input, options);
  }

  /** Moves the coupon to the trash, or deletes it for good with `{ force: true }`. */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Coupon> {
    return this.#collection.delete(id, params, options);
  }

  /** Newest first; without `status` trashed coupons are listed too. `for await` walks every page. */
  list(params?: CouponListParams, options?: ListOptions): PagePromise<Coupon> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes (deletes are forced), in requests of at most 100 items. */
  batch(
    input: BatchInput<CouponCreateInput, CouponUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Coupon>> {
    return this.#collection.batch(input, options);
  }
}
