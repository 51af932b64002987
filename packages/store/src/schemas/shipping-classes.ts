import * as z from 'zod/mini';
import { links } from './common.js';
import { flatTermListFields } from './product-attributes.js';

/** A shipping class (a term of `product_shipping_class`); products name it by `slug`. */
export const shippingClass = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  count: z.number(),
  _links: links,
});
export interface ShippingClass extends z.infer<typeof shippingClass> {}

const shippingClassFields = {
  name: z.string().check(z.minLength(1)),
  slug: z.string(),
  description: z.string(),
};
const shippingClassCreateShape = z.strictObject({
  ...z.partial(z.strictObject(shippingClassFields)).shape,
  name: shippingClassFields.name,
});
export interface ShippingClassCreateInput extends z.input<typeof shippingClassCreateShape> {}
export const shippingClassCreateInput: z.ZodMiniType<ShippingClassCreateInput, ShippingClassCreateInput> =
  shippingClassCreateShape;
const shippingClassUpdateShape = z.partial(z.strictObject(shippingClassFields));
export interface ShippingClassUpdateInput extends z.input<typeof shippingClassUpdateShape> {}
export const shippingClassUpdateInput: z.ZodMiniType<ShippingClassUpdateInput, ShippingClassUpdateInput> =
  shippingClassUpdateShape;

const shippingClassListShape = z.strictObject(flatTermListFields);
export interface ShippingClassListParams extends z.input<typeof shippingClassListShape> {}
export const shippingClassListParams: z.ZodMiniType<ShippingClassListParams, ShippingClassListParams> =
  shippingClassListShape;
