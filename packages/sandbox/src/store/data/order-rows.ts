/** The rows of orders and what hangs off them (items, refunds, notes), as the model keeps them (amounts as numbers). */

import type { Address, Meta } from './rows.js';

/** An item's taxes per tax rate id, unrounded (6 decimals), as WC_Order_Item::set_taxes() keeps them. */
export interface ItemTaxes {
  total: Record<string, number>;
  subtotal: Record<string, number>;
}

export interface LineItem {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  tax_class: string;
  subtotal: number;
  subtotal_tax: number;
  total: number;
  total_tax: number;
  taxes: ItemTaxes;
  sku: string;
  meta_data: Meta[];
}

export interface ShippingLine {
  id: number;
  method_title: string;
  method_id: string;
  instance_id: string;
  total: number;
  total_tax: number;
  taxes: ItemTaxes;
  meta_data: Meta[];
}

export interface FeeLine {
  id: number;
  name: string;
  tax_class: string;
  tax_status: string;
  amount: string;
  total: number;
  total_tax: number;
  taxes: ItemTaxes;
  meta_data: Meta[];
}

/** A WC_Order_Item_Coupon: the code and what it took off, before tax and of tax. */
export interface CouponLine {
  id: number;
  code: string;
  discount: number;
  discount_tax: number;
  meta_data: Meta[];
}

/** A WC_Order_Item_Tax: one tax rate's share of the items (tax_total) and of shipping. */
export interface TaxLine {
  id: number;
  rate_id: number;
  rate_code: string;
  label: string;
  compound: boolean;
  rate_percent: number;
  tax_total: number;
  shipping_tax_total: number;
  meta_data: Meta[];
}

export interface OrderRec {
  id: number;
  parent_id: number;
  status: string;
  currency: string;
  version: string;
  prices_include_tax: boolean;
  created: number;
  modified: number;
  customer_id: number;
  order_key: string;
  billing: Address;
  shipping: Address;
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  customer_ip_address: string;
  customer_user_agent: string;
  created_via: string;
  customer_note: string;
  date_completed: number | null;
  date_paid: number | null;
  cart_hash: string;
  meta_data: Meta[];
  line_items: LineItem[];
  shipping_lines: ShippingLine[];
  fee_lines: FeeLine[];
  coupon_lines: CouponLine[];
  tax_lines: TaxLine[];
  refund_ids: number[];
  stock_reduced: boolean;
  sales_recorded?: boolean;
  /** `_recorded_coupon_usage_counts`: this order's coupons count towards their usage (wc_update_coupon_usage_counts()). */
  coupon_usage_recorded: boolean;
  discount_total: number;
  discount_tax: number;
  shipping_total: number;
  shipping_tax: number;
  cart_tax: number;
  total_tax: number;
  total: number;
  pre_trash_status?: string;
}

export interface RefundLineItem {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  tax_class: string;
  subtotal: number;
  subtotal_tax: number;
  total: number;
  total_tax: number;
  taxes: ItemTaxes;
  sku: string;
  refunded_item_id: number;
}

export interface RefundRec {
  id: number;
  order_id: number;
  created: number;
  amount: number;
  reason: string;
  refunded_by: number;
  refunded_payment: boolean;
  meta_data: Meta[];
  line_items: RefundLineItem[];
  /** Refunded shipping and fee lines: negative totals and taxes, `refunded_item_id` naming the order's line. */
  shipping_lines: RefundOtherLine[];
  fee_lines: RefundOtherLine[];
  /** The tax rates the refunded lines' taxes come from (negative totals), as WC_Order_Refund::update_taxes() adds them. */
  tax_lines: TaxLine[];
}

/** A refunded shipping or fee line: a copy of the order's line with the refunded (negative) amounts. */
export interface RefundOtherLine {
  id: number;
  name: string;
  method_id: string;
  instance_id: string;
  tax_class: string;
  tax_status: string;
  total: number;
  total_tax: number;
  taxes: ItemTaxes;
  refunded_item_id: number;
}

export interface NoteRec {
  id: number;
  order_id: number;
  created: number;
  note: string;
  customer_note: boolean;
  author: string;
}
