import type { TaxClassRec, TaxRateRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { sanitizeTextField, sanitizeTitle } from '../runtime/formatting.js';
import { absint, numberFormat, phpFloatval, phpIntval } from '../runtime/numbers.js';

/** The standard class as the tax classes controller shows it (it has no row of its own). */
export const STANDARD_CLASS = { slug: 'standard', name: 'Standard rate' } as const;

/**
 * The classes in WC_Tax::get_tax_rate_classes() order: `ORDER BY name` under MySQL's case-insensitive
 * collation (ties in insertion order).
 */
export function taxClasses(store: Store): TaxClassRec[] {
  return [...store.state.tax_classes.values()].sort(
    (a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id,
  );
}

/** Every tax class slug a rate or product may carry: '' (standard) first, then WC_Tax::get_tax_class_slugs(). */
export function taxClassSlugs(store: Store): string[] {
  return ['', ...taxClasses(store).map((c) => c.slug)];
}

/** The `enum` the taxes controller gives `class`: array_merge( ['standard'], WC_Tax::get_tax_class_slugs() ). */
export function classEnum(store: Store): string[] {
  return ['standard', ...taxClasses(store).map((c) => c.slug)];
}

export function findTaxClass(store: Store, slug: string): TaxClassRec | undefined {
  return taxClasses(store).find((c) => c.slug === slug);
}

function classError(code: string, message: string): RestError {
  // WC_REST_Tax_Classes_V1_Controller prefixes WC_Tax's error codes with `woocommerce_rest_`, status 400.
  return new RestError(400, `woocommerce_rest_${code}`, message);
}

/** WC_Tax::create_tax_class( $name ): the name as sanitize_text_field() left it; the slug is its sanitize_title(). */
export function createTaxClass(store: Store, rawName: string): TaxClassRec {
  const name = wcClean(rawName);
  if (name === '') throw classError('tax_class_invalid_name', 'Tax class requires a valid name');
  const existing = taxClasses(store);
  // in_array( $name, $existing, true ): an exact, case-sensitive match.
  if (existing.some((c) => c.name === name)) throw classError('tax_class_exists', 'Tax class already exists');
  const slug = sanitizeTitle(name);
  if (slug === '') throw classError('tax_class_slug_invalid', 'Tax class slug is invalid');
  if (existing.some((c) => c.slug === slug)) {
    throw classError('tax_class_slug_exists', 'Tax class slug already exists');
  }
  const rec: TaxClassRec = { id: nextId(store.state, 'tax_class'), slug, name };
  store.state.tax_classes.set(rec.id, rec);
  store.changed('tax_classes', rec.id);
  return rec;
}

/**
 * WC_Tax::delete_tax_class_by( 'slug', ... ): removes the class and every rate of that class (with its
 * locations). The standard class has no row, so it cannot be deleted: 'invalid_tax_class' like any unknown slug.
 */
export function deleteTaxClass(store: Store, slug: string): TaxClassRec {
  const rec = findTaxClass(store, slug);
  if (!rec) throw classError('invalid_tax_class', 'Invalid tax class');
  store.state.tax_classes.delete(rec.id);
  store.changed('tax_classes', rec.id);
  for (const rate of [...store.state.tax_rates.values()]) {
    if (rate.class !== rec.slug) continue;
    store.state.tax_rates.delete(rate.id);
    store.changed('tax_rates', rate.id);
  }
  return rec;
}

/**
 * wc_clean() of a scalar: sanitize_text_field() (tags stripped, whitespace runs made one space, trimmed,
 * %XX octets removed) of PHP's string cast (true is "1", false "").
 */
export function wcClean(value: unknown): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else if (typeof value === 'boolean') s = value ? '1' : '';
  else if (typeof value === 'number') s = String(value);
  else return '';
  return sanitizeTextField(s);
}

/** PHP's `! empty( $value )` for a validated string: neither '' nor '0'. */
function phpNotEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && value !== '0';
}

/** An unsigned BIGINT column in WordPress's non-strict SQL mode: negative values are stored as 0. */
function unsigned(value: unknown): number {
  return Math.max(0, phpIntval(wcClean(value)));
}

/**
 * WC_Tax::_update_tax_rate_postcodes(): split on ';', '…' spelt '...', upper-cased and trimmed; empty
 * entries (and PHP's falsy "0") and the '*' wildcard dropped. Ranges ("1000...2000") and wildcards ("SW1*") stay.
 */
