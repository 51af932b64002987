import { RestError } from '../runtime/errors.js';

/**
 * What the WooCommerce REST controllers make of an empty value. A JSON `null` reaches them as '' (see
 * sanitizeNull() in wp/params.ts), so these are the rules behind `"status": null` and friends; each names the
 * controller code or setter it follows. They run on validated parameters, before the model.
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

/**
 * WC_REST_Orders_Controller::save_object() sets the status only `if ( ! empty( $request['status'] ) )`, so an
 * empty one leaves it (a new order stays pending); WC_Order::set_currency() takes an empty currency as the
 * store's.
 */
export function orderArgs(p: Args, storeCurrency: string): Args {
  if (p.status === '') delete p.status;
  if (p.currency === '') p.currency = storeCurrency;
  return p;
}

/**
 * WC_REST_Webhooks_V1_Controller: update_item() changes topic, delivery URL, secret, status and name only when
 * `! empty()`; create_item() never reads the status, so an empty one leaves the default.
 */
export function webhookArgs(p: Args, creating: boolean): Args {
  const keys = creating ? ['status'] : ['name', 'topic', 'delivery_url', 'secret', 'status'];
  for (const k of keys) if (p[k] === '') delete p[k];
  return p;
}

/** WC_REST_Product_Categories_Controller::update_term_meta_fields(): display '' is stored, and read as 'default'. */
export function termArgs(p: Args): Args {
  if (p.display === '') p.display = 'default';
  return p;
}
