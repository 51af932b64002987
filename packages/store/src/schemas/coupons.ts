import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { collectionParams, dateInput, id, links, metaData, metaDataInput, money, wcDate } from './common.js';

/** wc_get_coupon_types(); plugins add their own (WooCommerce Subscriptions: `recurring_percent`, ...). */
export const couponDiscountType = openEnum(['percent', 'fixed_cart', 'fixed_product']);
/** Coupons are posts: any post status, `publish` being the one a cart or order accepts. */
export const couponStatus = openEnum(['publish', 'draft', 'pending', 'private', 'future', 'trash']);

const couponShape = z.looseObject({
  id: z.number(),
  /** Lower-cased by the store (wc_format_coupon_code()). */
  code: z.string(),
  amount: money,
  status: couponStatus,
  date_created: wcDate,
  date_created_gmt: wcDate,
  date_modified: wcDate,
  date_modified_gmt: wcDate,
  discount_type: couponDiscountType,
  description: z.string(),
  date_expires: wcDate,
  date_expires_gmt: wcDate,
  usage_count: z.number(),
  individual_use: z.boolean(),
  product_ids: z.array(z.number()),
  excluded_product_ids: z.array(z.number()),
  /** null: no limit. */
  usage_limit: z.nullable(z.number()),
  usage_limit_per_user: z.nullable(z.number()),
  limit_usage_to_x_items: z.nullable(z.number()),
  free_shipping: z.boolean(),
  product_categories: z.array(z.number()),
  excluded_product_categories: z.array(z.number()),
  exclude_sale_items: z.boolean(),
  /** "0.00" when there is no minimum. */
  minimum_amount: money,
  maximum_amount: money,
  email_restrictions: z.array(z.string()),
  /** User ids (as strings) or billing emails of the orders that used it, once per use. */
  used_by: z.array(z.union([z.string(), z.number()])),
  meta_data: metaData,
  _links: links,
});
/** A coupon (`shop_coupon` post). Amounts are decimal strings. */
export interface Coupon extends z.infer<typeof couponShape> {}
export const coupon: z.ZodMiniType<Coupon> = couponShape;

const AMOUNT = 'a decimal string of 0 or more such as "10" or "12.50"';
const couponAmount = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `expected ${AMOUNT}, not the number ${issue.input} (send "${issue.input}")`
        : `expected ${AMOUNT}`,
  })
  .check(z.regex(/^\d+(\.\d+)?$|^$/, `expected ${AMOUNT} (the store refuses negative amounts)`));
const limit = z.nullable(z.number().check(z.int(), z.minimum(0)));

const couponFields = {
  /** Stored lower-cased; must not be taken by another published coupon. */
  code: z.string(),
  /** A percentage for `percent` (at most 100), else money. */
  amount: couponAmount,
  status: couponStatus,
  discount_type: couponDiscountType,
  description: z.string(),
  /** Site time without offset, or with one; `''` removes the date (the store ignores `null`). */
  date_expires: dateInput,
  individual_use: z.boolean(),
  product_ids: z.array(id),
  excluded_product_ids: z.array(id),
  /** `0` or `null`: no limit. */
  usage_limit: limit,
  usage_limit_per_user: limit,
  limit_usage_to_x_items: limit,
  free_shipping: z.boolean(),
  product_categories: z.array(id),
  excluded_product_categories: z.array(id),
  exclude_sale_items: z.boolean(),
  minimum_amount: couponAmount,
  maximum_amount: couponAmount,
  /** Billing emails allowed to use it; `*` wildcards such as `*@example.com` work. */
  email_restrictions: z.array(z.string()),
  meta_data: metaDataInput,
};

/** The store refuses an empty code ("The coupon code cannot be empty.") and keeps it trimmed. */
const newCode = z
  .string()
  .check(z.refine((code) => code.trim() !== '' && code !== '0', 'a coupon code cannot be empty (or "0")'));
const couponCreateShape = z.strictObject({
  ...z.partial(z.strictObject(couponFields)).shape,
  code: newCode,
});
/** `code` is required; everything else has WooCommerce's defaults (`fixed_cart`, amount "0", published). */
export interface CouponCreateInput extends z.input<typeof couponCreateShape> {}
export const couponCreateInput: z.ZodMiniType<CouponCreateInput, CouponCreateInput> = couponCreateShape;

const couponUpdateShape = z.partial(z.strictObject(couponFields));
/** Only the fields you pass change. */
export interface CouponUpdateInput extends z.input<typeof couponUpdateShape> {}
export const couponUpdateInput: z.ZodMiniType<CouponUpdateInput, CouponUpdateInput> = couponUpdateShape;

const couponListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  /** Exact code; finds published coupons only. */
  code: z.optional(z.string()),
  /**
   * Post status, or several joined by commas. Without it every coupon is listed, trashed ones included; `any`
   * leaves out the trash.
   */
  status: z.optional(openEnum(['any', 'publish', 'draft', 'pending', 'private', 'future', 'trash'])),
});
export interface CouponListParams extends z.input<typeof couponListShape> {}
export const couponListParams: z.ZodMiniType<CouponListParams, CouponListParams> = couponListShape;
