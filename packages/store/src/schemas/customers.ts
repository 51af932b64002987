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
export type Customer = z.infer<typeof customer>;

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
export const customerCreateInput = z.looseObject({
  ...z.partial(z.looseObject(customerFields)).shape,
  email: customerFields.email,
});
export type CustomerCreateInput = z.input<typeof customerCreateInput>;
export const customerUpdateInput = z.partial(z.looseObject(customerFields));
export type CustomerUpdateInput = z.input<typeof customerUpdateInput>;

export const customerListParams = z.looseObject({
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
export type CustomerListParams = z.input<typeof customerListParams>;
