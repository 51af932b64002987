import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type ShippingClass,
  type ShippingClassCreateInput,
  type ShippingClassListParams,
  type ShippingClassUpdateInput,
  shippingClass,
  shippingClassCreateInput,
  shippingClassListParams,
  shippingClassUpdateInput,
} from '../schemas/shipping-classes.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';

const shippingClassSchemas = {
  item: shippingClass,
  create: shippingClassCreateInput,
  update: shippingClassUpdateInput,
  list: shippingClassListParams,
  name: 'shipping classes',
  trashable: false,
} satisfies Schemas;

/** `/products/shipping_classes`: products name one by slug in `shipping_class`. */
export class ShippingClasses {
  readonly #collection: Collection<typeof shippingClassSchemas>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/products/shipping_classes', shippingClassSchemas);
  }

  /** The slug comes from the name unless given. */
  create(input: ShippingClassCreateInput, options?: RequestOptions): APIPromise<ShippingClass> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<ShippingClass> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change; products keep the class under its new slug. */
  update(id: number, input: ShippingClassUpdateInput, options?: RequestOptions): APIPromise<ShippingClass> {
    return this.#collection.update(id, input, options);
  }

  /** Shipping classes have no trash: always deletes for good (`force=true`); products lose the class. */
  delete(id: number, options?: RequestOptions): APIPromise<ShippingClass> {
    return this.#collection.delete(id, {}, options);
  }

  /** `await` gives the first page; `for await` walks every class of every page. */
  list(params?: ShippingClassListParams, options?: ListOptions): PagePromise<ShippingClass> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<ShippingClassCreateInput, ShippingClassUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<ShippingClass>> {
    return this.#collection.batch(input, options);
  }
}
