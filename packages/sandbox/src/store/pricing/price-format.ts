/**
 * wc_price() (includes/wc-formatting-functions.php): an amount as WooCommerce prints it in HTML, with the
 * store's currency position, separators and decimals (get_woocommerce_price_format(), number_format()).
 */

import { currencySymbolHtml, getOption, storeCurrency } from '../data/options.js';
import type { Store } from '../data/store.js';
import { numberFormat } from '../runtime/numbers.js';
import { priceDecimals } from './tax-math.js';

/** The number as number_format( abs, decimals, decimal_separator, thousand_separator ) writes it. */
function formatNumber(store: Store, value: number): string {
  const [whole = '0', fraction] = numberFormat(Math.abs(value), priceDecimals(store)).split('.');
  const thousands = String(getOption(store, 'woocommerce_price_thousand_sep', ','));
  const decimal = String(getOption(store, 'woocommerce_price_decimal_sep', '.'));
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
}

export function wcPrice(store: Store, value: number, currency = storeCurrency(store)): string {
  const symbol = `<span class="woocommerce-Price-currencySymbol">${currencySymbolHtml(currency)}</span>`;
  const amount = formatNumber(store, value);
  const position = String(getOption(store, 'woocommerce_currency_pos', 'left'));
  const body =
    position === 'right'
      ? `${amount}${symbol}`
      : position === 'left_space'
        ? `${symbol}&nbsp;${amount}`
        : position === 'right_space'
          ? `${amount}&nbsp;${symbol}`
          : `${symbol}${amount}`;
  return `<span class="woocommerce-Price-amount amount"><bdi>${value < 0 ? '-' : ''}${body}</bdi></span>`;
}
