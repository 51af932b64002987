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
