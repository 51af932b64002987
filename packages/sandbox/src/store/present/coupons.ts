import type { CouponRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { phpFloatval } from '../runtime/numbers.js';
import { money, wcDate } from '../runtime/values.js';

/**
 * WC_REST_Coupons_V2_Controller::get_formatted_item_data(): amounts through wc_format_decimal($v, 2) (so an unset
 * minimum is "0.00"), each date twice (site time and GMT, the same here), limits of 0 as null; `_links` from
 * WC_REST_CRUD_Controller::prepare_links().
 */
export function presentCoupon(store: Store, c: CouponRec): Record<string, unknown> {
  return {
    id: c.id,
    code: c.code,
    amount: money(phpFloatval(c.amount)),
    status: c.status,
    date_created: wcDate(c.created),
    date_created_gmt: wcDate(c.created),
    date_modified: wcDate(c.modified),
    date_modified_gmt: wcDate(c.modified),
    discount_type: c.discount_type,
    description: c.description,
    date_expires: wcDate(c.date_expires),
    date_expires_gmt: wcDate(c.date_expires),
    usage_count: c.usage_count,
    individual_use: c.individual_use,
    product_ids: c.product_ids,
    excluded_product_ids: c.excluded_product_ids,
    usage_limit: c.usage_limit || null,
    usage_limit_per_user: c.usage_limit_per_user || null,
    limit_usage_to_x_items: c.limit_usage_to_x_items || null,
    free_shipping: c.free_shipping,
    product_categories: c.product_categories,
    excluded_product_categories: c.excluded_product_categories,
    exclude_sale_items: c.exclude_sale_items,
    minimum_amount: money(phpFloatval(c.minimum_amount)),
    maximum_amount: money(phpFloatval(c.maximum_amount)),
    email_restrictions: c.email_restrictions,
    used_by: c.used_by,
    meta_data: c.meta_data,
    _links: {
      self: [{ href: store.restUrl(`/coupons/${c.id}`) }],
      collection: [{ href: store.restUrl('/coupons') }],
    },
  };
}
