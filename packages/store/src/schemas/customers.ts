import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { address, addressInput, collectionParams, links, metaData, metaDataInput, wcDate } from './common.js';

export const customer = z.looseObject({
  id: z.number(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  date_modified: wcDate,
  date_modified_gmt: wcDate,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  username: z.string(),
  billing: address,
  shipping: address,
  is_paying_customer: z.boolean(),
  avatar_url: z.optional(z.string()),
  meta_data: metaData,
  _links: links,
});
/** A registered customer (a WordPress user with the `customer` role, unless `role` says otherwise). */
export interface Customer extends z.infer<typeof customer> {}

const customerFields = {
  email: z.string().check(z.email()),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  password: z.string(),
  billing: addressInput,
  shipping: addressInput,
  meta_data: metaDataInput,
};
/** `email` is required on create; `username` cannot change afterwards. */
const customerCreateShape = z.strictObject({
  ...z.partial(z.strictObject(customerFields)).shape,
  email: customerFields.email,
});
export interface CustomerCreateInput extends z.input<typeof customerCreateShape> {}
export const customerCreateInput: z.ZodMiniType<CustomerCreateInput, CustomerCreateInput> =
  customerCreateShape;
const customerUpdateShape = z.partial(z.strictObject(customerFields));
export interface CustomerUpdateInput extends z.input<typeof customerUpdateShape> {}
export const customerUpdateInput: z.ZodMiniType<CustomerUpdateInput, CustomerUpdateInput> =
  customerUpdateShape;

const customerListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['id', 'include', 'name', 'registered_date'])),
  email: z.optional(z.string()),
  /** Defaults to `customer` on the server; `all` lists every role. */
  role: z.optional(
    openEnum([
      'all',
      'administrator',
      'editor',
      'author',
      'contributor',
      'subscriber',
      'customer',
      'shop_manager',
    ]),
  ),
});
export interface CustomerListParams extends z.input<typeof customerListShape> {}
export const customerListParams: z.ZodMiniType<CustomerListParams, CustomerListParams> = customerListShape;
