import type { Store } from '../data/store.js';
import { presentGroup, presentSetting } from '../present/settings.js';
import { checkBatchLimit } from '../rest/batch.js';
import { type Ctx, EDITABLE, READABLE, type Result, type Router } from '../rest/router.js';
import { forbidden, RestError } from '../runtime/errors.js';
import { isPlainObject } from '../runtime/values.js';
import {
  findSetting,
  isServedType,
  requireGroup,
  SETTING_GROUPS,
  SettingError,
  updateSetting,
} from '../settings/settings.js';

/**
 * /settings, /settings/batch (WC_REST_Settings_Controller, Version3) and /settings/{group_id}[/{id}][/batch]
 * (WC_REST_Setting_Options_Controller, Version3, over WC_REST_Setting_Options_V2_Controller).
 */

const GROUP = '(?P<group_id>[\\w-]+)';

/** get_items_permissions_check(): reads need the settings read capability. */
function canRead(ctx: Ctx): void {
  if (!ctx.key) throw forbidden(false, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
}

/** update_items_permissions_check(): note the message differs from the CRUD controllers' "not allowed to edit". */
function canEdit(ctx: Ctx): void {
  if (!ctx.key)
    throw forbidden(false, 'woocommerce_rest_cannot_edit', 'Sorry, you cannot edit this resource.');
}

function rest(err: unknown): unknown {
  return err instanceof SettingError ? new RestError(err.status, err.code, err.message) : err;
}

function run<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw rest(err);
  }
}

function groups(ctx: Ctx): Result {
  canRead(ctx);
  return { status: 200, body: SETTING_GROUPS.map((g) => presentGroup(ctx.store, g, SETTING_GROUPS)) };
}

function options(ctx: Ctx): Result {
  canRead(ctx);
  const groupId = ctx.urlParams.group_id ?? '';
  const settings = run(() => requireGroup(ctx.store, groupId));
  // get_items() serves only the API's setting types (section titles and ends are registered, never listed).
  const body = settings.filter((s) => isServedType(s.type)).map((s) => presentSetting(ctx.store, groupId, s));
  return { status: 200, body };
}

function get(ctx: Ctx): Result {
  canRead(ctx);
  const groupId = ctx.urlParams.group_id ?? '';
  const setting = run(() => findSetting(ctx.store, groupId, ctx.urlParams.id ?? ''));
  return { status: 200, body: presentSetting(ctx.store, groupId, setting) };
}

function update(ctx: Ctx): Result {
  canEdit(ctx);
  const groupId = ctx.urlParams.group_id ?? '';
  const setting = run(() => updateSetting(ctx.store, groupId, ctx.urlParams.id ?? '', ctx.params.value));
  return { status: 200, body: presentSetting(ctx.store, groupId, setting) };
}

type Item = Record<string, unknown>;

function list(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) return Object.values(v);
  return [];
}

/**
 * WC_REST_Controller::batch_items() with update_item() per `update` entry (each item names its group_id and id;
 * the group batch merges the URL's group_id under each item). Failures are per item with the item's `id`.
 * Create and delete are not implemented by the settings controllers: WP_REST_Controller answers
 * `invalid-method` (405) for each; the group batch drops them whenever `update` is present.
 */
function batch(groupFromUrl: boolean) {
  return (ctx: Ctx): Result => {
    canEdit(ctx);
    const p = ctx.params;
    const update = list(p.update);
    const create = list(p.create);
    const del = list(p.delete);
    checkBatchLimit(ctx, create.length + update.length + del.length);
    const out: Record<string, unknown[]> = {};
    const controller = groupFromUrl ? 'WC_REST_Setting_Options_Controller' : 'WC_REST_Settings_Controller';
    const notImplemented = (method: string, id: unknown) => ({
      id,
      error: {
        code: 'invalid-method',
        message: `Method '${controller}::${method}' not implemented. Must be overridden in subclass.`,
        data: { status: 405 },
      },
    });
    const dropOthers = groupFromUrl && update.length > 0;
    if (create.length > 0 && !dropOthers) out.create = create.map(() => notImplemented('create_item', 0));
    if (update.length > 0) {
      out.update = update.map((raw) => {
        const item: Item = isPlainObject(raw) ? raw : {};
        const merged: Item = groupFromUrl ? { group_id: ctx.urlParams.group_id, ...item } : item;
        const groupId = String(merged.group_id ?? '');
        try {
          const s = updateSetting(ctx.store, merged.group_id ?? '', merged.id ?? '', merged.value);
          return presentSetting(ctx.store, groupId, s);
        } catch (err) {
          if (!(err instanceof SettingError)) throw err;
          return {
            id: merged.id ?? null,
            error: { code: err.code, message: err.message, data: { status: err.status } },
          };
        }
      });
    }
    if (del.length > 0 && !dropOthers) {
      // PHP's (int) $id: an array (a JSON object or list) is 1 when it has elements, else 0; Number() of an
      // object would call its own `toString` key and throw.
      const asInt = (d: unknown) =>
        d !== null && typeof d === 'object' ? Math.min(Object.keys(d).length, 1) : Math.trunc(Number(d)) || 0;
      const ids = del.map(asInt).filter((d) => d !== 0);
      if (ids.length > 0) out.delete = ids.map((id) => notImplemented('delete_item', id));
    }
    return { status: 200, body: out };
  };
}

export function registerSettings(router: Router, _store: Store): void {
  router.add('/wc/v3/settings', READABLE, groups);
  router.add('/wc/v3/settings/batch', EDITABLE, batch(false));
  router.add(`/wc/v3/settings/${GROUP}`, READABLE, options);
  router.add(`/wc/v3/settings/${GROUP}/batch`, EDITABLE, batch(true));
  router.add(`/wc/v3/settings/${GROUP}/(?P<id>[\\w-]+)`, READABLE, get);
  router.add(`/wc/v3/settings/${GROUP}/(?P<id>[\\w-]+)`, EDITABLE, update);
}
