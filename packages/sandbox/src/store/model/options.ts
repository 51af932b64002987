import type { Store } from './store.js';

/** A row of wp_options that was changed from its default. */
export interface OptionRec {
  id: number;
  name: string;
  value: unknown;
}

/** The defaults of a fresh install, for the options the emulator reads. */
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

/** get_option(): the stored value, else the install's default, else `fallback`. */
export function getOption(store: Store, name: string, fallback = ''): unknown {
  for (const o of store.state.options.values()) if (o.name === name) return o.value;
  return DEFAULTS[name] ?? fallback;
}
