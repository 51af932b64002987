import { CURRENCIES, currencySymbolOf } from '../data/geo.js';
import { type AdminField, section } from './fields.js';

/**
 * WC_Settings_General::get_settings_for_default_section() (includes/admin/settings/class-wc-settings-general.php),
 * the `general` group. The address autocomplete checkbox is there (no provider plugin is installed, so its tip
 * carries the "Requires a plugin" sentence and no preferred-provider select follows); it is named with `name`,
 * not `title`, so the REST API gives it an empty label.
 */
function currencyOptions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, name] of CURRENCIES) out[code] = `${name} (${currencySymbolOf(code)}) — ${code}`;
  return out;
}

const address = section(
  'store_address',
  'Store Address',
  'This is where your business is located. Tax rates and shipping rates will use this address.',
);
const general = section('general_options', 'General options');
const taxes = section(
  'taxes_and_coupons_options',
  'Taxes and coupons',
  'Enable taxes and coupons and configure how they are calculated.',
);
const pricing = section(
  'pricing_options',
  'Currency options',
  'The following options affect how prices are displayed on the frontend.',
);

export const GENERAL_FIELDS: AdminField[] = [
  address.open,
  {
    id: 'woocommerce_store_address',
    title: 'Address line 1',
    desc: 'The street address for your business location.',
    default: '',
    type: 'text',
    desc_tip: true,
  },
  {
    id: 'woocommerce_store_address_2',
    title: 'Address line 2',
    desc: 'An additional, optional address line for your business location.',
    default: '',
    type: 'text',
    desc_tip: true,
  },
  {
    id: 'woocommerce_store_city',
    title: 'City',
    desc: 'The city in which your business is located.',
    default: '',
    type: 'text',
    desc_tip: true,
  },
  {
    id: 'woocommerce_default_country',
    title: 'Country / State',
    desc: 'The country and state or province, if any, in which your business is located.',
    default: 'US:CA',
    type: 'single_select_country',
    desc_tip: true,
  },
  {
    id: 'woocommerce_store_postcode',
    title: 'Postcode / ZIP',
    desc: 'The postal code, if any, in which your business is located.',
    default: '',
    type: 'text',
    desc_tip: true,
  },
  address.close,
  general.open,
  {
    id: 'woocommerce_allowed_countries',
    title: 'Selling location(s)',
    desc: 'This option lets you limit which countries you are willing to sell to.',
    default: 'all',
    type: 'select',
    desc_tip: true,
    options: {
      all: 'Sell to all countries',
      all_except: 'Sell to all countries, except for&hellip;',
      specific: 'Sell to specific countries',
    },
  },
  {
    id: 'woocommerce_all_except_countries',
    title: 'Sell to all countries, except for&hellip;',
    desc: '',
    default: '',
    type: 'multi_select_countries',
  },
  {
    id: 'woocommerce_specific_allowed_countries',
    title: 'Sell to specific countries',
    desc: '',
    default: '',
    type: 'multi_select_countries',
  },
  {
    id: 'woocommerce_ship_to_countries',
    title: 'Shipping location(s)',
    desc: 'Choose which countries you want to ship to, or choose to ship to all locations you sell to.',
    default: '',
    type: 'select',
    desc_tip: true,
    options: {
      '': 'Ship to all countries you sell to',
      all: 'Ship to all countries',
      specific: 'Ship to specific countries only',
      disabled: 'Disable shipping &amp; shipping calculations',
    },
  },
  {
    id: 'woocommerce_specific_ship_to_countries',
    title: 'Ship to specific countries',
    desc: '',
    default: '',
    type: 'multi_select_countries',
  },
  {
    id: 'woocommerce_default_customer_address',
    title: 'Default customer location',
    desc_tip:
      'This option determines a customers default location. The MaxMind GeoLite Database will be periodically downloaded to your wp-content directory if using geolocation.',
    default: 'base',
    type: 'select',
    options: {
      '': 'No location by default',
      base: 'Shop country/region',
      geolocation: 'Geolocate',
      geolocation_ajax: 'Geolocate (with page caching support)',
    },
  },
  {
    id: 'woocommerce_address_autocomplete_enabled',
    desc: 'Enable predictive address search',
    type: 'checkbox',
    desc_tip:
      'Suggest full addresses to customers as they type. Requires a plugin with predictive address search support (e.g. <a href="https://woocommerce.com/products/woocommerce-payments/" target="_blank">WooPayments</a>).',
    default: 'no',
  },
  general.close,
  taxes.open,
  {
    id: 'woocommerce_calc_taxes',
    title: 'Enable taxes',
    desc: 'Enable tax rates and calculations',
    default: 'no',
    type: 'checkbox',
    desc_tip: 'Rates will be configurable and taxes will be calculated during checkout.',
  },
  {
    id: 'woocommerce_enable_coupons',
    title: 'Enable coupons',
    desc: 'Enable the use of coupon codes',
    default: 'yes',
    type: 'checkbox',
    desc_tip: 'Coupons can be applied from the cart and checkout pages.',
  },
  {
    id: 'woocommerce_calc_discounts_sequentially',
    desc: 'Calculate coupon discounts sequentially',
    default: 'no',
    type: 'checkbox',
    desc_tip:
      'When applying multiple coupons, apply the first coupon to the full price and the second coupon to the discounted price and so on.',
  },
  taxes.close,
  pricing.open,
  {
    id: 'woocommerce_currency',
    title: 'Currency',
    desc: 'This controls what currency prices are listed at in the catalog and which currency gateways will take payments in.',
    default: 'USD',
    type: 'select',
    desc_tip: true,
    options: currencyOptions,
  },
  {
    id: 'woocommerce_currency_pos',
    title: 'Currency position',
    desc: 'This controls the position of the currency symbol.',
    default: 'left',
    type: 'select',
    options: { left: 'Left', right: 'Right', left_space: 'Left with space', right_space: 'Right with space' },
    desc_tip: true,
  },
  {
    id: 'woocommerce_price_thousand_sep',
    title: 'Thousand separator',
    desc: 'This sets the thousand separator of displayed prices.',
    default: ',',
    type: 'text',
    desc_tip: true,
  },
  {
    id: 'woocommerce_price_decimal_sep',
    title: 'Decimal separator',
    desc: 'This sets the decimal separator of displayed prices.',
    default: '.',
    type: 'text',
    desc_tip: true,
  },
  {
    id: 'woocommerce_price_num_decimals',
    title: 'Number of decimals',
    desc: 'This sets the number of decimal points shown in displayed prices.',
    default: '2',
    desc_tip: true,
    type: 'number',
  },
  pricing.close,
];
