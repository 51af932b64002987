import type { BaseClient, RequestOptions } from '@x/core';
import {
  product,
  productInput,
  productListParams,
  term,
  termInputSchema,
  termListParams,
  variation,
  variationInput,
  variationListParams,
} from '../schemas/products.js';
import { Collection, checkId } from './collection.js';

const productSchemas = {
  item: product,
  create: productInput,
  update: productInput,
  list: productListParams,
  name: 'products',
  trashable: true,
};
const variationSchemas = {
  item: variation,
  create: variationInput,
  update: variationInput,
  list: variationListParams,
  name: 'variations',
  trashable: false,
};
const termSchemas = (name: string) => ({
  item: term,
  create: termInputSchema,
  update: termInputSchema,
  list: termListParams,
  name,
  trashable: false,
});

type VariationCollection = Collection<
  typeof variation,
  typeof variationInput,
  typeof variationInput,
  typeof variationListParams
>;

/** `/products/{product_id}/variations`: the same verbs, under their parent product. */
export class Variations {
  constructor(private readonly client: BaseClient) {}
  #of(productId: number): VariationCollection {
    return new Collection(
      this.client,
      () => `/products/${checkId(productId, 'productId')}/variations`,
      variationSchemas,
    );
  }
  create(productId: number, input: Parameters<VariationCollection['create']>[0], options?: RequestOptions) {
    return this.#of(productId).create(input, options);
  }
  get(
    productId: number,
    id: number,
    params?: Parameters<VariationCollection['get']>[1],
    options?: RequestOptions,
  ) {
    return this.#of(productId).get(id, params, options);
  }
  update(
    productId: number,
    id: number,
    input: Parameters<VariationCollection['update']>[1],
    options?: RequestOptions,
  ) {
    return this.#of(productId).update(id, input, options);
  }
  delete(productId: number, id: number, options?: RequestOptions) {
    return this.#of(productId).delete(id, {}, options);
  }
  list(
    productId: number,
    params?: Parameters<VariationCollection['list']>[0],
    options?: Parameters<VariationCollection['list']>[1],
  ) {
    return this.#of(productId).list(params, options);
  }
  batch(
    productId: number,
    input: Parameters<VariationCollection['batch']>[0],
    options?: Parameters<VariationCollection['batch']>[1],
  ) {
    return this.#of(productId).batch(input, options);
  }
}

export class Products extends Collection<
  typeof product,
  typeof productInput,
  typeof productInput,
  typeof productListParams
> {
  readonly variations: Variations;
  readonly categories: Collection<
    typeof term,
    typeof termInputSchema,
    typeof termInputSchema,
    typeof termListParams
  >;
  readonly tags: Collection<
    typeof term,
    typeof termInputSchema,
    typeof termInputSchema,
    typeof termListParams
  >;

  constructor(client: BaseClient) {
    super(client, '/products', productSchemas);
    this.variations = new Variations(client);
    this.categories = new Collection(client, '/products/categories', termSchemas('product categories'));
    this.tags = new Collection(client, '/products/tags', termSchemas('product tags'));
  }
}
