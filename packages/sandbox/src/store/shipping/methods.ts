import type { Store } from '../data/store.js';
import { RestError } from '../runtime/errors.js';

/**
 * The shipping methods a fresh WooCommerce registers (WC_Shipping::get_shipping_methods()): the three zone
 * methods of includes/shipping/* and the block checkout's `pickup_location`
 * (Automattic\WooCommerce\Blocks\Shipping\PickupLocation), which has no zone instances.
 */
export interface MethodDef {
  id: string;
  title: string;
  description: string;
  /** Supports 'shipping-zones' (can be added to a zone). */
  zones: boolean;
}

export const SHIPPING_METHODS: readonly MethodDef[] = [
  {
    id: 'flat_rate',
    title: 'Flat rate',
    description: 'Lets you charge a fixed rate for shipping.',
    zones: true,
  },
  {
    id: 'free_shipping',
    title: 'Free shipping',
    description: 'Free shipping is a special method which can be triggered with coupons and minimum spends.',
    zones: true,
  },
  {
    id: 'local_pickup',
    title: 'Local pickup',
    description:
      'Allow customers to pick up orders themselves. By default, when using local pickup store base taxes will apply regardless of customer address.',
    zones: true,
  },
  {
    id: 'pickup_location',
    title: 'Local pickup',
    description: 'Allow customers to choose a local pickup location during checkout.',
    zones: false,
  },
];

export function findMethod(id: string): MethodDef | undefined {
  return SHIPPING_METHODS.find((m) => m.id === id);
}

/** One instance form field (WC_Settings_API form field after set_defaults()). */
export interface FormField {
  title: string;
  type: string;
  description: string;
  default: string;
  placeholder: string;
  options?: Record<string, string>;
}

const TAX_STATUS: FormField = {
  title: 'Tax status',
  type: 'select',
  description: '',
  default: 'taxable',
  placeholder: '',
  options: { taxable: 'Taxable', none: 'None' },
};

const COST_DESC =
  'Enter a cost (excl. tax) or sum, e.g. <code>10.00 * [qty]</code>.<br/><br/>Use <code>[qty]</code> for the number of items, <br/><code>[cost]</code> for the total cost of items, and <code>[fee percent="10" min_fee="20" max_fee=""]</code> for percentage based fees.';

const ADVANCED_COSTS =
  '<span id="wc-shipping-advanced-costs-help-text">Charge a flat rate per item, or enter a cost formula to charge a percentage based cost or a minimum fee. Learn more about <a target="_blank" href="https://woocommerce.com/document/flat-rate-shipping/#advanced-costs">advanced costs</a>.</span>';

/** includes/shipping/flat-rate/includes/settings-flat-rate.php: class costs appear once shipping classes exist. */
function flatRateFields(store: Store): Record<string, FormField> {
  const fields: Record<string, FormField> = {
    title: {
      title: 'Name',
      type: 'text',
      description: 'Your customers will see the name of this shipping method during checkout.',
      default: 'Flat rate',
      placeholder: 'e.g. Standard national',
    },
    tax_status: TAX_STATUS,
    cost: { title: 'Cost', type: 'text', description: COST_DESC, default: '0', placeholder: '' },
  };
  const classes = [...store.state.terms.values()].filter((t) => t.taxonomy === 'product_shipping_class');
  if (classes.length === 0) return fields;
  const classesUrl = `${store.homeUrl}/wp-admin/admin.php?page=wc-settings&tab=shipping&section=classes`;
  fields.class_costs = {
    title: 'Shipping class costs',
    type: 'title',
    description: `These costs can optionally be added based on the <a target="_blank" href="${classesUrl}">product shipping class</a>. Learn more about <a target="_blank" href="https://woocommerce.com/document/flat-rate-shipping/#shipping-classes">setting shipping class costs</a>.`,
    default: '',
    placeholder: '',
  };
  for (const c of classes) {
    fields[`class_cost_${c.id}`] = {
      title: `"${c.name}" shipping class cost`,
      type: 'text',
      description: COST_DESC,
      default: '',
      placeholder: 'N/A',
    };
  }
  fields.no_class_cost = {
    title: 'No shipping class cost',
    type: 'text',
    description: COST_DESC,
    default: '',
    placeholder: 'N/A',
  };
  fields.type = {
    title: 'Calculation type',
    type: 'select',
    description: ADVANCED_COSTS,
    default: 'class',
    placeholder: '',
    options: {
      class: 'Per class: Charge shipping for each shipping class individually',
      order: 'Per order: Charge shipping for the most expensive shipping class',
    },
  };
  return fields;
}

