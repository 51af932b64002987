import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { links } from './common.js';

/** A route segment the store matches with `[\w-]+` (a group or setting id). */
export const settingSlug = z
  .string()
  .check(z.regex(/^[\w-]+$/, 'expected an id of letters, digits, "_" or "-" such as "woocommerce_currency"'));

const settingGroupShape = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  parent_id: z.string(),
  sub_groups: z.array(z.string()),
  _links: links,
});
/** A settings group (`general`, `products`, `tax`, `email_new_order`, ...); `sub_groups` name its children. */
export interface SettingGroup extends z.infer<typeof settingGroupShape> {}
export const settingGroup: z.ZodMiniType<SettingGroup> = settingGroupShape;

export const settingType = openEnum([
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

/** Select options: key → label (PHP sends a list when the keys are 0..n). */
const optionsShape = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

const settingShape = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  type: settingType,
  default: z.optional(z.unknown()),
  options: z.optional(optionsShape),
  tip: z.optional(z.string()),
  placeholder: z.optional(z.string()),
  /** Strings for most types ("yes"/"no" for checkboxes), a list for multiselects. */
  value: z.unknown(),
  /** Present on single settings (get, update, batch), absent from a group's list. */
  group_id: z.optional(z.string()),
  _links: links,
});
/** One store setting (a wp_options row behind an admin settings field). */
export interface Setting extends z.infer<typeof settingShape> {}
export const setting: z.ZodMiniType<Setting> = settingShape;

/** What a setting can be set to: the store checks it against the setting's type and options. */
export const settingValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string()),
  z.record(z.string(), z.unknown()),
]);

const settingUpdateShape = z.strictObject({ value: settingValue });
export interface SettingUpdateInput extends z.input<typeof settingUpdateShape> {}
export const settingUpdateInput: z.ZodMiniType<SettingUpdateInput, SettingUpdateInput> = settingUpdateShape;

const groupBatchItemShape = z.strictObject({ id: settingSlug, value: settingValue });
/** One item of a group batch: the setting `id` and its new `value`. */
export interface SettingBatchItem extends z.input<typeof groupBatchItemShape> {}
export const settingBatchItem: z.ZodMiniType<SettingBatchItem, SettingBatchItem> = groupBatchItemShape;

const anyGroupBatchItemShape = z.strictObject({
  group_id: settingSlug,
  id: settingSlug,
  value: settingValue,
});
/** One item of a cross-group batch (`/settings/batch`): the group too. */
export interface SettingAnyGroupBatchItem extends z.input<typeof anyGroupBatchItemShape> {}
export const settingAnyGroupBatchItem: z.ZodMiniType<SettingAnyGroupBatchItem, SettingAnyGroupBatchItem> =
  anyGroupBatchItemShape;

/** A failed batch item: settings ids are strings (`null` when the item named none). */
export const settingBatchError = z.looseObject({
  id: z.nullable(z.union([z.string(), z.number()])),
  error: z.looseObject({ code: z.string(), message: z.string(), data: z.optional(z.unknown()) }),
});
export interface SettingBatchError extends z.infer<typeof settingBatchError> {}

export const settingBatchResponse = z.looseObject({ update: z.optional(z.array(z.unknown())) });