function formatPostcodes(text: string): string[] {
  return text
    .split(';')
    .map((p) => p.replaceAll('\u2026', '...').trim().toUpperCase())
    .filter((p) => p !== '' && p !== '0' && p !== '*');
}

/** WC_Tax::_update_tax_rate_cities(): format_tax_rate_city() (trim, upper-case) on each, '*' and empties dropped. */
function formatCities(text: string): string[] {
  return text
    .split(';')
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '' && c !== '0' && c !== '*');
}

/**
 * WC_REST_Taxes_V1_Controller::create_or_update_tax() and WC_Tax::prepare_tax_rate() on a validated body:
 * each field sent (isset) goes through wc_clean() and its format_tax_rate_*() formatter. `postcode` and `city`
 * ("a;b") replace the locations only when not empty() (v3 joins `postcodes`/`cities` into them first), so an
 * empty list leaves the locations as they were, exactly as WooCommerce does.
 */
function writeTaxRate(store: Store, t: TaxRateRec, p: Record<string, unknown>): void {
  const has = (k: string) => p[k] !== undefined && p[k] !== null;
  if (has('country')) {
    const c = wcClean(p.country).toUpperCase();
    t.country = c === '*' ? '' : c;
  }
  // format_tax_rate_state( sanitize_key( $value ) ).
  if (has('state')) {
    t.state = wcClean(p.state)
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '')
      .toUpperCase();
  }
  if (has('rate')) t.rate = numberFormat(phpFloatval(wcClean(p.rate)), 4);
  if (has('name')) t.name = wcClean(p.name) || 'Tax';
  if (has('priority')) t.priority = absint(wcClean(p.priority));
  if (has('compound')) t.compound = phpIntval(wcClean(p.compound)) !== 0;
  if (has('shipping')) t.shipping = phpIntval(wcClean(p.shipping)) !== 0;
  if (has('order')) t.order = unsigned(p.order);
  // format_tax_rate_class(): sanitize_title(); a slug that is not a class (or 'standard') is the standard class.
  if (has('class')) {
    const slug = sanitizeTitle(wcClean(p.class));
    t.class = taxClasses(store).some((c) => c.slug === slug) ? slug : '';
  }
  // `! empty( $request['postcode'] )` looks at the value as sent; wc_clean() comes after, so " " clears the list.
  if (phpNotEmpty(p.postcode)) t.postcodes = formatPostcodes(wcClean(p.postcode));
  if (phpNotEmpty(p.city)) t.cities = formatCities(wcClean(p.city));
}

/** `postcodes`/`cities` as WC_REST_Taxes_Controller::adjust_cities_and_postcodes() folds them into `postcode`/`city`. */
export function joinLocations(p: Record<string, unknown>): Record<string, unknown> {
  const out = { ...p };
  if (Array.isArray(p.cities)) out.city = p.cities.join(';');
  if (Array.isArray(p.postcodes)) out.postcode = p.postcodes.join(';');
  return out;
}

/**
 * A new rate. Columns not sent keep the table's defaults (rate and name ''); the create route's schema
 * defaults (priority 1, compound false, shipping true, class standard) arrive as sent values.
 */
export function createTaxRate(store: Store, p: Record<string, unknown>): TaxRateRec {
  const t: TaxRateRec = {
    id: 0,
    country: '',
    state: '',
    postcodes: [],
    cities: [],
    rate: '',
    name: '',
    priority: 0,
    compound: false,
    shipping: true,
    order: 0,
    class: '',
  };
  writeTaxRate(store, t, p);
  t.id = nextId(store.state, 'tax_rate');
  store.state.tax_rates.set(t.id, t);
  store.changed('tax_rates', t.id);
  return t;
}

export function updateTaxRate(store: Store, t: TaxRateRec, p: Record<string, unknown>): TaxRateRec {
  const draft = structuredClone(t);
  writeTaxRate(store, draft, p);
  store.state.tax_rates.set(t.id, draft);
  store.changed('tax_rates', t.id);
  return draft;
}

/** WC_Tax::_delete_tax_rate(): the rate and its locations. */
export function deleteTaxRate(store: Store, t: TaxRateRec): void {
  store.state.tax_rates.delete(t.id);
  store.changed('tax_rates', t.id);
}
