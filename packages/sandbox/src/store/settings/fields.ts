import type { Store } from '../data/store.js';

/**
 * One admin-settings field as the settings REST API registers it: WC_Register_WP_Admin_Settings::register_setting()
 * keeps `id`, `label` (the field's `title`, '' without one), `description` (`desc`, else `description`), `type`,
 * `default` and `options` when set, and `tip` (the description when `desc_tip` is true, else a non-empty
 * `desc_tip` string). Anything else a field carries (css, class, placeholder, checkboxgroup) is dropped.
 */
export interface SettingDef {
  id: string;
  label: string;
  description: string;
  /** The admin field type: text, number, textarea, select, radio, checkbox, single_select_country, ... */
  type: string;
  default?: unknown;
  /** Fixed options, or options computed from the store when the group is read (tax classes, pages). */
  options?: Record<string, string> | ((store: Store) => Record<string, string>);
  tip?: string;
}

/** The settings array entry of a WC_Settings_* page, with WooCommerce's own keys. */
export interface AdminField {
  id: string;
  type: string;
  title?: string;
  desc?: string;
  desc_tip?: boolean | string;
  default?: unknown;
  options?: SettingDef['options'];
}

/** WC_Register_WP_Admin_Settings::register_setting(). */
export function registerSetting(f: AdminField): SettingDef {
  const description = f.desc ?? '';
  const def: SettingDef = { id: f.id, label: f.title ?? '', description, type: f.type };
  if (f.default !== undefined) def.default = f.default;
  if (f.options !== undefined) def.options = f.options;
  if (f.desc_tip === true) def.tip = description;
  else if (typeof f.desc_tip === 'string' && f.desc_tip !== '') def.tip = f.desc_tip;
  return def;
}

/** A section's opening `title` row and closing `sectionend` row (registered, but never served). */
export function section(id: string, title: string, desc = ''): { open: AdminField; close: AdminField } {
  return { open: { id, type: 'title', title, desc }, close: { id, type: 'sectionend' } };
}
