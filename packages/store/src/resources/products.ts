import type { APIPromise, PagePromise, RequestOptions } from '@x/core';
import {
  type Product,
  type ProductInput,
  type ProductListParams,
  product,
  productInput,
  productListParams,
  type Term,
  type TermInput,
  type TermListParams,
  term,
  termInputSchema,
  termListParams,
  type Variation,
  type VariationInput,
  type VariationListParams,
  variation,
  variationInput,
  variationListParams,
} from '../schemas/products.js';
import type { SyncOptions } from '../sync/checkpoint.js';
import {
  type BatchInput,
  type BatchOptions,
  type BatchResult,
  Collection,
  checkId,
  type DeleteParams,
  type GetParams,
  type ListOptions,
  type Schemas,
  type StoreContext,
} from './collection.js';
import { ProductAttributes } from './product-attributes.js';
import { Reviews } from './reviews.js';
import { ShippingClasses } from './shipping-classes.js';
import { Sync, type SyncRun } from './sync.js';

const productSchemas = {
  item: product,
  create: productInput,
  list: productListParams,
  name: 'products',
  trashable: true,
} satisfies Schemas;
const variationSchemas = {
  item: variation,
  create: variationInput,
  list: variationListParams,
  name: 'variations',
  trashable: false,
} satisfies Schemas;
const termSchemas = {
  item: term,
  create: termInputSchema,
  list: termListParams,
  name: 'product terms',
  trashable: false,
} satisfies Schemas;

/** `/products`, with their variations, categories and tags. */
export class Products {
  readonly variations: Variations;
  readonly categories: ProductTerms;
  readonly tags: ProductTerms;
  readonly attributes: ProductAttributes;
  readonly shippingClasses: ShippingClasses;
  readonly reviews: Reviews;
  readonly #collection: Collection<typeof productSchemas>;
  readonly #sync: Sync<Product>;

  constructor(context: StoreContext) {
    this.#collection = new Collection(context, '/products', productSchemas);
    this.#sync = new Sync(context, '/products', productSchemas.item, 'products');
    this.variations = new Variations(context);
    this.categories = new ProductTerms(context, 'categories');
    this.tags = new ProductTerms(context, 'tags');
    this.attributes = new ProductAttributes(context);
    this.shippingClasses = new ShippingClasses(context);
    this.reviews = new Reviews(context);
  }

  /** Prices are decimal strings (`regular_price: '19.99'`): the store rejects JSON numbers. */
  create(input: ProductInput, options?: RequestOptions): APIPromise<Product> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Product> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change. */
  update(id: number, input: ProductInput, options?: RequestOptions): APIPromise<Product> {
    return this.#collection.update(id, input, options);
  }

  /** Moves the product to the trash; `{ force: true }` deletes it for good. */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Product> {
    return this.#collection.delete(id, params, options);
  }

  /** `await` gives the first page; `for await` walks every product of every page. */
  list(params?: ProductListParams, options?: ListOptions): PagePromise<Product> {
    return this.#collection.list(params, options);
  }

  /**
   * Every product once, oldest change first (keyset on `date_modified_gmt`, ties by id), even while products change. `run.checkpoint` (plain JSON) resumes it: `sync({ checkpoint })`; without options it continues from the
   * client's last checkpoint (or a `checkpointStore`). README: "Resumable sync".
   */
  sync(options?: SyncOptions, requestOptions?: RequestOptions): SyncRun<Product> {
    return this.#sync.run(options, requestOptions);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    input: BatchInput<ProductInput, ProductInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Product>> {
    return this.#collection.batch(input, options);
  }
}

/** `/products/{product_id}/variations`: the same verbs, under their parent product. */
export class Variations {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** Prices are decimal strings; a variation without `regular_price` cannot be bought. */
  create(productId: number, input: VariationInput, options?: RequestOptions): APIPromise<Variation> {
    return this.#collection(productId).create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(productId: number, id: number, params?: GetParams, options?: RequestOptions): APIPromise<Variation> {
    return this.#collection(productId).get(id, params, options);
  }

  /** Only the fields you pass change. */
  update(
    productId: number,
    id: number,
    input: VariationInput,
    options?: RequestOptions,
  ): APIPromise<Variation> {
    return this.#collection(productId).update(id, input, options);
  }

  /** Variations have no trash, so this always deletes for good (`force=true`). */
  delete(productId: number, id: number, options?: RequestOptions): APIPromise<Variation> {
    return this.#collection(productId).delete(id, {}, options);
  }

  /** `await` gives the first page; `for await` walks every variation of the product. */
  list(productId: number, params?: VariationListParams, options?: ListOptions): PagePromise<Variation> {
    return this.#collection(productId).list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(
    productId: number,
    input: BatchInput<VariationInput, VariationInput>,
    options?: BatchOptions,
  ): Promise<BatchResult<Variation>> {
    return this.#collection(productId).batch(input, options);
  }

  #collection(productId: number): Collection<typeof variationSchemas> {
    return new Collection(
      this.#context,
      () => `/products/${checkId(productId, 'productId')}/variations`,
      variationSchemas,
    );
  }
}

/** `/products/categories` and `/products/tags`: the two product taxonomies share one shape. */
export class ProductTerms {
  readonly #collection: Collection<typeof termSchemas>;

  constructor(context: StoreContext, taxonomy: 'categories' | 'tags') {
    this.#collection = new Collection(context, `/products/${taxonomy}`, {
      ...termSchemas,
      name: `product ${taxonomy}`,
    });
  }

  /** The store derives `slug` from `name` when you leave it out. */
  create(input: TermInput, options?: RequestOptions): APIPromise<Term> {
    return this.#collection.create(input, options);
  }

  /** With `_fields` the store sends only those fields, and only those are validated. */
  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Term> {
    return this.#collection.get(id, params, options);
  }

  /** Only the fields you pass change. */
  update(id: number, input: TermInput, options?: RequestOptions): APIPromise<Term> {
    return this.#collection.update(id, input, options);
  }

  /** Terms have no trash, so this always deletes for good (`force=true`). */
  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Term> {
    return this.#collection.delete(id, params, options);
  }

  /** `await` gives the first page; `for await` walks every term of every page. */
  list(params?: TermListParams, options?: ListOptions): PagePromise<Term> {
    return this.#collection.list(params, options);
  }

  /** Any number of creates, updates and deletes, sent in requests of at most 100 items. */
  batch(input: BatchInput<TermInput, TermInput>, options?: BatchOptions): Promise<BatchResult<Term>> {
    return this.#collection.batch(input, options);
  }
}
