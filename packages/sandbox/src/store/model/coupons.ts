import type { Meta } from './records.js';

/** A `shop_coupon` post with WC_Coupon's props (amounts as the decimal strings WooCommerce keeps). */
export interface CouponRec {
  id: number;
  /** Lower-cased, as wc_format_coupon_code() leaves it. */
  code: string;
  amount: string;
  status: string;
  discount_type: string;
  description: string;
  date_expires: number | null;
  usage_count: number;
  individual_use: boolean;
  product_ids: number[];
  excluded_product_ids: number[];
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  limit_usage_to_x_items: number | null;
  free_shipping: boolean;
  product_categories: number[];
  excluded_product_categories: number[];
  exclude_sale_items: boolean;
  minimum_amount: string;
  maximum_amount: string;
  email_restrictions: string[];
  /** Billing emails or user ids (as strings) of the orders that used it, once per use. */
  used_by: string[];
  meta_data: Meta[];
  created: number;
  modified: number;
}
