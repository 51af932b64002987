import { getOption, setOption } from '../data/options.js';
import type { Store } from '../data/store.js';
import { SettingError, validateSettingValue } from './settings.js';

/**
 * The payment gateways of a fresh install (WC_Payment_Gateways::init(): WC_Gateway_BACS, WC_Gateway_Cheque,
 * WC_Gateway_COD; PayPal Standard only loads for stores that used it before) with their init_form_fields().
 * Settings persist as the `woocommerce_<id>_settings` option (WC_Settings_API::get_option_key()); the sort order as
 * `woocommerce_gateway_order`.
 */
export interface FormField {
  title?: string;
  label?: string;
  type: string;
  description?: string;
  default?: unknown;
  placeholder?: string;
  options?: Record<string, unknown>;
}

export interface GatewayDef {
  id: string;
  method_title: string;
  method_description: string;
  supports: string[];
  form_fields: Record<string, FormField>;
}

const instructions = (description: string, dflt: string): FormField => ({
  title: 'Instructions',
  type: 'textarea',
  description,
  default: dflt,
});

/** The shipping methods WC_Gateway_COD::load_shipping_method_options() lists (grouped by method title). */
const SHIPPING_METHODS: [string, string][] = [
  ['flat_rate', 'Flat rate'],
  ['free_shipping', 'Free shipping'],
  ['local_pickup', 'Local pickup'],
];

export const GATEWAYS: GatewayDef[] = [
  {
    id: 'bacs',
    method_title: 'Direct bank transfer',
    method_description: 'Take payments in person via BACS. More commonly known as direct bank/wire transfer.',
    supports: ['products'],
    form_fields: {
      enabled: { title: 'Enable/Disable', type: 'checkbox', label: 'Enable bank transfer', default: 'no' },
      title: {
        title: 'Title',
        type: 'safe_text',
        description: 'This controls the title which the user sees during checkout.',
        default: 'Direct bank transfer',
      },
      description: {
        title: 'Description',
        type: 'textarea',
        description: 'Payment method description that the customer will see on your checkout.',
        default:
          'Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account.',
      },
      instructions: instructions('Instructions that will be added to the thank you page and emails.', ''),
      account_details: { type: 'account_details' },
    },
  },
  {
    id: 'cheque',
    method_title: 'Check payments',
    method_description:
      'Take payments in person via checks. This offline gateway can also be useful to test purchases.',
    supports: ['products'],
    form_fields: {
      enabled: { title: 'Enable/Disable', type: 'checkbox', label: 'Enable check payments', default: 'no' },
      title: {
        title: 'Title',
        type: 'safe_text',
        description: 'This controls the title which the user sees during checkout.',
        default: 'Check payments',
      },
      description: {
        title: 'Description',
        type: 'textarea',
        description: 'Payment method description that the customer will see on your checkout.',
        default:
          'Please send a check to Store Name, Store Street, Store Town, Store State / County, Store Postcode.',
      },
      instructions: instructions('Instructions that will be added to the thank you page and emails.', ''),
    },
  },
  {
    id: 'cod',
    method_title: 'Cash on delivery',
    method_description: 'Let your shoppers pay upon delivery — by cash or other methods of payment.',
    supports: ['products'],
    form_fields: {
      enabled: {
        title: 'Enable/Disable',
        label: 'Enable cash on delivery',
        type: 'checkbox',
        description: '',
        default: 'no',
      },
      title: {
        title: 'Title',
        type: 'safe_text',
        description: 'Payment method description that the customer will see on your checkout.',
        default: 'Cash on delivery',
      },
      description: {
        title: 'Description',
        type: 'textarea',
        description: 'Payment method description that the customer will see on your website.',
        default: 'Pay with cash upon delivery.',
      },
      instructions: instructions(
        'Instructions that will be added to the thank you page.',
        'Pay with cash upon delivery.',
      ),
      enable_for_methods: {
        title: 'Enable for shipping methods',
        type: 'multiselect',
        default: '',
        description:
          'If COD is only available for certain methods, set it up here. Leave blank to enable for all methods.',
        options: Object.fromEntries(
          SHIPPING_METHODS.map(([id, title]) => [title, { [id]: `Any &quot;${title}&quot; method` }]),
        ),
      },
      enable_for_virtual: {
        title: 'Accept for virtual orders',
        label: 'Accept COD if the order is virtual',
        type: 'checkbox',
        default: 'yes',
      },
    },
  },
];

const optionKey = (g: GatewayDef) => `woocommerce_${g.id}_settings`;

/** WC_Settings_API::init_settings(): the saved settings over every field's default. */
export function gatewaySettings(store: Store, g: GatewayDef): Record<string, unknown> {
  const saved = getOption(store, optionKey(g), '');
  const out: Record<string, unknown> = {};
  for (const [id, f] of Object.entries(g.form_fields)) out[id] = f.default ?? '';
  return typeof saved === 'object' && saved !== null
    ? { ...out, ...(saved as Record<string, unknown>) }
    : out;
}

/** `(array) get_option( 'woocommerce_gateway_order' )`. */
export function gatewayOrder(store: Store): Record<string, unknown> {
  const o = getOption(store, 'woocommerce_gateway_order', '');
  return typeof o === 'object' && o !== null ? (o as Record<string, unknown>) : {};
}

/** WC_Payment_Gateways::init(): numeric saved positions first (ksort), the rest from 999 on, in load order. */
export function orderedGateways(store: Store): GatewayDef[] {
  const ordering = gatewayOrder(store);
  const slots = new Map<number, GatewayDef>();
  let end = 999;
  for (const g of GATEWAYS) {
    const pos = ordering[g.id];
    if (pos !== undefined && pos !== null && pos !== '' && Number.isFinite(Number(pos)))
      slots.set(Number(pos), g);
    else slots.set(end++, g);
  }
  return [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
}

export function findGateway(store: Store, id: string): GatewayDef | undefined {
  return orderedGateways(store).find((g) => g.id === id);
}

export interface GatewayUpdate {
  settings?: Record<string, unknown>;
  enabled?: boolean;
  title?: string;
  description?: string;
  order?: number;
}

/**
 * WC_REST_Payment_Gateways_V2_Controller::update_item(): each given setting validated by its field type (any
 * failure → `rest_setting_value_invalid`, nothing saved), then enabled/title/description, then the order.
 * Returns false when a setting value is invalid.
 */
export function updateGateway(store: Store, g: GatewayDef, u: GatewayUpdate): boolean {
  const settings = gatewaySettings(store, g);
  if (u.settings) {
    for (const [key, field] of Object.entries(g.form_fields)) {
      const v = u.settings[key];
      if (v === undefined || v === null) continue;
      const type = field.type === 'safe_text' ? 'text' : field.type;
      try {
        settings[key] = validateSettingValue(v, {
          type,
          options: field.options as Record<string, string> | undefined,
          default: field.default,
        });
      } catch (err) {
        if (err instanceof SettingError) return false;
        throw err;
      }
    }
  }
  if (u.enabled !== undefined) settings.enabled = u.enabled ? 'yes' : 'no';
  if (u.title !== undefined) settings.title = u.title;
  if (u.description !== undefined) settings.description = u.description;
  setOption(store, optionKey(g), settings);
  if (u.order !== undefined)
    setOption(store, 'woocommerce_gateway_order', { ...gatewayOrder(store), [g.id]: u.order });
  return true;
}
