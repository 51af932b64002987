import type { ZoneMethodRec, ZoneRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { sanitizeTextField } from '../runtime/formatting.js';
import { absint } from '../runtime/numbers.js';
import { findMethod } from './methods.js';

export const LOCATION_TYPES = ['postcode', 'state', 'country', 'continent'] as const;

/** WC_Shipping_Zone_Data_Store::read_multiple() names zone 0 itself; it has no row of its own. */
export const REST_OF_WORLD = 'Locations not covered by your other zones';

/**
 * Zone 0 has no row in woocommerce_shipping_zones, only method rows with `zone_id = 0`. The data file keeps
 * records with ids above 0 only, so the emulator keeps those method rows in one wp_options row of its own
 * (journalled and snapshotted with the other options).
 */
export const ZONE_0_METHODS_OPTION = '_x_sandbox_shipping_zone_0_methods';

function zone0Option(store: Store) {
  for (const o of store.state.options.values()) if (o.name === ZONE_0_METHODS_OPTION) return o;
  return undefined;
}

function zone0Methods(store: Store): ZoneMethodRec[] {
  const v = zone0Option(store)?.value;
  return Array.isArray(v) ? (v as ZoneMethodRec[]) : [];
}

/** WC_Shipping_Zones::get_zone_by('zone_id'): zone 0 always exists; others when their row does. */
export function findZone(store: Store, id: number): ZoneRec | undefined {
  if (id === 0) return { id: 0, name: REST_OF_WORLD, order: 0, locations: [], methods: zone0Methods(store) };
  return store.state.zones.get(id);
}

/** WC_Shipping_Zone_Data_Store::get_zones(): `ORDER BY zone_order ASC, zone_id ASC`. */
export function listZones(store: Store): ZoneRec[] {
  return [...store.state.zones.values()].sort((a, b) => a.order - b.order || a.id - b.id);
}

/**
 * WC_Shipping_Zone::generate_zone_name(): a zone saved without a name is named after its locations, or
 * "Everywhere" without any. (WooCommerce shows country and state names; the emulator has no country list,
 * so it shows the codes.)
 */
function generatedName(zone: ZoneRec): string {
  const rank = (t: string) => ['continent', 'country', 'state', 'postcode'].indexOf(t);
  const parts = [...zone.locations].sort((a, b) => rank(a.type) - rank(b.type)).map((l) => l.code);
  if (parts.length === 0) return 'Everywhere';
  if (parts.length > 10) {
    const rest = parts.length - 10;
    return `${parts.slice(0, 10).join(', ')} and ${rest} other region${rest === 1 ? '' : 's'}`;
  }
  return parts.join(', ');
}

function saveZone(store: Store, zone: ZoneRec): ZoneRec {
  if (zone.name === '') zone.name = generatedName(zone);
  store.state.zones.set(zone.id, zone);
  store.changed('zones', zone.id);
  return zone;
}

/** WC_Shipping_Zone::save() of a new zone: set_zone_name() cleans the name, set_zone_order() absint()s. */
export function createZone(store: Store, p: Record<string, unknown>): ZoneRec {
  const zone: ZoneRec = {
    id: nextId(store.state, 'zone'),
    name: typeof p.name === 'string' ? sanitizeTextField(p.name) : '',
    order: p.order === undefined || p.order === null ? 0 : absint(p.order),
    locations: [],
    methods: [],
  };
  return saveZone(store, zone);
}

export function updateZone(store: Store, existing: ZoneRec, p: Record<string, unknown>): ZoneRec {
  const zone = { ...existing };
  let changed = false;
  if (p.name !== undefined && p.name !== null) {
    zone.name = sanitizeTextField(String(p.name));
    changed = true;
  }
  if (p.order !== undefined && p.order !== null) {
    zone.order = absint(p.order);
    changed = true;
  }
  return changed ? saveZone(store, zone) : existing;
}

/** WC_Shipping_Zone_Data_Store::delete(): zone 0 is silently kept (the method only deletes a truthy id). */
export function deleteZone(store: Store, zone: ZoneRec): void {
  if (zone.id === 0) return;
  store.state.zones.delete(zone.id);
  store.changed('zones', zone.id);
}

/**
 * WC_REST_Shipping_Zone_Locations_V2_Controller::update_items() + WC_Shipping_Zone::set_locations(): the
 * locations are replaced; entries without a code or with an unknown type are skipped, the type defaults to
 * country, and postcodes are upper-cased (add_location()).
 */
export function replaceLocations(store: Store, zone: ZoneRec, raw: unknown[]): ZoneRec {
  const locations: ZoneRec['locations'] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    const code = typeof r.code === 'string' || typeof r.code === 'number' ? String(r.code) : '';
    if (code === '' || code === '0') continue;
    const type = typeof r.type === 'string' && r.type !== '' ? sanitizeTextField(r.type) : 'country';
    if (!(LOCATION_TYPES as readonly string[]).includes(type)) continue;
    let clean = sanitizeTextField(code);
    if (type === 'postcode') clean = sanitizeTextField(clean.replace(/\u2026/g, '...').toUpperCase());
    locations.push({ code: clean, type });
  }
  return saveZone(store, { ...zone, locations });
}

/** Methods in display order: wc_shipping_zone_method_order_uasort_comparison(), stable on instance id. */
export function zoneMethods(zone: ZoneRec): ZoneMethodRec[] {
  return [...zone.methods].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** Writes a zone's method rows: zone 0's to its option, other zones' inside their record. */
export function saveMethods(store: Store, zone: ZoneRec, methods: ZoneMethodRec[]): void {
  if (zone.id !== 0) {
    saveZone(store, { ...zone, methods });
    return;
  }
  let row = zone0Option(store);
  if (!row) {
    row = { id: nextId(store.state, 'option'), name: ZONE_0_METHODS_OPTION, value: [] };
  }
  store.state.options.set(row.id, { ...row, value: methods });
  store.changed('options', row.id);
}

/**
 * WC_Shipping_Zone::add_shipping_method(): an instance of a registered zone method, ordered after the zone's
 * others (`count + 1`), enabled (the column's default); `null` for an unknown method (instance id 0).
 */
export function addMethod(store: Store, zone: ZoneRec, methodId: string): ZoneMethodRec | null {
  const def = findMethod(methodId);
  if (!def?.zones) return null;
  const method: ZoneMethodRec = {
    id: nextId(store.state, 'zone_method'),
    method_id: methodId,
    order: zone.methods.length + 1,
    enabled: true,
    settings: {},
  };
  saveMethods(store, zone, [...zone.methods, method]);
  return method;
}

export function replaceMethod(store: Store, zone: ZoneRec, method: ZoneMethodRec): void {
  saveMethods(
    store,
    zone,
    zone.methods.map((m) => (m.id === method.id ? method : m)),
  );
}

export function deleteMethod(store: Store, zone: ZoneRec, instanceId: number): void {
  saveMethods(
    store,
    zone,
    zone.methods.filter((m) => m.id !== instanceId),
  );
}
