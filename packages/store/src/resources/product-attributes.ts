import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type AttributeTerm,
  type AttributeTermCreateInput,
  type AttributeTermListParams,
  type AttributeTermUpdateInput,
  attributeTerm,
  attributeTermCreateInput,
  attributeTermListParams,
  attributeTermUpdateInput,
  type ProductAttribute,
  type ProductAttributeCreateInput,
  type ProductAttributeListParams,
  type ProductAttributeUpdateInput,
  productAttribute,
  productAttributeCreateInput,
  productAttributeListParams,
  productAttributeUpdateInput,
} from '../schemas/product-attributes.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  checkId,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';

const attributeSchemas = {
  item: productAttribute,
  create: productAttributeCreateInput,
  update: productAttributeUpdateInput,
  list: productAttributeListParams,
  name: 'product attributes',
  trashable: false,
} satisfies Schemas;
const termSchemas = {
  item: attributeTerm,
  create: attributeTermCreateInput,
  update: attributeTermUpdateInput,
  list: attributeTermListParams,
  name: 'attribute terms',
  trashable: false,
} satisfies Schemas;

/** `/products/attributes`: global attributes (`pa_color`), with their values under `.terms`. */
export class ProductAttributes {
  readonly terms: AttributeTerms;
  readonly #collection: Collection<typeof attributeSchemas>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/products/attributes', attributeSchemas);
    this.terms = new AttributeTerms(context);
  }

  /** The slug comes from the name unless given; a slug in use or reserved is a 400 `woocommerce_rest_cannot_create`. */
  create(input: ProductAttributeCreateInput, options?: RequestOptions): APIPromise<ProductAttribute> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<ProductAttribute> {
    return this.#collection.get(id, params, options);
  }

  /** Pass `slug` to keep it: without one the store derives it from the name again. */
  update(
    id: number,
    input: ProductAttributeUpdateInput,
    options?: RequestOptions,
  ): APIPromise<ProductAttribute> {
    return this.#collection.update(id, input, options);
  }

  /** Deletes the attribute and every one of its terms (there is no trash). */
  delete(id: number, options?: RequestOptions): APIPromise<ProductAttribute> {
    return this.#collection.delete(id, {}, options);
  }

  /** Every attribute, on a single page (the store does not page this list). */
  list(params?: ProductAttributeListParams, options?: ListOptions): PagePromise<ProductAttribute> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<ProductAttributeCreateInput, ProductAttributeUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<ProductAttribute>> {
    return this.#collection.batch(input, options);
  }
}

/** `/products/attributes/{attribute_id}/terms`: the values of one global attribute. */
export class AttributeTerms {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** The slug comes from the name unless given; a name already used is a 400 `term_exists`. */
  create(
    attributeId: number,
    input: AttributeTermCreateInput,
    options?: RequestOptions,
  ): APIPromise<AttributeTerm> {
    return this.#collection(attributeId).create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(
    attributeId: number,
    id: number,
    params?: GetParams,
    options?: RequestOptions,
  ): APIPromise<AttributeTerm> {
    return this.#collection(attributeId).get(id, params, options);
  }

  /** Only the fields you pass change; products show the new name. */
  update(
    attributeId: number,
    id: number,
    input: AttributeTermUpdateInput,
    options?: RequestOptions,
  ): APIPromise<AttributeTerm> {
    return this.#collection(attributeId).update(id, input, options);
  }

  /** Terms have no trash, so this always deletes for good (`force=true`); products lose the value. */
  delete(attributeId: number, id: number, options?: RequestOptions): APIPromise<AttributeTerm> {
    return this.#collection(attributeId).delete(id, {}, options);
  }

  /** `await` gives the first page; `for await` walks every term of the attribute. */
  list(
    attributeId: number,
    params?: AttributeTermListParams,
    options?: ListOptions,
  ): PagePromise<AttributeTerm> {
    return this.#collection(attributeId).list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    attributeId: number,
    input: BatchInput<AttributeTermCreateInput, AttributeTermUpdateInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<AttributeTerm>> {
    return this.#collection(attributeId).batch(input, options);
  }

  #collection(attributeId: number): Collection<typeof termSchemas> {
    return new Collection(
      this.#context,
      () => `/products/attributes/${checkId(attributeId, 'attributeId')}/terms`,
      termSchemas,
    );
  }
}
