import { CURRENCIES, currencySymbolOf } from './geo.js';
import type { OptionRec } from './rows.js';
import type { Store } from './store.js';
import { nextId } from './tables.js';

/**
 * The defaults of a fresh install, for the options the emulator reads outside the settings API (whose own
 * defaults live with their definitions, settings/*.ts). Values are what get_option() returns: strings.
 */
const DEFAULTS: Record<string, string> = {
  woocommerce_default_country: 'US:CA',
  woocommerce_currency: 'USD',
  woocommerce_price_num_decimals: '2',
  woocommerce_calc_taxes: 'no',
  woocommerce_enable_coupons: 'yes',
  woocommerce_calc_discounts_sequentially: 'no',
  woocommerce_prices_include_tax: 'no',
  woocommerce_tax_based_on: 'shipping',
  woocommerce_tax_round_at_subtotal: 'no',
  woocommerce_shipping_tax_class: 'inherit',
};

function findOption(store: Store, name: string): OptionRec | undefined {
  for (const o of store.state.options.values()) if (o.name === name) return o;
  return undefined;
}

/** get_option(): the stored value, else the install's default, else `fallback`. */
export function getOption(store: Store, name: string, fallback = ''): unknown {
  const row = findOption(store, name);
  if (row) return row.value;
  return DEFAULTS[name] ?? fallback;
}

/** Whether the option has a row (get_option( $name, null ) !== null). */
export function hasOption(store: Store, name: string): boolean {
  return findOption(store, name) !== undefined;
}

/** update_option(): one wp_options row per name, journalled. */
export function setOption(store: Store, name: string, value: unknown): void {
  let row = findOption(store, name);
  if (row) row.value = value;
  else {
    row = { id: nextId(store.state, 'option'), name, value };
    store.state.options.set(row.id, row);
  }
  store.changed('options', row.id);
}

/** get_woocommerce_currency(): the store's currency code (woocommerce_currency). */
export function storeCurrency(store: Store): string {
  const code = getOption(store, 'woocommerce_currency');
  return typeof code === 'string' && code !== '' ? code : 'USD';
}

/**
 * `html_entity_decode( get_woocommerce_currency_symbol( $code ) )`: the symbol as orders' `currency_symbol`
 * carries it (WC_REST_Orders_Controller decodes it): `$` for USD, `€` for EUR; '' for an unknown code.
 */
export function currencySymbol(code: string): string {
  return decodeEntities(currencySymbolOf(code));
}

/** get_woocommerce_currency_symbol( $code ) as WooCommerce writes it, HTML entities and all (`&#36;`, `&euro;`). */
export function currencySymbolHtml(code: string): string {
  return currencySymbolOf(code);
}

/** The named entities the symbol table uses; numeric ones are decoded generally. */
const NAMED: Record<string, string> = { euro: '€', pound: '£', yen: '¥', fnof: 'ƒ', nbsp: '\u00a0' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return Object.hasOwn(NAMED, ref) ? (NAMED[ref] as string) : whole;
    const n = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return String.fromCodePoint(n);
  });
}

/** Whether get_woocommerce_currencies() knows the code. */
export function isCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}
