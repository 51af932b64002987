/**
 * The facts behind /data/* and the country settings: countries, states, continents, per-country locale
 * information and currencies, as a fresh WooCommerce install knows them.
 *
 * data/geo.json was built once from WooCommerce's own i18n files: i18n/countries.php (249 countries, in file
 * order), i18n/states.php (the countries with a state list; an empty list means "no states"),
 * i18n/continents.php, i18n/locale-info.php (currency_code, currency_pos, thousand_sep, decimal_sep,
 * num_decimals, weight_unit, dimension_unit and the currency `name`), i18n/currencies.php (@version 10.6.0,
 * get_woocommerce_currencies()) and get_woocommerce_currency_symbols() (includes/wc-core-functions.php).
 * Names keep WooCommerce's spelling, HTML entities included (`Costa Rican col&oacute;n`, `&#36;`): the REST API
 * sends them as they are.
 */
import geo from './geo.json' with { type: 'json' };

type Pair = [string, string];

interface GeoData {
  countries: Pair[];
  states: Record<string, Pair[]>;
  continents: [string, string, string[]][];
  /** [currency_code, currency_pos, thousand_sep, decimal_sep, num_decimals, weight_unit, dimension_unit, name] */
  locale: Record<string, [string, string, string, string, number, string, string, string]>;
  currencies: Pair[];
  symbols: Record<string, string>;
}

const DATA = geo as unknown as GeoData;

export interface LocaleInfo {
  currency_code: string;
  currency_pos: string;
  thousand_sep: string;
  decimal_sep: string;
  num_decimals: number;
  weight_unit: string;
  dimension_unit: string;
  /** The currency's name (locale-info.php has no country name). */
  name: string;
}

/**
 * A table entry by a code that comes from a request: only the table's own keys, so `__proto__` or
 * `constructor` (an order's `currency`, a customer's `country`) is an unknown code, not Object.prototype.
 */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** WC_Countries::get_countries(): code → name, in WooCommerce's order. */
export const COUNTRIES: ReadonlyMap<string, string> = new Map(DATA.countries);

/** WC_Countries::get_states(): only countries listed in states.php have an entry (possibly empty). */
export function statesOf(country: string): Pair[] | undefined {
  return own(DATA.states, country);
}

/** WC_Countries::get_continents(): code → {name, countries}. */
export const CONTINENTS: ReadonlyMap<string, { name: string; countries: string[] }> = new Map(
  DATA.continents.map(([code, name, countries]) => [code, { name, countries }]),
);

export function localeInfo(country: string): LocaleInfo | undefined {
  const row = own(DATA.locale, country);
  if (!row) return undefined;
  const [
    currency_code,
    currency_pos,
    thousand_sep,
    decimal_sep,
    num_decimals,
    weight_unit,
    dimension_unit,
    name,
  ] = row;
  return {
    currency_code,
    currency_pos,
    thousand_sep,
    decimal_sep,
    num_decimals,
    weight_unit,
    dimension_unit,
    name,
  };
}

/** get_woocommerce_currencies(): code → name, in WooCommerce's order. */
export const CURRENCIES: ReadonlyMap<string, string> = new Map(DATA.currencies);

/** get_woocommerce_currency_symbol( $code ): '' for a code without a symbol. */
export function currencySymbolOf(code: string): string {
  return own(DATA.symbols, code) ?? '';
}