/** WC_Shipping_Free_Shipping::init_form_fields(). */
const FREE_SHIPPING_FIELDS: Record<string, FormField> = {
  title: {
    title: 'Title',
    type: 'text',
    description: 'This controls the title which the user sees during checkout.',
    default: 'Free shipping',
    placeholder: '',
  },
  requires: {
    title: 'Free shipping requires...',
    type: 'select',
    description: '',
    default: '',
    placeholder: '',
    options: {
      '': 'N/A',
      coupon: 'A valid free shipping coupon',
      min_amount: 'A minimum order amount',
      either: 'A minimum order amount OR a coupon',
      both: 'A minimum order amount AND a coupon',
    },
  },
  min_amount: {
    title: 'Minimum order amount',
    type: 'price',
    description: 'Users will need to spend this amount to get free shipping (if enabled above).',
    default: '0',
    placeholder: '0',
  },
  ignore_discounts: {
    title: 'Coupons discounts',
    type: 'checkbox',
    description: 'If checked, free shipping would be available based on pre-discount order amount.',
    default: 'no',
    placeholder: '',
  },
};

/** WC_Shipping_Local_Pickup::init_form_fields(). */
const LOCAL_PICKUP_FIELDS: Record<string, FormField> = {
  title: {
    title: 'Name',
    type: 'text',
    description: 'This controls the title which the user sees during checkout.',
    default: '',
    placeholder: 'e.g. Local pickup',
  },
  tax_status: TAX_STATUS,
  cost: {
    title: 'Cost',
    type: 'text',
    description: 'Optional cost for local pickup.',
    default: '',
    placeholder: '0',
  },
};

/** get_instance_form_fields() of a zone method. */
export function instanceFields(store: Store, methodId: string): Record<string, FormField> {
  if (methodId === 'flat_rate') return flatRateFields(store);
  if (methodId === 'free_shipping') return FREE_SHIPPING_FIELDS;
  return LOCAL_PICKUP_FIELDS;
}

/** init_instance_settings(): the saved settings, or every field's default when none were saved. */
export function instanceSettings(
  store: Store,
  methodId: string,
  saved: Record<string, string> | null,
): Record<string, string> {
  if (saved) return saved;
  const out: Record<string, string> = {};
  for (const [key, f] of Object.entries(instanceFields(store, methodId))) out[key] = f.default;
  return out;
}

function invalidSetting(): RestError {
  return new RestError(400, 'rest_setting_value_invalid', 'An invalid setting value was passed.');
}

/** The text a PHP scalar becomes when a setting stores it (arrays and objects are refused). */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  throw invalidSetting();
}

/**
 * WC_REST_Controller::validate_setting_{type}_field(): select values must be one of the options, checkboxes
 * `yes`/`no` (empty means the default), anything else is kept as text, trimmed (wp_kses_post() keeps the
 * markup a cost may hold).
 */
export function validateSetting(field: FormField, value: unknown): string {
  if (field.type === 'select' || field.type === 'radio') {
    const v = scalarText(value);
    if (field.options && Object.hasOwn(field.options, v)) return v;
    throw invalidSetting();
  }
  if (field.type === 'checkbox') {
    if (value === 'yes' || value === 'no') return value;
    if (value === '' || value === false || value === 0 || value === '0') return field.default || 'no';
    throw invalidSetting();
  }
  return scalarText(value).trim();
}
