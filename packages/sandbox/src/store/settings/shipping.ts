import { type AdminField, section } from './fields.js';

/**
 * The `shipping` group: WC_Settings_Shipping (class-wc-settings-shipping.php). Its default section ('' =
 * "Shipping zones") answers get_settings_for_options_section(), and the 'options' section answers the same, so
 * WC_Register_WP_Admin_Settings::register_page_settings(), walking every section, registers each field twice:
 * the group lists them twice, and get_setting() finds the first. The 'classes' section and the shipping
 * methods' sections have no fields.
 */
const options = section('shipping_options', 'Shipping options');

const OPTIONS_SECTION: AdminField[] = [
  options.open,
  {
    id: 'woocommerce_enable_shipping_calc',
    title: 'Calculations',
    desc: 'Enable the shipping calculator on the cart page',
    default: 'yes',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_shipping_cost_requires_address',
    desc: 'Hide shipping costs until an address is entered',
    default: 'no',
    type: 'checkbox',
  },
  {
    id: 'woocommerce_ship_to_destination',
    title: 'Shipping destination',
    desc: 'This controls which shipping address is used by default.',
    default: 'billing',
    type: 'radio',
    options: {
      shipping: 'Default to customer shipping address',
      billing: 'Default to customer billing address',
      billing_only: 'Force shipping to the customer billing address',
    },
    desc_tip: true,
  },
  {
    id: 'woocommerce_shipping_debug_mode',
    title: 'Debug mode',
    desc: 'Enable debug mode',
    desc_tip: 'Enable shipping debug mode to show matching shipping zones and to bypass shipping rate cache.',
    default: 'no',
    type: 'checkbox',
  },
  options.close,
];

export const SHIPPING_FIELDS: AdminField[] = [...OPTIONS_SECTION, ...OPTIONS_SECTION];
