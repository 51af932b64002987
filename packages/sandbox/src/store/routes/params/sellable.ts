import type { Spec, Specs } from '../../rest/params.js';
import { RestError } from '../../runtime/errors.js';
import { META_DATA } from './common.js';

export const POST_STATUSES = ['draft', 'pending', 'private', 'publish'] as const;

export const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

const DIMENSIONS: Specs[string] = {
  type: 'object',
  props: { length: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' } },
};

export const IMAGE = {
  type: 'object',
  props: {
    id: { type: 'integer' },
    src: { type: 'string', format: 'uri' },
    name: { type: 'string' },
    alt: { type: 'string' },
  },
} satisfies Spec;

/** Writable fields both products and variations take. */
export const SELLABLE_SPECS: Specs = {
  description: { type: 'string' },
  sku: { type: 'string' },
  regular_price: { type: 'string' },
  sale_price: { type: 'string' },
  date_on_sale_from: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_from_gmt: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_to: { type: 'string', format: 'date-time', nullable: 'first' },
  date_on_sale_to_gmt: { type: 'string', format: 'date-time', nullable: 'first' },
  virtual: { type: 'boolean' },
  downloadable: { type: 'boolean' },
  downloads: { type: 'array', items: { type: 'object' } },
  download_limit: { type: 'integer' },
  download_expiry: { type: 'integer' },
  tax_status: { type: 'string', enum: ['taxable', 'shipping', 'none'] },
  tax_class: { type: 'string' },
  manage_stock: { type: 'boolean' },
  // Plain 'integer' in the schema, so a null is sanitized to 0 (WP_REST_Request::sanitize_params()).
  stock_quantity: { type: 'integer' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
  backorders: { type: 'string', enum: ['no', 'notify', 'yes'] },
  low_stock_amount: { type: 'integer', nullable: true },
  weight: { type: 'string' },
  dimensions: DIMENSIONS,
  shipping_class: { type: 'string' },
  menu_order: { type: 'integer' },
  meta_data: META_DATA,
};

/**
 * What the WooCommerce REST controllers make of an empty value. A JSON `null` reaches them as '' (see
 * sanitizeNull() in rest/params.ts), so these are the rules behind `"status": null` and friends; each names the
 * controller code or setter it follows. They run on validated parameters, before the model. Orders, webhooks
 * and terms have theirs beside their parameters (orderArgs(), webhookArgs(), termArgs()).
 */

type Args = Record<string, unknown>;

/** Post status: `get_post_status_object( $status ) ? $status : 'draft'` (products and variations controllers). */
function postStatus(p: Args): void {
  if (p.status === '') p.status = 'draft';
}

const SALE_DATES = ['date_on_sale_from', 'date_on_sale_from_gmt', 'date_on_sale_to', 'date_on_sale_to_gmt'];

/**
 * WC_Product::set_tax_status() takes empty as 'taxable'; set_stock_status() takes an unknown status as 'instock'.
 * Sale dates stay null (their type is ['null', 'string']) and are set only `if ( isset( ... ) )`: null changes
 * nothing, while '' clears the date.
 */
function sellable(p: Args): void {
  if (p.tax_status === '') p.tax_status = 'taxable';
  if (p.stock_status === '') p.stock_status = 'instock';
  for (const k of SALE_DATES) if (p[k] === null) delete p[k];
}

/** WC_REST_Products_Controller::prepare_object_for_database(). */
export function productArgs(p: Args): Args {
  // WC_Product_Factory::get_classname_from_product_type('') is false: the product is built as WC_Product_Simple.
  if (p.type === '') p.type = 'simple';
  postStatus(p);
  sellable(p);
  if (p.catalog_visibility === '') {
    // WC_Product::set_catalog_visibility() throws a WC_Data_Exception for anything but the four options.
    throw new RestError(400, 'product_invalid_catalog_visibility', 'Invalid catalog visibility option.');
  }
  return p;
}

/** WC_REST_Product_Variations_Controller::prepare_object_for_database(). */
export function variationArgs(p: Args): Args {
  postStatus(p);
  sellable(p);
  return p;
}
