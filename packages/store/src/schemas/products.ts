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
/** A product as the store sends it; prices are decimal strings ("" when unset). */
export interface Product extends z.infer<typeof product> {}

const ref = z.strictObject({ id: id });
const download = z.strictObject({
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  file: z.optional(z.string()),
});
const dimensionsInput = z.partial(
  z.strictObject({ length: z.string(), width: z.string(), height: z.string() }),
);
const imageInput = z.strictObject({
  id: z.optional(id),
  src: z.optional(z.string()),
  name: z.optional(z.string()),
  alt: z.optional(z.string()),
});
const attributeInput = z.strictObject({
  /** A global attribute (`client.products.attributes`): its name applies, and `options` are its term names. */
  id: z.optional(z.number()),
  /** A custom attribute's name (ignored when `id` names a global one). */
  name: z.optional(z.string()),
  position: z.optional(z.number().check(z.int())),
  visible: z.optional(z.boolean()),
  /** Used for variations (variable products). */
  variation: z.optional(z.boolean()),
  options: z.optional(z.array(z.string())),
});
const defaultAttributeInput = z.strictObject({
  id: z.optional(z.number()),
  name: z.optional(z.string()),
  option: z.optional(z.string()),
});
/** Fields products and variations share (WooCommerce's writable product schema). */
const sellableFields = {
  description: z.string(),
  sku: z.string(),
  global_unique_id: z.string(),
  regular_price: moneyInput,
  sale_price: moneyInput,
  date_on_sale_from: z.nullable(dateInput),
  date_on_sale_from_gmt: z.nullable(dateInput),
  date_on_sale_to: z.nullable(dateInput),
  date_on_sale_to_gmt: z.nullable(dateInput),
  virtual: z.boolean(),
  downloadable: z.boolean(),
  downloads: z.array(download),
  download_limit: z.number().check(z.int()),
  download_expiry: z.number().check(z.int()),
  tax_status: openEnum(['taxable', 'shipping', 'none']),
  tax_class: z.string(),
  manage_stock: z.boolean(),
  stock_quantity: z.nullable(z.number().check(z.int())),
  stock_status: stockStatus,
  backorders: openEnum(['no', 'notify', 'yes']),
  low_stock_amount: z.nullable(z.number().check(z.int())),
  weight: z.string(),
  dimensions: dimensionsInput,
  /** A shipping class slug (`client.products.shippingClasses`); one that does not exist clears the class. */
  shipping_class: z.string(),
  menu_order: z.number().check(z.int()),
  meta_data: metaDataInput,
};

const productInputShape = z.partial(
  z.strictObject({
    ...sellableFields,
    name: z.string(),
    slug: z.string(),
    type: productType,
    status: productStatus,
    featured: z.boolean(),
    catalog_visibility: openEnum(['visible', 'catalog', 'search', 'hidden']),
    short_description: z.string(),
    external_url: z.string(),
    button_text: z.string(),
    sold_individually: z.boolean(),
    reviews_allowed: z.boolean(),
    upsell_ids: z.array(id),
    cross_sell_ids: z.array(id),
    grouped_products: z.array(id),
    parent_id: z.number().check(z.int()),
    purchase_note: z.string(),
    post_password: z.string(),
    date_created: z.nullable(dateInput),
    date_created_gmt: z.nullable(dateInput),
    categories: z.array(ref),
    tags: z.array(ref),
    images: z.array(imageInput),
    attributes: z.array(attributeInput),
    default_attributes: z.array(defaultAttributeInput),
  }),
);
/** The fields of a product you can write; on update, only those you pass change. */
export interface ProductInput extends z.input<typeof productInputShape> {}
export const productInput: z.ZodMiniType<ProductInput, ProductInput> = productInputShape;

const productListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(
    openEnum(['date', 'id', 'include', 'title', 'slug', 'modified', 'price', 'popularity', 'rating']),
  ),
  parent: z.optional(z.array(id)),
  parent_exclude: z.optional(z.array(id)),
  slug: z.optional(z.string()),
  status: z.optional(openEnum(['any', 'draft', 'pending', 'private', 'publish'])),
  include_status: z.optional(z.array(z.string())),
  exclude_status: z.optional(z.array(z.string())),
  type: z.optional(productType),
  include_types: z.optional(z.array(z.string())),
  exclude_types: z.optional(z.array(z.string())),
  sku: z.optional(z.string()),
  search_sku: z.optional(z.string()),
  search_name_or_sku: z.optional(z.string()),
  featured: z.optional(z.boolean()),
  category: z.optional(z.union([z.string(), z.number()])),
  tag: z.optional(z.union([z.string(), z.number()])),
  /** Shipping class id(s): `12` or `'12,13'`. */
  shipping_class: z.optional(z.union([z.string(), z.number()])),
  /** A global attribute's taxonomy (`pa_color`); filters only together with `attribute_term`. */
  attribute: z.optional(z.string()),
  /** Term id(s) of `attribute`: `7` or `'7,8'`. */
  attribute_term: z.optional(z.union([z.string(), z.number()])),
  tax_class: z.optional(z.string()),
  on_sale: z.optional(z.boolean()),
  min_price: z.optional(moneyInput),
  max_price: z.optional(moneyInput),
  stock_status: z.optional(stockStatus),
  downloadable: z.optional(z.boolean()),
  virtual: z.optional(z.boolean()),
  include_meta: z.optional(z.array(z.string())),
  exclude_meta: z.optional(z.array(z.string())),
});
export interface ProductListParams extends z.input<typeof productListShape> {}
export const productListParams: z.ZodMiniType<ProductListParams, ProductListParams> = productListShape;

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
/** One variation of a variable product (`manage_stock: 'parent'` when the parent holds the stock). */
export interface Variation extends z.infer<typeof variation> {}

const variationInputShape = z.partial(
  z.strictObject({
    ...sellableFields,
    status: productStatus,
    attributes: z.array(
      z.strictObject({ id: z.optional(z.number()), name: z.optional(z.string()), option: z.string() }),
    ),
    image: imageInput,
  }),
);
export interface VariationInput extends z.input<typeof variationInputShape> {}
export const variationInput: z.ZodMiniType<VariationInput, VariationInput> = variationInputShape;

const variationListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  parent: z.optional(z.array(id)),
  parent_exclude: z.optional(z.array(id)),
  slug: z.optional(z.string()),
  sku: z.optional(z.string()),
  status: z.optional(openEnum(['any', 'draft', 'pending', 'private', 'publish'])),
  tax_class: z.optional(z.string()),
  on_sale: z.optional(z.boolean()),
  min_price: z.optional(moneyInput),
  max_price: z.optional(moneyInput),
  stock_status: z.optional(stockStatus),
});
export interface VariationListParams extends z.input<typeof variationListShape> {}
export const variationListParams: z.ZodMiniType<VariationListParams, VariationListParams> =
  variationListShape;

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
/** A product category or tag. */
export interface Term extends z.infer<typeof term> {}
const termInputShape = z.partial(
  z.strictObject({
    name: z.string().check(z.minLength(1)),
    slug: z.string(),
    parent: z.number().check(z.int()),
    description: z.string(),
    display: openEnum(['default', 'products', 'subcategories', 'both']),
    image: z.nullable(imageInput),
    menu_order: z.number().check(z.int()),
  }),
);
export interface TermInput extends z.input<typeof termInputShape> {}
export const termInputSchema: z.ZodMiniType<TermInput, TermInput> = termInputShape;
const termListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['id', 'include', 'name', 'slug', 'term_group', 'description', 'count'])),
  hide_empty: z.optional(z.boolean()),
  parent: z.optional(z.number()),
  product: z.optional(z.number()),
  slug: z.optional(z.string()),
});
export interface TermListParams extends z.input<typeof termListShape> {}
export const termListParams: z.ZodMiniType<TermListParams, TermListParams> = termListShape;
