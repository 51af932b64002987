import {
  APIPromise,
  NotFoundError,
  type PagePromise,
  pageNumberStrategy,
  type RequestOptions,
  type RequestSpec,
} from '@x/core';
import * as z from 'zod/mini';
import { checkInput } from '../schemas/validate.js';
import type { StorefrontContext } from './call.js';
import {
  type ProductListParams,
  productListParamsSchema,
  type StorefrontProduct,
  storefrontProductSchema,
} from './schemas/products.js';

const pages = pageNumberStrategy<StorefrontProduct>({
  totalHeader: 'x-wp-total',
  totalPagesHeader: 'x-wp-totalpages',
});
const productId = z.number().check(z.int(), z.positive());
const slug = z.string().check(z.regex(/^[^\s/?#]+$/, 'expected a product id or a slug'));
const products = z.array(storefrontProductSchema);

/**
 * `products` (StoreApi/Routes/V1/Products.php, ProductsById.php): the published catalogue as shoppers see it,
 * prices in minor units. No keys: anyone may read it.
 */
export class StorefrontProducts {
  readonly #context: StorefrontContext;

  constructor(context: StorefrontContext) {
    this.#context = context;
  }

  /** A page of products (`per_page` up to 100, default 10); `for await` walks every page. */
  list(params?: ProductListParams, options?: RequestOptions): PagePromise<StorefrontProduct> {
    return this.#context.caller.list(
      (): RequestSpec => ({
        method: 'GET',
        path: '/products',
        query: checkInput(
          productListParamsSchema,
          params ?? {},
          'products.list params',
          this.#context.allowUnknownFields,
        ) as RequestSpec['query'],
        schema: products,
        what: 'products.list',
        options,
      }),
      pages,
    );
  }

  /**
   * One product by id, or by slug. A slug is looked up with the list's `slug` filter, which every Store API
   * version has (the `products/{slug}` route came later); no product with it is a `NotFoundError`.
   */
  get(idOrSlug: number | string, options?: RequestOptions): APIPromise<StorefrontProduct> {
    const caller = this.#context.caller;
    if (typeof idOrSlug === 'string') {
      const found = caller.request(
        () => ({
          method: 'GET' as const,
          path: '/products',
          query: { slug: checkInput(slug, idOrSlug, 'products.get slug', false), per_page: 1 },
          schema: products,
          what: 'products.get',
          options,
        }),
        false,
      );
      return wrapFirst(found, idOrSlug);
    }
    return caller.request(
      () => ({
        method: 'GET' as const,
        path: `/products/${checkInput(productId, idOrSlug, 'products.get id', false)}`,
        schema: storefrontProductSchema,
        what: 'products.get',
        options,
      }),
      false,
    );
  }
}

/** The first product of a slug lookup, or the 404 the by-id route would have given. */
function wrapFirst(found: APIPromise<StorefrontProduct[]>, slugText: string): APIPromise<StorefrontProduct> {
  const result = found.withResponse().then((answer) => {
    const product = answer.data[0];
    if (product) return { ...answer, data: product };
    throw new NotFoundError({
      status: 404,
      code: 'woocommerce_rest_product_invalid_slug',
      message: `No published product has the slug ${JSON.stringify(slugText.slice(0, 100))} (GET /products?slug=)`,
      headers: answer.headers,
      body: [],
      method: 'GET',
      url: answer.response.url,
    });
  });
  return new APIPromise(result);
}
