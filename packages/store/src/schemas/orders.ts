import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import {
  address,
  addressInput,
  collectionParams,
  id,
  links,
  metaData,
  metaDataInput,
  money,
  moneyInput,
  wcDate,
} from './common.js';

/** Every core status; plugins register more (hence open). `trash` appears on trashed orders. */
export const orderStatus = openEnum([
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'trash',
  'checkout-draft',
]);
export type OrderStatus = z.infer<typeof orderStatus>;

const tax = z.looseObject({
  id: z.number(),
  total: z.optional(z.string()),
  subtotal: z.optional(z.string()),
});

export const lineItem = z.looseObject({
  id: z.number(),
  name: z.string(),
  product_id: z.number(),
  variation_id: z.number(),
  quantity: z.number(),
  tax_class: z.string(),
  subtotal: money,
  subtotal_tax: money,
  total: money,
  total_tax: money,
  taxes: z.array(tax),
  meta_data: metaData,
  sku: z.nullable(z.string()),
  /** The one money field WooCommerce sends as a JSON number. */
  price: z.number(),
});

export const order = z.looseObject({
  id: z.number(),
  parent_id: z.number(),
  number: z.string(),
  order_key: z.string(),
  created_via: z.string(),
  status: orderStatus,
  currency: z.string(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  date_modified: wcDate,
  date_modified_gmt: wcDate,
  discount_total: money,
  discount_tax: money,
  shipping_total: money,
  shipping_tax: money,
  cart_tax: money,
  total: money,
  total_tax: money,
  prices_include_tax: z.boolean(),
  customer_id: z.number(),
  customer_note: z.string(),
  billing: address,
  shipping: address,
  payment_method: z.string(),
  payment_method_title: z.string(),
  transaction_id: z.string(),
  date_paid: wcDate,
  date_paid_gmt: wcDate,
  date_completed: wcDate,
  date_completed_gmt: wcDate,
  meta_data: metaData,
  line_items: z.array(lineItem),
  tax_lines: z.array(z.looseObject({ id: z.number() })),
  shipping_lines: z.array(z.looseObject({ id: z.number(), method_id: z.string(), total: money })),
  fee_lines: z.array(z.looseObject({ id: z.number(), name: z.string(), total: money })),
  coupon_lines: z.array(z.looseObject({ id: z.number(), code: z.string() })),
  refunds: z.array(z.looseObject({ id: z.number(), reason: z.nullable(z.string()), total: money })),
  _links: links,
});
export type Order = z.infer<typeof order>;

const lineItemInput = z.looseObject({
  id: z.optional(id),
  product_id: z.optional(id),
  variation_id: z.optional(z.number().check(z.int(), z.minimum(0))),
  sku: z.optional(z.string()),
  name: z.optional(z.string()),
  quantity: z.optional(z.number().check(z.int(), z.minimum(0))),
  tax_class: z.optional(z.string()),
  subtotal: z.optional(moneyInput),
  total: z.optional(moneyInput),
  meta_data: z.optional(metaDataInput),
});

export const orderInput = z.partial(
  z.looseObject({
    parent_id: z.number().check(z.int()),
    status: orderStatus,
    currency: z.string().check(z.length(3, 'currency must be an ISO 4217 code such as "EUR"')),
    customer_id: z.number().check(z.int(), z.minimum(0)),
    customer_note: z.string(),
    billing: addressInput,
    shipping: addressInput,
    payment_method: z.string(),
    payment_method_title: z.string(),
    transaction_id: z.string(),
    meta_data: metaDataInput,
    line_items: z.array(lineItemInput),
    shipping_lines: z.array(
      z.looseObject({
        id: z.optional(id),
        method_id: z.optional(z.string()),
        method_title: z.optional(z.string()),
        total: z.optional(moneyInput),
      }),
    ),
    fee_lines: z.array(
      z.looseObject({ id: z.optional(id), name: z.optional(z.string()), total: z.optional(moneyInput) }),
    ),
    coupon_lines: z.array(z.looseObject({ id: z.optional(id), code: z.optional(z.string()) })),
    /** Marks the order paid: `processing` (or `completed` when nothing needs shipping) and `date_paid`. */
    set_paid: z.boolean(),
  }),
);
export type OrderInput = z.input<typeof orderInput>;

export const orderListParams = z.looseObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  parent: z.optional(z.array(id)),
  parent_exclude: z.optional(z.array(id)),
  /** One status or several; `any` (the default) excludes trash. */
  status: z.optional(
    z.union([z.union([orderStatus, z.literal('any')]), z.array(z.union([orderStatus, z.literal('any')]))]),
  ),
  customer: z.optional(z.number().check(z.int(), z.minimum(0))),
  product: z.optional(id),
  dp: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export type OrderListParams = z.input<typeof orderListParams>;

export const orderNote = z.looseObject({
  id: z.number(),
  author: z.string(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  note: z.string(),
  customer_note: z.boolean(),
  _links: links,
});
export type OrderNote = z.infer<typeof orderNote>;
export const orderNoteInput = z.looseObject({
  note: z.string().check(z.minLength(1)),
  customer_note: z.optional(z.boolean()),
  added_by_user: z.optional(z.boolean()),
});
export type OrderNoteInput = z.input<typeof orderNoteInput>;
export const orderNoteListParams = z.looseObject({
  type: z.optional(z.enum(['any', 'customer', 'internal'])),
});
export type OrderNoteListParams = z.input<typeof orderNoteListParams>;

export const refund = z.looseObject({
  id: z.number(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  amount: money,
  reason: z.string(),
  refunded_by: z.number(),
  refunded_payment: z.boolean(),
  meta_data: metaData,
  line_items: z.array(z.looseObject({ id: z.number() })),
  _links: links,
});
export type Refund = z.infer<typeof refund>;

export const refundInput = z.looseObject({
  amount: z.optional(moneyInput),
  reason: z.optional(z.string()),
  refunded_by: z.optional(z.number().check(z.int())),
  meta_data: z.optional(metaDataInput),
  line_items: z.optional(
    z.array(
      z.looseObject({
        id: id,
        quantity: z.optional(z.number().check(z.int(), z.minimum(0))),
        refund_total: z.optional(z.number()),
        refund_tax: z.optional(z.array(z.looseObject({ id: id, refund_total: z.number() }))),
      }),
    ),
  ),
  /**
   * Required here although the API defaults it to true: `true` asks the payment gateway to send the
   * money back and fails (500) for gateways without automatic refunds; `false` records a manual refund.
   */
  api_refund: z.boolean(),
  api_restock: z.optional(z.boolean()),
});
export type RefundInput = z.input<typeof refundInput>;
export const refundListParams = z.looseObject({
  ...collectionParams,
  dp: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export type RefundListParams = z.input<typeof refundListParams>;
