import type { Store } from '../data/store.js';
import { presentLocation, presentZone } from '../present/shipping-zones.js';
import { validateParams } from '../rest/params.js';
import {
  CREATABLE,
  type Ctx,
  DELETABLE,
  EDITABLE,
  READABLE,
  type Result,
  type Router,
} from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import {
  createZone,
  deleteZone,
  findZone,
  listZones,
  replaceLocations,
  updateZone,
} from '../shipping/zones.js';
import { FORCE } from './params/common.js';
import { LOCATION_SPECS, ZONE_CREATE_SPECS, ZONE_SPECS } from './params/shipping-zones.js';
import { requireShipping, zoneParam } from './shipping-access.js';
import { registerShippingMethods } from './shipping-methods.js';
import { registerZoneMethods } from './shipping-zone-methods.js';

const ZONES = '/wc/v3/shipping/zones';

/** WC_REST_Shipping_Zones_V2_Controller::get_items(): zone 0 first, every zone in one page. */
function list(ctx: Ctx): Result {
  requireShipping(ctx, 'list');
  const store = ctx.store;
  const zones = [findZone(store, 0)!, ...listZones(store)];
  return {
    status: 200,
    body: zones.map((z) => presentZone(store, z)),
    headers: { 'X-WP-Total': String(zones.length), 'X-WP-TotalPages': '1' },
  };
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ZONE_CREATE_SPECS);
  requireShipping(ctx, 'create');
  const zone = createZone(ctx.store, p);
  return {
    status: 201,
    body: presentZone(ctx.store, zone),
    headers: { Location: ctx.store.restUrl(`/shipping/zones/${zone.id}`) },
  };
}

function get(ctx: Ctx): Result {
  requireShipping(ctx, 'view');
  return { status: 200, body: presentZone(ctx.store, zoneParam(ctx, 'id')) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ZONE_SPECS);
  requireShipping(ctx, 'edit');
  const zone = zoneParam(ctx, 'id');
  if (zone.id === 0) {
    throw new RestError(
      403,
      'woocommerce_rest_shipping_zone_invalid_zone',
      'The "locations not covered by your other zones" zone cannot be updated.',
    );
  }
  return { status: 200, body: presentZone(ctx.store, updateZone(ctx.store, zone, p)) };
}

/** delete_item(): the zone is presented before it goes; zone 0 "deletes" without effect. */
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireShipping(ctx, 'delete');
  const zone = zoneParam(ctx, 'id');
  const body = presentZone(ctx.store, zone);
  if (p.force !== true) {
    throw new RestError(501, 'rest_trash_not_supported', 'Shipping zones do not support trashing.');
  }
  deleteZone(ctx.store, zone);
  return { status: 200, body };
}

function locations(ctx: Ctx): Result {
  requireShipping(ctx, 'list');
  const zone = zoneParam(ctx, 'id');
  return { status: 200, body: zone.locations.map((l) => presentLocation(ctx.store, zone.id, l)) };
}

/**
 * WC_REST_Shipping_Zone_Locations_V2_Controller::update_items(): the JSON body is the new list of
 * locations (get_json_params()), replacing the old ones; zone 0 has no locations to edit.
 */
function updateLocations(ctx: Ctx): Result {
  validateParams(ctx.params, LOCATION_SPECS);
  requireShipping(ctx, 'edit');
  const zone = zoneParam(ctx, 'id');
  if (zone.id === 0) {
    throw new RestError(
      403,
      'woocommerce_rest_shipping_zone_locations_invalid_zone',
      'The "locations not covered by your other zones" zone cannot be updated.',
    );
  }
  const saved = replaceLocations(ctx.store, zone, Object.values(ctx.body));
  return { status: 200, body: saved.locations.map((l) => presentLocation(ctx.store, saved.id, l)) };
}

export function registerShippingZones(router: Router, _store: Store): void {
  router.add(ZONES, READABLE, list);
  router.add(ZONES, CREATABLE, create);
  router.add(`${ZONES}/(?P<id>[\\d]+)`, READABLE, get);
  router.add(`${ZONES}/(?P<id>[\\d]+)`, EDITABLE, update);
  router.add(`${ZONES}/(?P<id>[\\d]+)`, DELETABLE, remove);
  router.add(`${ZONES}/(?P<id>[\\d]+)/locations`, READABLE, locations);
  router.add(`${ZONES}/(?P<id>[\\d]+)/locations`, EDITABLE, updateLocations);
  registerZoneMethods(router);
  // WooCommerce registers /shipping_methods right after the zone controllers (class-wc-rest-server.php).
  registerShippingMethods(router);
}
