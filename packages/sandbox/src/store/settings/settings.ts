import { COUNTRIES, statesOf } from '../data/geo.js';
import { getOption, hasOption, setOption } from '../data/options.js';
import type { Store } from '../data/store.js';
import { PhpFatalError } from '../runtime/errors.js';
import { stripScriptStyle } from '../runtime/markup.js';
import { phpEmpty } from '../runtime/numbers.js';
import { accountFields } from './account.js';
import { PRODUCTS_FIELDS, taxFields } from './catalog.js';
import { type AdminField, registerSetting, type SettingDef } from './fields.js';
import { GENERAL_FIELDS } from './general.js';
import { SHIPPING_FIELDS } from './shipping.js';

/**
 * The settings API's groups (WC_Register_WP_Admin_Settings::register_page_group(), one per
 * WC_Admin_Settings::get_settings_pages() page, in that order) and the fields each group serves.
 * Groups without emulated fields (checkout, email, integration, site-visibility, advanced) are listed
 * but answer `rest_setting_setting_group_invalid`, as a page whose settings filter returns nothing does. The
 * emails' own groups (`email_new_order`, ...) are not emulated.
 */
export interface SettingGroup {
  id: string;
  label: string;
  description?: string;
  parent_id?: string;
  fields?: (store: Store) => AdminField[];
}

export const SETTING_GROUPS: SettingGroup[] = [
  { id: 'general', label: 'General', fields: () => GENERAL_FIELDS },
  { id: 'products', label: 'Products', fields: () => PRODUCTS_FIELDS },
  { id: 'tax', label: 'Tax', fields: taxFields },
  { id: 'shipping', label: 'Shipping', fields: () => SHIPPING_FIELDS },
  { id: 'checkout', label: 'Payments' },
  { id: 'account', label: 'Accounts &amp; Privacy', fields: accountFields },
  { id: 'email', label: 'Emails' },
  { id: 'integration', label: 'Integration' },
  // Added while the launch-your-store feature is on, as it is on new stores.
  { id: 'site-visibility', label: 'Site visibility' },
  { id: 'advanced', label: 'Advanced' },
];

/** WC_REST_Setting_Options_V2_Controller::is_setting_type_valid(): the types the API serves. */
const SERVED_TYPES = new Set([
  'text',
  'email',
  'number',
  'color',
  'password',
  'textarea',
  'select',
  'multiselect',
  'radio',
  'checkbox',
  'image_width',
  'thumbnail_cropping',
]);

/** A setting as the controller holds it: the registered field plus its current `value` and resolved options. */
export interface Setting {
  id: string;
  label: string;
  description: string;
  type: string;
  default?: unknown;
  options?: Record<string, string>;
  tip?: string;
  value: unknown;
}

export function isServedType(type: string): boolean {
  return SERVED_TYPES.has(type);
}

/** WC_REST_Setting_Options_V2_Controller::get_countries_and_states(): 'US:CA' => 'United States (US) - California'. */
function countriesAndStates(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, name] of COUNTRIES) {
    const states = statesOf(code);
    if (states && states.length > 0)
      for (const [s, sName] of states) out[`${code}:${s}`] = `${name} - ${sName}`;
    else out[code] = name;
  }
  return out;
}

/** WC_Admin_Settings::get_option(): the stored value, else the field's default. */
function currentValue(store: Store, def: SettingDef): unknown {
  return hasOption(store, def.id) ? getOption(store, def.id) : (def.default ?? '');
}

/**
 * WC_REST_Setting_Options_Controller::get_group_settings() (v3): every registered field with its value, the
 * country and page pickers turned into plain selects; `null` for an unknown or empty group.
 */
export function groupSettings(store: Store, groupId: string): Setting[] | null {
  const group = SETTING_GROUPS.find((g) => g.id === groupId);
  if (!group?.fields) return null;
  return group.fields(store).map((field) => {
    const def = registerSetting(field);
    const options = typeof def.options === 'function' ? def.options(store) : def.options;
    const setting: Setting = {
      id: def.id,
      label: def.label,
      description: def.description,
      type: def.type,
      value: '',
    };
    if (def.default !== undefined) setting.default = def.default;
    if (options !== undefined) setting.options = options;
    if (def.tip !== undefined) setting.tip = def.tip;
    setting.value = currentValue(store, def);
    if (def.type === 'multi_select_countries') {
      setting.type = 'multiselect';
      setting.options = Object.fromEntries(COUNTRIES);
    } else if (def.type === 'single_select_country') {
      setting.type = 'select';
      setting.options = countriesAndStates();
    } else if (def.type === 'single_select_page') {
      // get_pages(): the emulated site has no pages.
      setting.type = 'select';
      setting.options = {};
    }
    return setting;
  });
}

