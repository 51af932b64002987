import type { ZoneMethodRec, ZoneRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { presentZoneMethod } from '../present/shipping-zones.js';
import { validateParams } from '../rest/params.js';
import {
  CREATABLE,
  type Ctx,
  DELETABLE,
  EDITABLE,
  idParam,
  READABLE,
  type Result,
  type Router,
} from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { absint } from '../runtime/numbers.js';
import { isPlainObject } from '../runtime/values.js';
import { instanceFields, instanceSettings, validateSetting } from '../shipping/methods.js';
import { addMethod, deleteMethod, findZone, replaceMethod, zoneMethods } from '../shipping/zones.js';
import { FORCE } from './params/common.js';
import { METHOD_CREATE_SPECS, METHOD_SPECS } from './params/shipping-zones.js';
import { requireShipping, zoneParam } from './shipping-access.js';

const METHODS = '/wc/v3/shipping/zones/(?P<zone_id>[\\d]+)/methods';

function findInstance(zone: ZoneRec, ctx: Ctx): ZoneMethodRec {
  const id = idParam(ctx, 'instance_id');
  const method = zone.methods.find((m) => m.id === id);
  if (!method) {
    throw new RestError(404, 'woocommerce_rest_shipping_zone_method_invalid', 'Resource does not exist.');
  }
  return method;
}

/**
 * WC_REST_Shipping_Zone_Methods_V2_Controller::update_fields(): `settings` are checked field by field against
 * the instance form fields (unknown keys ignored) and saved whole, defaults included; then `order` (absint)
 * and `enabled`.
 */
function updateFields(store: Store, zone: ZoneRec, method: ZoneMethodRec, p: Record<string, unknown>) {
  const m = { ...method };
  if (p.settings !== undefined && p.settings !== null) {
    const sent = isPlainObject(p.settings) ? p.settings : {};
    const settings = {
      ...instanceSettings(store, m.method_id, Object.keys(m.settings).length > 0 ? m.settings : null),
    };
    for (const [key, field] of Object.entries(instanceFields(store, m.method_id))) {
      if (sent[key] === undefined || sent[key] === null) continue;
      settings[key] = validateSetting(field, sent[key]);
    }
    m.settings = settings;
  }
  if (p.order !== undefined && p.order !== null) m.order = absint(p.order);
  if (typeof p.enabled === 'boolean') m.enabled = p.enabled;
  replaceMethod(store, zone, m);
  return m;
}

function list(ctx: Ctx): Result {
  requireShipping(ctx, 'list');
  const zone = zoneParam(ctx, 'zone_id');
  const methods = zoneMethods(zone);
  return {
    status: 200,
    body: methods.map((m) => presentZoneMethod(ctx.store, zone.id, m)),
    headers: {
      'X-WP-Total': String(methods.length),
      'X-WP-TotalPages': methods.length > 0 ? '1' : '0',
    },
  };
}

/** create_item(): answered 200 (not 201, no Location), as WooCommerce does. */
function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, METHOD_CREATE_SPECS);
  requireShipping(ctx, 'create');
  const zone = zoneParam(ctx, 'zone_id');
  const added = addMethod(ctx.store, zone, typeof p.method_id === 'string' ? p.method_id : '');
  if (!added) {
    throw new RestError(500, 'woocommerce_rest_shipping_zone_not_created', 'Resource cannot be created.');
  }
  const fresh = findZone(ctx.store, zone.id)!;
  const method = updateFields(ctx.store, fresh, added, p);
  return { status: 200, body: presentZoneMethod(ctx.store, zone.id, method) };
}

function get(ctx: Ctx): Result {
  requireShipping(ctx, 'view');
  const zone = zoneParam(ctx, 'zone_id');
  return { status: 200, body: presentZoneMethod(ctx.store, zone.id, findInstance(zone, ctx)) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, METHOD_SPECS);
  requireShipping(ctx, 'edit');
  const zone = zoneParam(ctx, 'zone_id');
  const method = updateFields(ctx.store, zone, findInstance(zone, ctx), p);
  return { status: 200, body: presentZoneMethod(ctx.store, zone.id, method) };
}

/** delete_item() runs update_fields() before it looks at `force`, so a refused delete still saves fields. */
function remove(ctx: Ctx): Result {
  // The DELETE route declares only `force`; the other fields reach update_fields() unvalidated.
  const p = validateParams(ctx.params, FORCE);
  requireShipping(ctx, 'delete');
  const zone = zoneParam(ctx, 'zone_id');
  const method = updateFields(ctx.store, zone, findInstance(zone, ctx), p);
  const body = presentZoneMethod(ctx.store, zone.id, method);
  if (p.force !== true) {
    throw new RestError(501, 'rest_trash_not_supported', 'Shipping methods do not support trashing.');
  }
  deleteMethod(ctx.store, findZone(ctx.store, zone.id)!, method.id);
  return { status: 200, body };
}

export function registerZoneMethods(router: Router): void {
  router.add(METHODS, READABLE, list);
  router.add(METHODS, CREATABLE, create);
  router.add(`${METHODS}/(?P<instance_id>[\\d]+)`, READABLE, get);
  router.add(`${METHODS}/(?P<instance_id>[\\d]+)`, EDITABLE, update);
  router.add(`${METHODS}/(?P<instance_id>[\\d]+)`, DELETABLE, remove);
}
