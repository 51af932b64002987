import { getOption } from '../data/options.js';
import type { ZoneRec } from '../data/rows.js';
import { type Ctx, idParam, requireCap } from '../rest/router.js';
import { type Capability, forbidden, RestError } from '../runtime/errors.js';
import { findZone } from '../shipping/zones.js';

/**
 * WC_REST_Shipping_Zones_Controller_Base::*_permissions_check(): with shipping disabled
 * (wc_shipping_enabled(): `woocommerce_ship_to_countries` is 'disabled') the zone routes answer as if they
 * did not exist, `404 rest_no_route` "Shipping is disabled."; then the capability check.
 */
export function requireShipping(ctx: Ctx, cap: Capability): void {
  if (getOption(ctx.store, 'woocommerce_ship_to_countries') === 'disabled') {
    throw new RestError(404, 'rest_no_route', 'Shipping is disabled.');
  }
  if (cap === 'delete' && !ctx.key) {
    // delete_items_permissions_check() reuses the edit code with the delete message.
    throw forbidden(
      false,
      'woocommerce_rest_cannot_edit',
      'Sorry, you are not allowed to delete this resource.',
    );
  }
  requireCap(ctx, cap);
}

/** WC_REST_Shipping_Zones_Controller_Base::get_zone(). */
export function zoneParam(ctx: Ctx, name: string): ZoneRec {
  const zone = findZone(ctx.store, idParam(ctx, name));
  if (!zone) {
    throw new RestError(404, 'woocommerce_rest_shipping_zone_invalid', 'Resource does not exist.');
  }
  return zone;
}
