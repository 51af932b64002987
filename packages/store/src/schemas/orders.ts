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

const lineItemShape = z.looseObject({
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
/** A product line of an order, priced by the store. */
export interface OrderLineItem extends z.infer<typeof lineItemShape> {}
export const lineItem: z.ZodMiniType<OrderLineItem> = lineItemShape;

/** One tax rate's share of an order (or, negative, of a refund): `tax_total` on items, the rest on shipping. */
export const taxLine = z.looseObject({
  id: z.number(),
  rate_code: z.string(),
  rate_id: z.number(),
  label: z.string(),
  compound: z.boolean(),
  tax_total: money,
  shipping_tax_total: money,
  rate_percent: z.optional(z.number()),
  meta_data: metaData,
});
export interface OrderTaxLine extends z.infer<typeof taxLine> {}

/** A coupon applied to an order: what it took off (`discount`) and the tax that came off with it. */
export const couponLine = z.looseObject({
  id: z.number(),
  code: z.string(),
  discount: money,
  discount_tax: money,
  /** Recorded from the coupon when it was applied (WooCommerce 8.7+). */
  discount_type: z.optional(openEnum(['percent', 'fixed_cart', 'fixed_product'])),
  nominal_amount: z.optional(z.number()),
  free_shipping: z.optional(z.boolean()),
  meta_data: metaData,
});
export interface OrderCouponLine extends z.infer<typeof couponLine> {}

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
  tax_lines: z.array(taxLine),
  shipping_lines: z.array(
    z.looseObject({
      id: z.number(),
      method_id: z.string(),
      total: money,
      total_tax: money,
      taxes: z.array(tax),
    }),
  ),
  fee_lines: z.array(
    z.looseObject({ id: z.number(), name: z.string(), total: money, total_tax: money, taxes: z.array(tax) }),
  ),
  coupon_lines: z.array(couponLine),
  refunds: z.array(z.looseObject({ id: z.number(), reason: z.nullable(z.string()), total: money })),
  _links: links,
});
/** An order as the store sends it; totals are decimal strings, `line_items[].price` a number. */
export interface Order extends z.infer<typeof order> {}

const lineItemInputShape = z.strictObject({
  id: z.optional(id),
  product_id: z.optional(id),
  variation_id: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** A product reference too: the store looks the product up by SKU. */
  sku: z.optional(z.string()),
  name: z.optional(z.string()),
  /** `0` (with `id`) removes the line. */
  quantity: z.optional(z.number().check(z.int(), z.minimum(0))),
  tax_class: z.optional(z.string()),
  subtotal: z.optional(moneyInput),
  total: z.optional(moneyInput),
  meta_data: z.optional(metaDataInput),
});
/** A line to add (`product_id`, `variation_id` or `sku`) or change (`id`). */
export interface OrderLineItemInput extends z.input<typeof lineItemInputShape> {}

const shippingLineInputShape = z.strictObject({
  id: z.optional(id),
  method_id: z.optional(z.string()),
  method_title: z.optional(z.string()),
  instance_id: z.optional(z.string()),
  total: z.optional(moneyInput),
  meta_data: z.optional(metaDataInput),
});
export interface OrderShippingLineInput extends z.input<typeof shippingLineInputShape> {}

const feeLineInputShape = z.strictObject({
  id: z.optional(id),
  name: z.optional(z.string()),
  tax_class: z.optional(z.string()),
  tax_status: z.optional(openEnum(['taxable', 'none'])),
  total: z.optional(moneyInput),
  meta_data: z.optional(metaDataInput),
});
export interface OrderFeeLineInput extends z.input<typeof feeLineInputShape> {}

/**
 * A coupon to apply, by code. The list replaces the order's coupons (`[]` removes them all); coupon line ids are
 * read-only in wc/v3 (`woocommerce_rest_coupon_item_id_readonly`), so they are not accepted here.
 */
const couponLineInputShape = z.strictObject({
  id: z.optional(
    z.never({
      error:
        'coupon line ids are read-only (the store answers woocommerce_rest_coupon_item_id_readonly): send the codes the order should have, or coupon_lines: [] to remove them all',
    }),
  ),
  code: z.string().check(z.regex(/\S/, 'a coupon code is required (the store refuses a blank one)')),
});
export interface OrderCouponLineInput extends z.input<typeof couponLineInputShape> {}