export class SettingError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const invalidGroup = () =>
  new SettingError(404, 'rest_setting_setting_group_invalid', 'Invalid setting group.');
const invalidSetting = () => new SettingError(404, 'rest_setting_setting_invalid', 'Invalid setting.');
const invalidValue = () =>
  new SettingError(400, 'rest_setting_value_invalid', 'An invalid setting value was passed.');

/** The settings controller's group lookup: empty or unknown groups are 404 rest_setting_setting_group_invalid. */
export function requireGroup(store: Store, groupId: string): Setting[] {
  if (phpEmpty(groupId)) throw invalidGroup();
  const settings = groupSettings(store, groupId);
  if (!settings || settings.length === 0) throw invalidGroup();
  return settings;
}

/** WC_REST_Setting_Options_Controller::get_setting(): the setting with `group_id`, or 404. */
export function findSetting(store: Store, groupId: unknown, id: unknown): Setting & { group_id: string } {
  if (phpEmpty(id)) throw invalidSetting();
  const settings = requireGroup(store, typeof groupId === 'string' ? groupId : String(groupId ?? ''));
  const setting = settings.find((s) => s.id === id);
  if (!setting || !isServedType(setting.type)) throw invalidSetting();
  return { ...setting, group_id: String(groupId) };
}

/** A scalar as PHP uses it for an array key (array_key_exists). */
function arrayKey(v: unknown): string | null {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(Math.trunc(v));
  if (typeof v === 'boolean') return v ? '1' : '0';
  return null;
}

/**
 * PHP 8 throws a TypeError where WooCommerce hands an array to a string function (stripslashes(),
 * array_key_exists()): the request dies with WordPress's critical-error 500, as here.
 */
function phpTypeError(fn: string): PhpFatalError {
  return new PhpFatalError(`${fn}(): Argument #1 must be of type string, array given`);
}

/** validate_setting_text_field(): trim(stripslashes()) then wp_kses_post() (here: script/style elements removed). */
function textValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') throw phpTypeError('stripslashes');
  const s = String(typeof value === 'boolean' ? (value ? '1' : '') : value);
  return stripScriptStyle(s.replace(/\\(.)/g, '$1').trim(), true);
}

/** The WC_REST_Controller::validate_setting_*_field() the setting's type selects. */
export function validateSettingValue(
  value: unknown,
  setting: Pick<Setting, 'type' | 'options' | 'default'>,
): unknown {
  const options = setting.options ?? {};
  switch (setting.type) {
    case 'select':
    case 'radio': {
      const key = arrayKey(value);
      if (key === null) throw phpTypeError('array_key_exists');
      if (!Object.hasOwn(options, key)) throw invalidValue();
      return value;
    }
    case 'multiselect': {
      if (phpEmpty(value)) return [];
      if (!Array.isArray(value)) throw invalidValue();
      return value.filter((v) => {
        const key = arrayKey(v);
        return key !== null && Object.hasOwn(options, key);
      });
    }
    case 'checkbox': {
      // in_array( $value, array( 'yes', 'no' ) ) compares loosely: true matches 'yes'.
      if (value === 'yes' || value === 'no' || value === true) return value;
      if (phpEmpty(value)) return setting.default ?? 'no';
      throw invalidValue();
    }
    default:
      return textValue(value);
  }
}

/** WC_Admin_Settings::save_fields() for one field: what update_option() stores. */
function savedValue(value: unknown, setting: Setting): unknown {
  switch (setting.type) {
    case 'checkbox':
      return value === '1' || value === 'yes' ? 'yes' : 'no';
    case 'multiselect':
      return (Array.isArray(value) ? value : [value]).map((v) => textValue(v)).filter((v) => !phpEmpty(v));
    case 'select': {
      const allowed = Object.keys(setting.options ?? {});
      if (phpEmpty(setting.default) && allowed.length === 0) return null;
      const fallback = phpEmpty(setting.default) ? allowed[0] : setting.default;
      return typeof value === 'string' && allowed.includes(value) ? value : fallback;
    }
    default:
      return typeof value === 'string' ? value : textValue(value);
  }
}

/** WC_REST_Setting_Options_V2_Controller::update_item(): validate, save, and answer with the validated value. */
export function updateSetting(
  store: Store,
  groupId: unknown,
  id: unknown,
  value: unknown,
): Setting & { group_id: string } {
  const setting = findSetting(store, groupId, id);
  const validated = validateSettingValue(value, setting);
  const saved = savedValue(validated, setting);
  if (saved !== null) setOption(store, setting.id, saved);
  return { ...setting, value: validated };
}
