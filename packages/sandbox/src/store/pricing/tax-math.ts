/**
 * WC_Tax's rate matching and tax arithmetic, and the rounding helpers around it (wc-core-functions.php:
 * wc_round_tax_total(), wc_get_tax_rounding_mode(), wc_get_rounding_precision(); wc-formatting-functions.php:
 * wc_normalize_postcode(), wc_get_wildcard_postcodes(); wc-core-functions.php: wc_postcode_location_matcher()).
 */

import { getOption } from '../data/options.js';
import type { TaxRateRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { phpEmpty, phpRound } from '../runtime/numbers.js';

/** A matched rate as WC_Tax::get_matched_tax_rates() returns it. */
export interface MatchedRate {
  id: number;
  rate: number;
  label: string;
  shipping: boolean;
  compound: boolean;
}

export interface TaxLocation {
  country: string;
  state: string;
  postcode: string;
  city: string;
}

/** wc_tax_enabled(). */
export function taxEnabled(store: Store): boolean {
  return getOption(store, 'woocommerce_calc_taxes') === 'yes';
}

/** wc_get_price_decimals(). */
export function priceDecimals(store: Store): number {
  const n = Number.parseInt(String(getOption(store, 'woocommerce_price_num_decimals')), 10);
  return Number.isFinite(n) && n >= 0 ? n : 2;
}

/** wc_get_rounding_precision(): the price decimals + 2, at least WC_ROUNDING_PRECISION (6). */
export function roundingPrecision(store: Store): number {
  return Math.max(priceDecimals(store) + 2, 6);
}

/** wc_round_tax_total(): to the price decimals, half down when prices include tax (WC_TAX_ROUNDING_MODE 'auto'). */
export function roundTaxTotal(store: Store, value: number, precision = priceDecimals(store)): number {
  const mode = getOption(store, 'woocommerce_prices_include_tax') === 'yes' ? 'half_down' : 'half_up';
  return phpRound(value, precision, mode);
}

/** WC_Tax::round(): to the rounding precision, half up. */
function roundToPrecision(store: Store, value: number): number {
  return phpRound(value, roundingPrecision(store));
}

/** The shop's base address (WC_Countries::get_base_country/state/postcode/city). */
export function baseLocation(store: Store): TaxLocation {
  const [country = '', state = ''] = String(getOption(store, 'woocommerce_default_country')).split(':');
  return {
    country,
    state,
    postcode: String(getOption(store, 'woocommerce_store_postcode')),
    city: String(getOption(store, 'woocommerce_store_city')),
  };
}

function normalizePostcode(postcode: string): string {
  return postcode.trim().toUpperCase().replace(/[\s-]/g, '');
}

/** wc_get_wildcard_postcodes(): the postcode itself and every prefix of it followed by `*`. */
function wildcardPostcodes(postcode: string): string[] {
  const out = [postcode, `${postcode}*`];
  for (let i = 1; i <= postcode.length; i++) out.push(`${postcode.slice(0, -i)}*`);
  return out;
}

/** wc_make_numeric_postcode(): each character as two digits (digits padded, A=01 ... Z=26, anything else 00). */
function numericPostcode(postcode: string): string {
  let out = '';
  for (const c of postcode.replace(/[ -]/g, '')) {
    if (/[0-9]/.test(c)) out += `0${c}`;
    else if (/[A-Z]/.test(c)) out += String(c.charCodeAt(0) - 64).padStart(2, '0');
    else out += '00';
  }
  return out;
}

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * wc_postcode_location_matcher(): a rule is an exact postcode, a wildcard (`90*`), or a range `min...max`,
 * compared as numbers when both ends are numeric, else on wc_make_numeric_postcode() codes with the ends
 * right-padded with zeros to the postcode's length.
 */
function postcodeMatches(entry: string, postcode: string): boolean {
  const range = entry.split('...');
  if (range.length === 2) {
    const [min = '', max = ''] = range.map((v) => v.trim().toUpperCase());
    if (NUMERIC.test(min) && NUMERIC.test(max)) {
      return NUMERIC.test(postcode) && Number(postcode) >= Number(min) && Number(postcode) <= Number(max);
    }
    const encoded = numericPostcode(postcode);
    const low = numericPostcode(min).padEnd(encoded.length, '0');
    const high = numericPostcode(max).padEnd(encoded.length, '0');
    return encoded >= low && encoded <= high;
  }
  return wildcardPostcodes(postcode).includes(normalizePostcode(entry));
}

/**
 * WC_Tax::find_rates() / get_matched_tax_rates(): rates of the class whose country and state match (or are
 * blank), whose postcodes and cities (if any) match, sorted by sort_rates_callback(), one per priority.
 */
export function findRates(store: Store, location: TaxLocation, taxClass: string): MatchedRate[] {
  if (!location.country) return [];
  const country = location.country.toUpperCase();
  const state = location.state.toUpperCase();
  const postcode = normalizePostcode(location.postcode);
  const city = location.city.trim().toUpperCase();
  const found: { rate: TaxRateRec; located: boolean }[] = [];
  for (const rate of store.state.tax_rates.values()) {
    if (rate.class !== taxClass) continue;
    if (rate.country !== '' && rate.country !== country) continue;
    if (rate.state !== '' && rate.state !== state) continue;
    const postcodeOk =
      rate.postcodes.length === 0 || rate.postcodes.some((p) => postcodeMatches(p, postcode));
    const cityOk = rate.cities.length === 0 || rate.cities.some((c) => c.toUpperCase() === city);
    if (!postcodeOk || !cityOk) continue;
    found.push({ rate, located: rate.postcodes.length + rate.cities.length > 0 });
  }
  found.sort(
    (a, b) =>
      a.rate.priority - b.rate.priority ||
      blankLast(a.rate.country, b.rate.country) ||
      blankLast(a.rate.state, b.rate.state) ||
      Number(b.located) - Number(a.located) ||
      a.rate.id - b.rate.id,
  );
  const priorities = new Set<number>();
  const matched: MatchedRate[] = [];
  for (const { rate } of found) {
    if (priorities.has(rate.priority)) continue;
    priorities.add(rate.priority);
    matched.push({
      id: rate.id,
      rate: Number.parseFloat(rate.rate) || 0,
      label: rate.name,
      shipping: rate.shipping,
      compound: rate.compound,
    });
  }
  return matched;
}

function blankLast(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  return a > b ? 1 : -1;
}

/** WC_Tax::calc_tax(): each rate's tax on `price`, rounded to the rounding precision (not yet to cents). */
export function calcTax(
  store: Store,
  price: number,
  rates: MatchedRate[],
  inclusive: boolean,
): Map<number, number> {
  const taxes = new Map<number, number>();
  if (inclusive) {
    // calc_inclusive_tax(): compound rates come off first, working backwards, then the regular ones share the rest.
    for (const r of rates) taxes.set(r.id, 0);
    let nonCompound = price;
    for (const r of [...rates].filter((x) => x.compound).reverse()) {
      const tax = nonCompound - nonCompound / (1 + r.rate / 100);
      taxes.set(r.id, taxes.get(r.id)! + tax);
      nonCompound -= tax;
    }
    const regular = rates.filter((x) => !x.compound);
    const regularRate = 1 + regular.reduce((s, r) => s + r.rate, 0) / 100;
    for (const r of regular) {
      const net = price - (r.rate / 100 / regularRate) * nonCompound;
      taxes.set(r.id, taxes.get(r.id)! + (price - net));
    }
  } else {
    // calc_exclusive_tax(): regular rates on the price, then each compound rate on the price plus the taxes so far.
    for (const r of rates) if (!r.compound) taxes.set(r.id, (taxes.get(r.id) ?? 0) + price * (r.rate / 100));
    let preCompound = sum(taxes.values());
    for (const r of rates) {
      if (!r.compound) continue;
      taxes.set(r.id, (taxes.get(r.id) ?? 0) + (price + preCompound) * (r.rate / 100));
      preCompound = sum(taxes.values());
    }
  }
  for (const [id, tax] of taxes) taxes.set(id, roundToPrecision(store, tax));
  return taxes;
}

export function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** WC_Tax::get_rate_code(): COUNTRY-STATE-NAME-PRIORITY, empty parts (and "0", as PHP's empty()) left out. */
export function rateCode(rate: TaxRateRec): string {
  return [rate.country, rate.state, phpEmpty(rate.name) ? 'TAX' : rate.name, String(rate.priority)]
    .filter((part) => !phpEmpty(part))
    .join('-')
    .toUpperCase();
}

/** WC_Tax::get_rate_label(): the rate's name, or "Tax". */
export function rateLabel(rate: TaxRateRec): string {
  return phpEmpty(rate.name) ? 'Tax' : rate.name;
}

/** EU VAT countries (WC_Countries::get_european_union_countries( 'eu_vat' )) and Norway: tax_or_vat() says "VAT". */
const VAT_COUNTRIES = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MC MT NL PL PT RO SE SI SK IM NO'.split(' '),
);

/**
 * What update_taxes() writes on a tax line for a rate id: the rate's code, label, compound flag and percent;
 * for a rate deleted since, an empty code, WC_Countries::tax_or_vat() as the label, not compound, 0%.
 */
export function rateFields(
  store: Store,
  rateId: number,
): { rate_code: string; label: string; compound: boolean; rate_percent: number } {
  const rate = store.state.tax_rates.get(rateId);
  if (rate) {
    return {
      rate_code: rateCode(rate),
      label: rateLabel(rate),
      compound: rate.compound,
      rate_percent: Number.parseFloat(rate.rate) || 0,
    };
  }
  const label = VAT_COUNTRIES.has(baseLocation(store).country) ? 'VAT' : 'Tax';
  return { rate_code: '', label, compound: false, rate_percent: 0 };
}
