/**
 * Money in the Store API: amounts as strings of whole minor units (StoreApi/Formatters/MoneyFormatter.php:
 * `intval( round( wc_format_decimal( $value ) * 10 ** $decimals ) )`), next to the store's currency as
 * AbstractSchema::get_store_currency_response() describes it (StoreApi/Schemas/V1/AbstractSchema.php).
 */

import { currencySymbol, getOption, storeCurrency } from '../../data/options.js';
import type { Store } from '../../data/store.js';
import { priceDecimals } from '../../pricing/tax-math.js';
import { phpRound } from '../../runtime/numbers.js';

/** MoneyFormatter::format(): '' stays '' (an unpriced product), anything else is whole minor units. */
export function minor(store: Store, value: number | string): string {
  if (value === '') return '';
  const n = typeof value === 'number' ? value : Number.parseFloat(value);
  if (!Number.isFinite(n)) return '0';
  return String(Math.trunc(phpRound(n * 10 ** priceDecimals(store))));
}

/**
 * get_store_currency_response(): the code, the decoded symbol, the minor unit (wc_get_price_decimals()), the
 * separators, and the symbol as prefix or suffix by `woocommerce_currency_pos` (with a space for the `_space`
 * positions).
 */
export function currencyFields(store: Store): Record<string, unknown> {
  const code = storeCurrency(store);
  const symbol = currencySymbol(code);
  const position = String(getOption(store, 'woocommerce_currency_pos', 'left'));
  const prefix = position === 'left' ? symbol : position === 'left_space' ? `${symbol} ` : '';
  const suffix = position === 'right' ? symbol : position === 'right_space' ? ` ${symbol}` : '';
  return {
    currency_code: code,
    currency_symbol: symbol,
    currency_minor_unit: priceDecimals(store),
    currency_decimal_separator: String(getOption(store, 'woocommerce_price_decimal_sep', '.')),
    currency_thousand_separator: String(getOption(store, 'woocommerce_price_thousand_sep', ',')),
    currency_prefix: prefix,
    currency_suffix: suffix,
  };
}

/** prepare_currency_response(): the amounts with the currency fields after them. */
export function withCurrency(store: Store, amounts: Record<string, unknown>): Record<string, unknown> {
  return { ...amounts, ...currencyFields(store) };
}
