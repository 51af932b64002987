/** The rows of the emulated install, as the model keeps them (times in ms, amounts as numbers). */

export interface Meta {
  id: number;
  key: string;
  value: unknown;
}

export interface Image {
  id: number;
  src: string;
  name: string;
  alt: string;
  created: number;
  modified: number;
}

export interface ProductAttribute {
  id: number;
  name: string;
  slug?: string;
  position: number;
  visible: boolean;
  variation: boolean;
  options: string[];
}

export interface Dimensions {
  length: string;
  width: string;
  height: string;
}

/** Fields a product and a variation share (stock, price, shipping). */
interface Sellable {
  id: number;
  parent_id: number;
  status: string;
  description: string;
  sku: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from: number | null;
  date_on_sale_to: number | null;
  virtual: boolean;
  downloadable: boolean;
  downloads: { id: string; name: string; file: string }[];
  download_limit: number;
  download_expiry: number;
  tax_status: string;
  tax_class: string;
  stock_quantity: number | null;
  stock_status: string;
  backorders: string;
  low_stock_amount: number | null;
  weight: string;
  dimensions: Dimensions;
  shipping_class: string;
  menu_order: number;
  total_sales: number;
  meta_data: Meta[];
  created: number;
  modified: number;
}

export interface ProductRec extends Sellable {
  name: string;
  slug: string;
  type: string;
  featured: boolean;
  catalog_visibility: string;
  short_description: string;
  external_url: string;
  button_text: string;
  manage_stock: boolean;
  sold_individually: boolean;
  reviews_allowed: boolean;
  upsell_ids: number[];
  cross_sell_ids: number[];
  purchase_note: string;
  categories: number[];
  tags: number[];
  images: Image[];
  attributes: ProductAttribute[];
  default_attributes: { id: number; name: string; option: string }[];
  grouped_products: number[];
  variation_ids: number[];
  /** Status before trashing, restored on untrash. */
  pre_trash_status?: string;
}

export interface VariationRec extends Sellable {
  manage_stock: boolean | 'parent';
  image: Image | null;
  attributes: { id: number; name: string; option: string }[];
}

export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email?: string;
  phone: string;
}

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

export interface CustomerRec {
  id: number;
  created: number;
  modified: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  username: string;
  billing: Address;
  shipping: Address;
  is_paying_customer: boolean;
  meta_data: Meta[];
}

export interface TermRec {
  id: number;
  /** Categories, tags, shipping classes, or the terms of a global attribute (`pa_<slug>`). */
  taxonomy: 'product_cat' | 'product_tag' | 'product_shipping_class' | `pa_${string}`;
  name: string;
  slug: string;
  parent: number;
  description: string;
  display: string;
  image: Image | null;
  menu_order: number;
}

export interface WebhookRec {
  id: number;
  name: string;
  status: string;
  topic: string;
  delivery_url: string;
  secret: string;
  api_version: string;
  created: number;
  modified: number;
  failure_count: number;
}

export interface Sequences {
  post: number;
  user: number;
  term: number;
  comment: number;
  webhook: number;
  meta: number;
  item: number;
  /** wp_options.option_id */
  option: number;
  /** woocommerce_attribute_taxonomies.attribute_id */
  attribute: number;
  /** woocommerce_tax_rates.tax_rate_id */
  tax_rate: number;
  /** wc_tax_rate_classes.tax_rate_class_id */
  tax_class: number;
  /** woocommerce_shipping_zones.zone_id */
  zone: number;
  /** woocommerce_shipping_zone_methods.instance_id */
  zone_method: number;
}

export interface StoreState {
  seq: Sequences;
  products: Map<number, ProductRec>;
  variations: Map<number, VariationRec>;
  orders: Map<number, OrderRec>;
  refunds: Map<number, RefundRec>;
  notes: Map<number, NoteRec>;
  customers: Map<number, CustomerRec>;
  terms: Map<number, TermRec>;
  webhooks: Map<number, WebhookRec>;
  coupons: Map<number, CouponRec>;
  tax_rates: Map<number, TaxRateRec>;
  tax_classes: Map<number, TaxClassRec>;
  options: Map<number, OptionRec>;
  attributes: Map<number, AttributeRec>;
  reviews: Map<number, ReviewRec>;
  zones: Map<number, ZoneRec>;
}

/** A row of woocommerce_attribute_taxonomies; its terms live in the `pa_<slug>` taxonomy. */
export interface AttributeRec {
  id: number;
  name: string;
  /** Without the `pa_` prefix. */
  slug: string;
  type: string;
  order_by: string;
  has_archives: boolean;
}

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

/** A `review` comment on a product, with its `rating` and `verified` comment meta. */
export interface ReviewRec {
  id: number;
  product_id: number;
  /** comment_approved as the REST API names it: approved, hold, spam or trash. */
  status: string;
  reviewer: string;
  reviewer_email: string;
  review: string;
  rating: number;
  verified: boolean;
  created: number;
  /** user_id: 0 for reviews created through the REST API (the controller never sets it). */
  user_id?: number;
  /** `_wp_trash_meta_status`: the status before wp_trash_comment() / wp_spam_comment(), restored on untrash/unspam. */
  pre_trash_status?: string;
}

/** A shipping method instance in a zone (a row of woocommerce_shipping_zone_methods plus its settings option). */
export interface ZoneMethodRec {
  /** The instance id. */
  id: number;
  method_id: string;
  order: number;
  enabled: boolean;
  /** The `woocommerce_<method>_<instance>_settings` option; empty until settings are first saved. */
  settings: Record<string, string>;
}

/** A row of woocommerce_shipping_zones with its locations and method instances. */
export interface ZoneRec {
  id: number;
  name: string;
  order: number;
  locations: { code: string; type: string }[];
  methods: ZoneMethodRec[];
}

/** A row of woocommerce_tax_rates with its postcode and city locations. */
export interface TaxRateRec {
  id: number;
  country: string;
  state: string;
  postcodes: string[];
  cities: string[];
  /** A decimal string, e.g. "20.0000". */
  rate: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
  order: number;
  /** The tax class slug; '' is the standard class. */
  class: string;
}

/** A row of wc_tax_rate_classes; the standard class ('') has no row. */
export interface TaxClassRec {
  id: number;
  slug: string;
  name: string;
}

/** A row of wp_options that was changed from its default. */
export interface OptionRec {
  id: number;
  name: string;
  value: unknown;
}
