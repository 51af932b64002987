import * as z from 'zod/mini';
import { amount, priceGroup } from './money.js';

/** StoreApi/Schemas/V1/ImageAttachmentSchema.php. */
const imageShape = z.looseObject({
  id: z.number(),
  src: z.string(),
  thumbnail: z.optional(z.string()),
  srcset: z.optional(z.string()),
  sizes: z.optional(z.string()),
  name: z.optional(z.string()),
  alt: z.optional(z.string()),
});
export interface StoreImage extends z.infer<typeof imageShape> {}
export const storeImageSchema: z.ZodMiniType<StoreImage> = imageShape;

const termShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  link: z.optional(z.string()),
});

const productPricesShape = priceGroup({
  price: amount,
  regular_price: amount,
  sale_price: amount,
  price_range: z.optional(z.nullable(z.looseObject({ min_amount: amount, max_amount: amount }))),
});
/** A product's prices in minor units: `money(product.prices, 'price')`. */
export interface ProductPrices extends z.infer<typeof productPricesShape> {}

/** StoreApi/Schemas/V1/ProductSchema.php: a product as shoppers see it (no stock counts, no costs). */
const productShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  parent: z.optional(z.number()),
  type: z.string(),
  variation: z.optional(z.string()),
  permalink: z.string(),
  sku: z.optional(z.string()),
  short_description: z.optional(z.string()),
  description: z.optional(z.string()),
  on_sale: z.boolean(),
  prices: productPricesShape as z.ZodMiniType<ProductPrices>,
  price_html: z.optional(z.string()),
  average_rating: z.optional(z.string()),
  review_count: z.optional(z.number()),
  images: z.array(storeImageSchema),
  categories: z.optional(z.array(termShape)),
  tags: z.optional(z.array(termShape)),
  attributes: z.optional(z.array(z.looseObject({ id: z.number(), name: z.string() }))),
  variations: z.optional(
    z.array(
      z.looseObject({
        id: z.number(),
        attributes: z.array(z.looseObject({ name: z.string(), value: z.nullable(z.string()) })),
      }),
    ),
  ),
  has_options: z.optional(z.boolean()),
  is_purchasable: z.boolean(),
  is_in_stock: z.boolean(),
  is_on_backorder: z.optional(z.boolean()),
  low_stock_remaining: z.optional(z.nullable(z.number())),
  sold_individually: z.optional(z.boolean()),
  add_to_cart: z.optional(
    z.looseObject({
      text: z.string(),
      description: z.optional(z.string()),
      url: z.optional(z.string()),
      minimum: z.optional(z.number()),
      maximum: z.optional(z.number()),
      multiple_of: z.optional(z.number()),
    }),
  ),
  extensions: z.optional(z.record(z.string(), z.unknown())),
});
export interface StorefrontProduct extends z.infer<typeof productShape> {}
export const storefrontProductSchema: z.ZodMiniType<StorefrontProduct> = productShape;

const ORDERBY = [
  'date',
  'modified',
  'id',
  'include',
  'title',
  'slug',
  'price',
  'popularity',
  'rating',
  'menu_order',
] as const;
const ids = z.union([
  z.number().check(z.int(), z.positive()),
  z.array(z.number().check(z.int(), z.positive())),
]);
const minor = z.union([z.number().check(z.int(), z.nonnegative()), z.string().check(z.regex(/^\d+$/))]);

/**
 * The arguments of `GET products` (StoreApi/Schemas/V1/ProductSchema's collection params, applied by
 * StoreApi/Utilities/ProductQuery.php). `min_price`/`max_price` are in minor units, like the prices.
 */
const listParamsShape = z.strictObject({
  page: z.optional(z.number().check(z.int(), z.minimum(1))),
  per_page: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(100))),
  search: z.optional(z.string()),
  slug: z.optional(z.string()),
  sku: z.optional(z.string()),
  type: z.optional(z.enum(['simple', 'grouped', 'external', 'variable', 'variation'])),
  category: z.optional(z.union([z.string(), ids])),
  tag: z.optional(z.union([z.string(), ids])),
  include: z.optional(ids),
  exclude: z.optional(ids),
  featured: z.optional(z.boolean()),
  on_sale: z.optional(z.boolean()),
  min_price: z.optional(minor),
  max_price: z.optional(minor),
  orderby: z.optional(z.enum(ORDERBY)),
  order: z.optional(z.enum(['asc', 'desc'])),
});
export interface ProductListParams extends z.input<typeof listParamsShape> {}
export const productListParamsSchema: z.ZodMiniType<ProductListParams, ProductListParams> = listParamsShape;
