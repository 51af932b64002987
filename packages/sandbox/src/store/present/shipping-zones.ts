import type { ZoneMethodRec, ZoneRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import type { MethodDef } from '../shipping/methods.js';
import { findMethod, instanceFields, instanceSettings } from '../shipping/methods.js';

/** WC_REST_Shipping_Zones_V2_Controller::prepare_item_for_response() + prepare_links(). */
export function presentZone(store: Store, z: ZoneRec): Record<string, unknown> {
  return {
    id: z.id,
    name: z.name,
    order: z.order,
    _links: {
      self: [{ href: store.restUrl(`/shipping/zones/${z.id}`) }],
      collection: [{ href: store.restUrl('/shipping/zones') }],
      describedby: [{ href: store.restUrl(`/shipping/zones/${z.id}/locations`) }],
    },
  };
}

/** WC_REST_Shipping_Zone_Locations_V2_Controller::prepare_item_for_response(). */
export function presentLocation(store: Store, zoneId: number, l: ZoneRec['locations'][number]) {
  return {
    code: l.code,
    type: l.type,
    _links: {
      collection: [{ href: store.restUrl(`/shipping/zones/${zoneId}/locations`) }],
      describes: [{ href: store.restUrl(`/shipping/zones/${zoneId}`) }],
    },
  };
}

/** PHP's empty(): '' and '0' are empty, so a default of '0' is reported as ''. */
function orEmpty(v: string | undefined): string {
  return v === undefined || v === '' || v === '0' ? '' : v;
}

/** WC_REST_Shipping_Zone_Methods_V2_Controller::get_settings(). */
function presentSettings(store: Store, m: ZoneMethodRec): Record<string, unknown> {
  const values = instanceSettings(store, m.method_id, Object.keys(m.settings).length > 0 ? m.settings : null);
  const out: Record<string, unknown> = {};
  for (const [id, f] of Object.entries(instanceFields(store, m.method_id))) {
    out[id] = {
      id,
      label: f.title,
      description: f.description,
      type: f.type,
      value: values[id] ?? null,
      default: orEmpty(f.default),
      tip: f.description,
      placeholder: orEmpty(f.placeholder),
      ...(f.options && Object.keys(f.options).length > 0 ? { options: f.options } : {}),
    };
  }
  return out;
}

/**
 * WC_REST_Shipping_Zone_Methods_V2_Controller::prepare_item_for_response(): `title` is the instance's
 * title setting; WC_Shipping_Zone::get_shipping_methods() runs the description through wpautop().
 */
export function presentZoneMethod(store: Store, zoneId: string | number, m: ZoneMethodRec) {
  const def = findMethod(m.method_id);
  const settings = instanceSettings(
    store,
    m.method_id,
    Object.keys(m.settings).length > 0 ? m.settings : null,
  );
  const base = `/shipping/zones/${zoneId}`;
  return {
    id: m.id,
    instance_id: m.id,
    title: settings.title ?? '',
    order: m.order,
    enabled: m.enabled,
    method_id: m.method_id,
    method_title: def?.title ?? m.method_id,
    method_description: def ? `<p>${def.description}</p>\n` : '',
    settings: presentSettings(store, m),
    _links: {
      self: [{ href: store.restUrl(`${base}/methods/${m.id}`) }],
      collection: [{ href: store.restUrl(`${base}/methods`) }],
      describes: [{ href: store.restUrl(base) }],
    },
  };
}

/** WC_REST_Shipping_Methods_V2_Controller::prepare_item_for_response(). */
export function presentShippingMethod(store: Store, m: MethodDef) {
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    _links: {
      self: [{ href: store.restUrl(`/shipping_methods/${m.id}`) }],
      collection: [{ href: store.restUrl('/shipping_methods') }],
    },
  };
}
