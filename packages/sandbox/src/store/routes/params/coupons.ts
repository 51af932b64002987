import { COUPON_TYPES } from '../../pricing/coupons.js';
import type { Specs } from '../../rest/params.js';
import { collectionSpecs, META_DATA } from './common.js';

const IDS = { type: 'array', items: { type: 'integer' } } as const;

/**
 * The writable props of WC_REST_Coupons_V2_Controller::get_item_schema() (readonly ones, usage_count and used_by,
 * are not args). `date-time` props become ['null', 'string'] with no format
 * (WC_REST_Controller::adjust_wp_5_5_datatype_compatibility()). `status` is a free string: the schema names no enum.
 */
export function couponSpecs(creating: boolean): Specs {
  return {
    code: { type: 'string', required: creating },
    amount: { type: 'string' },
    status: { type: 'string' },
    discount_type: { type: 'string', enum: COUPON_TYPES },
    description: { type: 'string' },
    date_expires: { type: 'string', nullable: 'first' },
    date_expires_gmt: { type: 'string', nullable: 'first' },
    individual_use: { type: 'boolean' },
    product_ids: IDS,
    excluded_product_ids: IDS,
    usage_limit: { type: 'integer' },
    usage_limit_per_user: { type: 'integer' },
    limit_usage_to_x_items: { type: 'integer' },
    free_shipping: { type: 'boolean' },
    product_categories: IDS,
    excluded_product_categories: IDS,
    exclude_sale_items: { type: 'boolean' },
    minimum_amount: { type: 'string' },
    maximum_amount: { type: 'string' },
    email_restrictions: { type: 'array', items: { type: 'string' } },
    meta_data: META_DATA,
  };
}

/**
 * WC_REST_CRUD_Controller::get_collection_params() (not hierarchical: no parent args) plus `code`
 * (WC_REST_Coupons_V2_Controller). `status` is read by the v3 controller but never declared, so it is not validated.
 */
export const COUPON_LIST_SPECS: Specs = (() => {
  const {
    parent: _parent,
    parent_exclude: _parentExclude,
    ...specs
  } = collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified']);
  return { ...specs, code: { type: 'string' } };
})();
