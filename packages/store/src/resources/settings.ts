import { type APIPromise, type BaseClient, BatchError, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  type Setting,
  type SettingAnyGroupBatchItem,
  type SettingBatchError,
  type SettingBatchItem,
  type SettingGroup,
  type SettingUpdateInput,
  setting,
  settingAnyGroupBatchItem,
  settingBatchError,
  settingBatchItem,
  settingBatchResponse,
  settingGroup,
  settingSlug,
  settingUpdateInput,
} from '../schemas/settings.js';
import { checkInput, checkItem } from '../schemas/validate.js';
import type { StoreContext } from './collection.js';

export interface SettingsBatchFailure {
  action: 'update';
  /** Position of the item in the array you passed. */
  index: number;
  id: string | number | null;
  error: SettingBatchError['error'];
}

export interface SettingsBatchResult {
  update: Array<Setting | SettingBatchError>;
  failures: SettingsBatchFailure[];
}

export interface SettingsBatchOptions extends RequestOptions {
  /** Default true: a batch with any failed item throws `BatchError` (holding every result). */
  throwOnItemError?: boolean;
}

/** The store's settings: groups (`/settings`) and their options (`/settings/{group_id}[/{id}]`). */
export class Settings {
  readonly #client: BaseClient;
  readonly #allowUnknown: boolean;

  constructor(context: StoreContext) {
    this.#client = context.client;
    this.#allowUnknown = context.allowUnknownFields;
  }

  /** Every settings group the store registers (one response, not paged). */
  listGroups(options?: RequestOptions): APIPromise<SettingGroup[]> {
    return this.#client.request({
      method: 'GET',
      path: '/settings',
      schema: z.array(settingGroup),
      what: 'settings.listGroups',
      options,
    });
  }

  /** The options of one group, each with its current `value` (one response, not paged). */
  list(groupId: string, options?: RequestOptions): APIPromise<Setting[]> {
    return this.#client.request(() => ({
      method: 'GET' as const,
      path: `/settings/${slug(groupId, 'groupId')}`,
      schema: z.array(setting),
      what: 'settings.list',
      options,
    }));
  }

  /** One option, e.g. `get('general', 'woocommerce_currency')`. */
  get(groupId: string, id: string, options?: RequestOptions): APIPromise<Setting> {
    return this.#client.request(() => ({
      method: 'GET' as const,
      path: `/settings/${slug(groupId, 'groupId')}/${slug(id, 'id')}`,
      schema: setting,
      what: 'settings.get',
      options,
    }));
  }

  /** Sets one option; a value the setting does not accept is a 400 `rest_setting_value_invalid`. */
  update(
    groupId: string,
    id: string,
    input: SettingUpdateInput,
    options?: RequestOptions,
  ): APIPromise<Setting> {
    return this.#client.request(() => ({
      method: 'PUT' as const,
      path: `/settings/${slug(groupId, 'groupId')}/${slug(id, 'id')}`,
      body: checkInput(settingUpdateInput, input, 'settings.update input', this.#allowUnknown),
      schema: setting,
      what: 'settings.update',
      options,
    }));
  }

  /** Sets several options of one group in one request; each item is `{ id, value }`. */
  batch(
    groupId: string,
    input: { update: SettingBatchItem[] },
    options?: SettingsBatchOptions,
  ): Promise<SettingsBatchResult> {
    return this.#batch(
      () => `/settings/${slug(groupId, 'groupId')}/batch`,
      settingBatchItem,
      input?.update,
      options,
    );
  }

  /** Sets options of any groups in one request (`/settings/batch`); each item names its `group_id`. */
  batchAcrossGroups(
    input: { update: SettingAnyGroupBatchItem[] },
    options?: SettingsBatchOptions,
  ): Promise<SettingsBatchResult> {
    return this.#batch(() => '/settings/batch', settingAnyGroupBatchItem, input?.update, options);
  }

  async #batch(
    path: () => string,
    itemSchema: z.ZodMiniType,
    items: unknown,
    options: SettingsBatchOptions | undefined,
  ): Promise<SettingsBatchResult> {
    const { throwOnItemError = true, ...requestOptions } = options ?? {};
    const update = parseInput(z.array(z.unknown()), items, 'settings.batch update');
    const checked = update.map((item, index) =>
      checkInput(itemSchema, item, `settings.batch update[${index}]`, this.#allowUnknown),
    );
    const { data, requestId } = await this.#client
      .request({
        method: 'POST',
        path: path(),
        body: { update: checked },
        schema: settingBatchResponse,
        what: 'settings.batch',
        options: requestOptions,
      })
      .withResponse();
    const result: SettingsBatchResult = { update: [], failures: [] };
    (data.update ?? []).forEach((raw, index) => {
      const failed = isFailure(raw) ? settingBatchError.safeParse(raw) : undefined;
      if (failed?.success) {
        result.update[index] = failed.data;
        result.failures.push({ action: 'update', index, id: failed.data.id, error: failed.data.error });
      } else {
        result.update[index] = checkItem(setting, raw, () => `settings.batch update[${index}]`, requestId);
      }
    });
    if (throwOnItemError && result.failures.length > 0) {
      throw new BatchError(
        `${result.failures.length} of ${checked.length} settings batch items failed: ${result.failures
          .slice(0, 3)
          .map((f) => `update[${f.index}] ${f.error.code}: ${f.error.message}`)
          .join('; ')}${result.failures.length > 3 ? '; ...' : ''}`,
        result.failures,
        result,
      );
    }
    return result;
  }
}

function slug(value: unknown, field: string): string {
  return parseInput(z.object({ [field]: settingSlug }), { [field]: value }, field)[field] as string;
}

function isFailure(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'error' in raw;
}
