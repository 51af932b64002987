import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { collectionParams, links } from './common.js';

const orderBy = openEnum(['menu_order', 'name', 'name_num', 'id']);

/** A global product attribute (a row of woocommerce_attribute_taxonomies). */
export const productAttribute = z.looseObject({
  id: z.number(),
  name: z.string(),
  /** The taxonomy, with its `pa_` prefix (`pa_color`). */
  slug: z.string(),
  type: openEnum(['select']),
  order_by: orderBy,
  has_archives: z.boolean(),
  _links: links,
});
/** A global product attribute; its values are terms (`client.products.attributes.terms`). */
export interface ProductAttribute extends z.infer<typeof productAttribute> {}

const attributeFields = {
  name: z.string().check(z.minLength(1)),
  /** With or without `pa_`; at most 28 characters after it, and not a WordPress query var such as `type`. */
  slug: z.string(),
  /** `select` unless a plugin or a block theme adds types. */
  type: openEnum(['select']),
  order_by: orderBy,
  has_archives: z.boolean(),
};
const attributeCreateShape = z.strictObject({
  ...z.partial(z.strictObject(attributeFields)).shape,
  name: attributeFields.name,
});
export interface ProductAttributeCreateInput extends z.input<typeof attributeCreateShape> {}
export const productAttributeCreateInput: z.ZodMiniType<
  ProductAttributeCreateInput,
  ProductAttributeCreateInput
> = attributeCreateShape;
const attributeUpdateShape = z.partial(z.strictObject(attributeFields));
/** Leaving `slug` out makes the store derive it from the name again (wc_update_attribute()). */
export interface ProductAttributeUpdateInput extends z.input<typeof attributeUpdateShape> {}
export const productAttributeUpdateInput: z.ZodMiniType<
  ProductAttributeUpdateInput,
  ProductAttributeUpdateInput
> = attributeUpdateShape;

/** The attributes list takes no filters: every attribute comes on one page. */
const attributeListShape = z.strictObject({
  context: collectionParams.context,
  _fields: collectionParams._fields,
});
export interface ProductAttributeListParams extends z.input<typeof attributeListShape> {}
export const productAttributeListParams: z.ZodMiniType<
  ProductAttributeListParams,
  ProductAttributeListParams
> = attributeListShape;

/** A value of a global attribute (a term of its `pa_` taxonomy). */
export const attributeTerm = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  menu_order: z.number(),
  count: z.number(),
  _links: links,
});
export interface AttributeTerm extends z.infer<typeof attributeTerm> {}

const attributeTermFields = {
  name: z.string().check(z.minLength(1)),
  slug: z.string(),
  description: z.string(),
  menu_order: z.number().check(z.int()),
};
const attributeTermCreateShape = z.strictObject({
  ...z.partial(z.strictObject(attributeTermFields)).shape,
  name: attributeTermFields.name,
});
export interface AttributeTermCreateInput extends z.input<typeof attributeTermCreateShape> {}
export const attributeTermCreateInput: z.ZodMiniType<AttributeTermCreateInput, AttributeTermCreateInput> =
  attributeTermCreateShape;
const attributeTermUpdateShape = z.partial(z.strictObject(attributeTermFields));
export interface AttributeTermUpdateInput extends z.input<typeof attributeTermUpdateShape> {}
export const attributeTermUpdateInput: z.ZodMiniType<AttributeTermUpdateInput, AttributeTermUpdateInput> =
  attributeTermUpdateShape;

/** WC_REST_Terms_Controller::get_collection_params() for a flat taxonomy (no `parent`). */
export const flatTermListFields = {
  context: collectionParams.context,
  page: collectionParams.page,
  per_page: collectionParams.per_page,
  search: collectionParams.search,
  include: collectionParams.include,
  exclude: collectionParams.exclude,
  offset: collectionParams.offset,
  order: collectionParams.order,
  orderby: z.optional(openEnum(['id', 'include', 'name', 'slug', 'term_group', 'description', 'count'])),
  hide_empty: z.optional(z.boolean()),
  /** Only the terms this product carries. */
  product: z.optional(z.number().check(z.int(), z.positive())),
  slug: z.optional(z.string()),
  _fields: collectionParams._fields,
};
const attributeTermListShape = z.strictObject(flatTermListFields);
export interface AttributeTermListParams extends z.input<typeof attributeTermListShape> {}
export const attributeTermListParams: z.ZodMiniType<AttributeTermListParams, AttributeTermListParams> =
  attributeTermListShape;