const orderInputShape = z.partial(
  z.strictObject({
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
    line_items: z.array(lineItemInputShape as z.ZodMiniType<OrderLineItemInput, OrderLineItemInput>),
    shipping_lines: z.array(
      shippingLineInputShape as z.ZodMiniType<OrderShippingLineInput, OrderShippingLineInput>,
    ),
    fee_lines: z.array(feeLineInputShape as z.ZodMiniType<OrderFeeLineInput, OrderFeeLineInput>),
    coupon_lines: z.array(couponLineInputShape as z.ZodMiniType<OrderCouponLineInput, OrderCouponLineInput>),
    /** Marks the order paid: `processing` (or `completed` when nothing needs shipping) and `date_paid`. */
    set_paid: z.boolean(),
  }),
);
/** The fields of an order you can write; on update, only those you pass change. */
export interface OrderInput extends z.input<typeof orderInputShape> {}
export const orderInput: z.ZodMiniType<OrderInput, OrderInput> = orderInputShape;

const orderListShape = z.strictObject({
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
  order_item_display_meta: z.optional(z.boolean()),
  include_meta: z.optional(z.array(z.string())),
  exclude_meta: z.optional(z.array(z.string())),
});
export interface OrderListParams extends z.input<typeof orderListShape> {}
export const orderListParams: z.ZodMiniType<OrderListParams, OrderListParams> = orderListShape;

export const orderNote = z.looseObject({
  id: z.number(),
  author: z.string(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  note: z.string(),
  customer_note: z.boolean(),
  _links: links,
});
/** A note on an order: private, or shown (and emailed) to the customer. */
export interface OrderNote extends z.infer<typeof orderNote> {}
const orderNoteInputShape = z.strictObject({
  note: z.string().check(z.minLength(1)),
  customer_note: z.optional(z.boolean()),
  added_by_user: z.optional(z.boolean()),
});
export interface OrderNoteInput extends z.input<typeof orderNoteInputShape> {}
export const orderNoteInput: z.ZodMiniType<OrderNoteInput, OrderNoteInput> = orderNoteInputShape;
const orderNoteListShape = z.strictObject({
  type: z.optional(z.enum(['any', 'customer', 'internal'])),
});
export interface OrderNoteListParams extends z.input<typeof orderNoteListShape> {}
export const orderNoteListParams: z.ZodMiniType<OrderNoteListParams, OrderNoteListParams> =
  orderNoteListShape;

export const refund = z.looseObject({
  id: z.number(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  amount: money,
  reason: z.string(),
  refunded_by: z.number(),
  refunded_payment: z.boolean(),
  meta_data: metaData,
  /** The refunded lines, quantities and amounts negative; `taxes` per tax rate id. */
  line_items: z.array(
    z.looseObject({
      id: z.number(),
      quantity: z.number(),
      total: money,
      total_tax: money,
      taxes: z.array(tax),
    }),
  ),
  tax_lines: z.optional(z.array(taxLine)),
  _links: links,
});
/** A refund of an order; `amount` is a positive decimal string, the order shows it negative. */
export interface Refund extends z.infer<typeof refund> {}

const refundLineInputShape = z.strictObject({
  /** The order's line item id. */
  id: id,
  quantity: z.optional(z.number().check(z.int(), z.minimum(0))),
  /** Money refunded for this line, tax excluded: a decimal string like every amount sent. */
  refund_total: z.optional(moneyInput),
  refund_tax: z.optional(z.array(z.strictObject({ id: id, refund_total: moneyInput }))),
});
export interface RefundLineItemInput extends z.input<typeof refundLineInputShape> {}

const API_REFUND =
  'is required: true asks the payment gateway to send the money back (WooCommerce defaults to it, and it fails with a 500 for gateways without automatic refunds); false records a refund paid outside WooCommerce, which orders.refunds.createManual() sends for you';
const refundInputShape = z.strictObject({
  amount: z.optional(moneyInput),
  reason: z.optional(z.string()),
  refunded_by: z.optional(z.number().check(z.int())),
  meta_data: z.optional(metaDataInput),
  line_items: z.optional(
    z.array(refundLineInputShape as z.ZodMiniType<RefundLineItemInput, RefundLineItemInput>),
  ),
  /**
   * Required here although the API defaults it to true: `true` asks the payment gateway to send the
   * money back and fails (500) for gateways without automatic refunds; `false` records a manual refund.
   */
  api_refund: z.boolean({
    error: (issue) => (issue.input === undefined ? API_REFUND : 'expected true or false'),
  }),
  api_restock: z.optional(z.boolean()),
});
export interface RefundInput extends z.input<typeof refundInputShape> {}
export const refundInput: z.ZodMiniType<RefundInput, RefundInput> = refundInputShape;
/** A refund recorded in the store only: `createManual()` sends `api_refund: false` itself. */
export interface ManualRefundInput extends Omit<RefundInput, 'api_refund'> {}

const refundListShape = z.strictObject({
  ...collectionParams,
  dp: z.optional(z.number().check(z.int(), z.minimum(0))),
});
export interface RefundListParams extends z.input<typeof refundListShape> {}
export const refundListParams: z.ZodMiniType<RefundListParams, RefundListParams> = refundListShape;
