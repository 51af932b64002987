/**
 * The shipping rates a cart's package gets: WC_Shipping_Zones::get_zone_matching_package() (through
 * WC_Shipping_Zone_Data_Store::get_zone_id_from_package()) and each enabled method's calculate_shipping()
 * (includes/shipping/flat-rate, free-shipping, local-pickup). Rate ids are `method_id:instance_id` as
 * WC_Shipping_Method::get_rate_id() spells them.
 */

import { CONTINENTS } from '../data/geo.js';
import type { Address, ZoneMethodRec, ZoneRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { phpFloatval } from '../runtime/numbers.js';
import { findZone, listZones } from '../shipping/zones.js';
import { evaluateCost } from './cost-formula.js';

export interface ShippingRate {
  rate_id: string;
  name: string;
  method_id: string;
  instance_id: number;
  cost: number;
  tax_status: string;
}

function continentOf(country: string): string {
  for (const [code, c] of CONTINENTS) if (c.countries.includes(country)) return code;
  return '';
}

/** wc_postcode_location_matcher(): exact, `*` wildcards, and `from...to` numeric ranges, case-insensitive. */
function postcodeMatches(pattern: string, postcode: string): boolean {
  const code = postcode.toUpperCase().replace(/\s+/g, '');
  const p = pattern.toUpperCase().replace(/\s+/g, '');
  if (p.includes('...')) {
    const [from, to] = p.split('...') as [string, string];
    const n = Number(code);
    return code !== '' && !Number.isNaN(n) && n >= Number(from) && n <= Number(to);
  }
  if (p.includes('*')) return code.startsWith(p.slice(0, p.indexOf('*')));
  return p === code;
}

/**
 * get_zone_id_from_package(): the first zone (by order, then id) whose region criteria (country, state or
 * continent; none of them means any) and postcode criteria (none means any) both hold; zone 0 otherwise.
 */
export function zoneFor(store: Store, to: Address): ZoneRec {
  const state = `${to.country}:${to.state}`;
  const continent = continentOf(to.country);
  for (const zone of listZones(store)) {
    if (zone.locations.length === 0) continue;
    const regions = zone.locations.filter((l) => l.type !== 'postcode');
    const postcodes = zone.locations.filter((l) => l.type === 'postcode');
    const regionOk =
      regions.length === 0 ||
      regions.some(
        (l) =>
          (l.type === 'country' && l.code === to.country) ||
          (l.type === 'state' && l.code === state) ||
          (l.type === 'continent' && l.code === continent),
      );
    const postcodeOk = postcodes.length === 0 || postcodes.some((l) => postcodeMatches(l.code, to.postcode));
    if (regionOk && postcodeOk) return zone;
  }
  return findZone(store, 0)!;
}

/** WC_Shipping_Flat_Rate::evaluate_cost(): the cost setting with `[qty]` and `[cost]` put in, then worked out. */
function flatCost(formula: string, qty: number, contents: number): number {
  return evaluateCost(formula.replace(/\[qty\]/g, String(qty)).replace(/\[cost\]/g, String(contents)));
}

function title(m: ZoneMethodRec, fallback: string): string {
  return m.settings.title !== undefined && m.settings.title !== '' ? m.settings.title : fallback;
}

/**
 * The package's rates: each enabled method of its zone that offers one. Free shipping needs what its
 * `requires` setting says (a free-shipping coupon, a minimum amount, either or both;
 * WC_Shipping_Free_Shipping::is_available()).
 */
export function ratesFor(
  store: Store,
  to: Address,
  contents: { quantity: number; subtotal: number; freeShippingCoupon: boolean },
): ShippingRate[] {
  const zone = zoneFor(store, to);
  const rates: ShippingRate[] = [];
  for (const m of [...zone.methods].sort((a, b) => a.order - b.order || a.id - b.id)) {
    if (!m.enabled) continue;
    const base = { rate_id: `${m.method_id}:${m.id}`, method_id: m.method_id, instance_id: m.id };
    if (m.method_id === 'flat_rate') {
      const cost = flatCost(m.settings.cost ?? '', contents.quantity, contents.subtotal);
      rates.push({
        ...base,
        name: title(m, 'Flat rate'),
        cost,
        tax_status: m.settings.tax_status ?? 'taxable',
      });
    } else if (m.method_id === 'free_shipping') {
      const requires = m.settings.requires ?? '';
      const min = phpFloatval(m.settings.min_amount ?? '0');
      const hasMin = contents.subtotal >= min;
      const ok =
        requires === ''
          ? true
          : requires === 'coupon'
            ? contents.freeShippingCoupon
            : requires === 'min_amount'
              ? hasMin
              : requires === 'either'
                ? hasMin || contents.freeShippingCoupon
                : hasMin && contents.freeShippingCoupon;
      if (ok) rates.push({ ...base, name: title(m, 'Free shipping'), cost: 0, tax_status: 'none' });
    } else if (m.method_id === 'local_pickup') {
      const cost = phpFloatval(m.settings.cost ?? '0');
      rates.push({
        ...base,
        name: title(m, 'Local pickup'),
        cost,
        tax_status: m.settings.tax_status ?? 'taxable',
      });
    }
  }
  return rates;
}
