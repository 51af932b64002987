import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import {
  collectionParams,
  dateInput,
  id,
  links,
  metaData,
  metaDataInput,
  money,
  moneyInput,
  wcDate,
} from './common.js';

export const productType = openEnum(['simple', 'grouped', 'external', 'variable']);
export const productStatus = openEnum(['draft', 'pending', 'private', 'publish']);
export const stockStatus = openEnum(['instock', 'outofstock', 'onbackorder']);

const termRef = z.looseObject({ id: z.number(), name: z.optional(z.string()), slug: z.optional(z.string()) });
const image = z.looseObject({
  id: z.number(),
  src: z.string(),
  name: z.optional(z.string()),
  alt: z.optional(z.string()),
});
const dimensions = z.looseObject({ length: z.string(), width: z.string(), height: z.string() });

export const product = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  permalink: z.optional(z.string()),
  date_created: wcDate,
  date_created_gmt: wcDate,
  date_modified: wcDate,
  date_modified_gmt: wcDate,
  type: productType,
  status: productStatus,
  featured: z.boolean(),
  catalog_visibility: z.optional(z.string()),
  description: z.string(),
  short_description: z.string(),
  sku: z.string(),
  price: money,
  regular_price: money,
  sale_price: money,
  on_sale: z.boolean(),
  purchasable: z.optional(z.boolean()),
  total_sales: z.optional(z.union([z.number(), z.string()])),
  virtual: z.boolean(),
  downloadable: z.boolean(),
  tax_status: z.optional(z.string()),
  tax_class: z.optional(z.string()),
  manage_stock: z.boolean(),
  stock_quantity: z.nullable(z.number()),
  stock_status: stockStatus,
  backorders: z.optional(z.string()),
  weight: z.optional(z.string()),
  dimensions: z.optional(dimensions),
  parent_id: z.number(),
  categories: z.array(termRef),
  tags: z.array(termRef),
  images: z.array(image),
  attributes: z.array(
    z.looseObject({ id: z.number(), name: z.string(), options: z.optional(z.array(z.string())) }),
  ),
  variations: z.array(z.number()),
  meta_data: metaData,
  _links: links,
});
export type Product = z.infer<typeof product>;

const termInput = z.looseObject({ id: id });
export const productInput = z.partial(
  z.looseObject({
    name: z.string(),
    slug: z.string(),
    type: productType,
    status: productStatus,
    featured: z.boolean(),
    catalog_visibility: openEnum(['visible', 'catalog', 'search', 'hidden']),
    description: z.string(),
    short_description: z.string(),
    sku: z.string(),
    regular_price: moneyInput,
    sale_price: moneyInput,
    date_on_sale_from: z.nullable(dateInput),
    date_on_sale_to: z.nullable(dateInput),
    virtual: z.boolean(),
    downloadable: z.boolean(),
    tax_status: openEnum(['taxable', 'shipping', 'none']),
    tax_class: z.string(),
    manage_stock: z.boolean(),
    stock_quantity: z.nullable(z.number().check(z.int())),
    stock_status: stockStatus,
    backorders: openEnum(['no', 'notify', 'yes']),
    weight: z.string(),
    dimensions: z.partial(z.looseObject({ length: z.string(), width: z.string(), height: z.string() })),
    parent_id: z.number().check(z.int()),
    categories: z.array(termInput),
    tags: z.array(termInput),
    images: z.array(
      z.looseObject({
        id: z.optional(id),
        src: z.optional(z.string()),
        name: z.optional(z.string()),
        alt: z.optional(z.string()),
      }),
    ),
    attributes: z.array(
      z.looseObject({
        id: z.optional(z.number()),
        name: z.optional(z.string()),
        options: z.optional(z.array(z.string())),
      }),
    ),
    menu_order: z.number().check(z.int()),
    meta_data: metaDataInput,
  }),
);
export type ProductInput = z.input<typeof productInput>;

export const productListParams = z.looseObject({
  ...collectionParams,
  orderby: z.optional(
    openEnum(['date', 'id', 'include', 'title', 'slug', 'modified', 'price', 'popularity', 'rating']),
  ),
  parent: z.optional(z.array(id)),
  parent_exclude: z.optional(z.array(id)),
  slug: z.optional(z.string()),
  status: z.optional(openEnum(['any', 'draft', 'pending', 'private', 'publish'])),
  type: z.optional(productType),
  sku: z.optional(z.string()),
  featured: z.optional(z.boolean()),
  category: z.optional(z.union([z.string(), z.number()])),
  tag: z.optional(z.union([z.string(), z.number()])),
  shipping_class: z.optional(z.string()),
  attribute: z.optional(z.string()),
  attribute_term: z.optional(z.string()),
  tax_class: z.optional(z.string()),
  on_sale: z.optional(z.boolean()),
  min_price: z.optional(moneyInput),
  max_price: z.optional(moneyInput),
  stock_status: z.optional(stockStatus),
});
export type ProductListParams = z.input<typeof productListParams>;

export const variation = z.looseObject({
  id: z.number(),
  sku: z.string(),
  price: money,
  regular_price: money,
  sale_price: money,
  status: z.optional(productStatus),
  manage_stock: z.union([z.boolean(), z.literal('parent')]),
  stock_quantity: z.nullable(z.number()),
  stock_status: stockStatus,
  attributes: z.array(z.looseObject({ id: z.number(), name: z.string(), option: z.string() })),
  meta_data: metaData,
  _links: links,
});
export type Variation = z.infer<typeof variation>;

export const variationInput = z.partial(
  z.looseObject({
    sku: z.string(),
    regular_price: moneyInput,
    sale_price: moneyInput,
    status: productStatus,
    manage_stock: z.boolean(),
    stock_quantity: z.nullable(z.number().check(z.int())),
    stock_status: stockStatus,
    attributes: z.array(
      z.looseObject({ id: z.optional(z.number()), name: z.optional(z.string()), option: z.string() }),
    ),
    image: z.looseObject({ id: z.optional(id), src: z.optional(z.string()) }),
    meta_data: metaDataInput,
  }),
);
export type VariationInput = z.input<typeof variationInput>;

export const variationListParams = z.looseObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  sku: z.optional(z.string()),
  status: z.optional(openEnum(['any', 'draft', 'pending', 'private', 'publish'])),
  on_sale: z.optional(z.boolean()),
  min_price: z.optional(moneyInput),
  max_price: z.optional(moneyInput),
  stock_status: z.optional(stockStatus),
});
export type VariationListParams = z.input<typeof variationListParams>;

/** Categories and tags share one shape (tags have no parent, image or display). */
export const term = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  parent: z.optional(z.number()),
  description: z.string(),
  count: z.number(),
  _links: links,
});
export type Term = z.infer<typeof term>;
export const termInputSchema = z.partial(
  z.looseObject({
    name: z.string().check(z.minLength(1)),
    slug: z.string(),
    parent: z.number().check(z.int()),
    description: z.string(),
    display: openEnum(['default', 'products', 'subcategories', 'both']),
    menu_order: z.number().check(z.int()),
  }),
);
export type TermInput = z.input<typeof termInputSchema>;
export const termListParams = z.looseObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['id', 'include', 'name', 'slug', 'term_group', 'description', 'count'])),
  hide_empty: z.optional(z.boolean()),
  parent: z.optional(z.number()),
  product: z.optional(z.number()),
  slug: z.optional(z.string()),
});
export type TermListParams = z.input<typeof termListParams>;
