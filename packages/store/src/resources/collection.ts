import {
  type APIPromise,
  type BaseClient,
  BatchError,
  compileCheck,
  type PagePromise,
  type PageStrategy,
  pageNumberStrategy,
  parseInput,
  type RequestOptions,
  type RequestSpec,
} from '@x/core';
import * as z from 'zod/mini';
import { type BatchItemError, batchItemError, deleteParams } from '../schemas/common.js';
import { checkInput, checkItem } from '../schemas/validate.js';

/** What resources need of their client: its request loop, and how strictly inputs are checked. */
export interface StoreContext {
  client: BaseClient;
  /** Send input fields the schemas do not know (for fields a newer store has) instead of refusing them. */
  allowUnknownFields: boolean;
}

export interface ListOptions extends RequestOptions {
  /** Pages fetched at once after the first (still paced by the rate limiter). Default 1. */
  concurrency?: number;
}

export interface BatchInput<C, U> {
  create?: C[];
  update?: Array<U & { id: number }>;
  delete?: number[];
}

export interface BatchFailure {
  action: 'create' | 'update' | 'delete';
  /** Position of the item in the array you passed. */
  index: number;
  id: number;
  error: BatchItemError['error'];
}

export interface BatchResult<T> {
  create: Array<T | BatchItemError>;
  update: Array<T | BatchItemError>;
  delete: Array<T | BatchItemError>;
  failures: BatchFailure[];
}

export interface BatchOptions extends RequestOptions {
  /** Items per request; the store rejects more than 100 (`woocommerce_rest_batch_items_limit`). */
  chunkSize?: number;
  /** Chunks sent at once. Default 1: the store runs a batch's items one by one in one PHP request. */
  concurrency?: number;
  /** Default true: a batch with any failed item throws `BatchError` (holding every result). */
  throwOnItemError?: boolean;
}

/** Query of a single-item GET. */
export type GetParams = { context?: 'view' | 'edit'; _fields?: string[] } & Record<string, unknown>;
/** Query of a DELETE; `force` only matters for routes with a trash (products and orders). */
export type DeleteParams = { force?: boolean } & Record<string, unknown>;

/** What differs between two WooCommerce collection routes, apart from their path. */
export interface Schemas {
  item: z.ZodMiniType;
  create: z.ZodMiniType;
  /** Only where updates take other fields than creates (customers, webhooks); defaults to `create`. */
  update?: z.ZodMiniType;
  list: z.ZodMiniType;
  /** Name used in errors, e.g. `products`. */
  name: string;
  /** Products and orders go to the trash unless forced; everything else can only be deleted for good. */
  trashable: boolean;
}

type Item<S extends Schemas> = z.infer<S['item']>;
type CreateInput<S extends Schemas> = z.input<S['create']>;
type UpdateInput<S extends Schemas> = z.input<
  S extends { update: infer U extends z.ZodMiniType } ? U : S['create']
>;
type ListParams<S extends Schemas> = z.input<S['list']>;

const pages = pageNumberStrategy<never>({ totalHeader: 'x-wp-total', totalPagesHeader: 'x-wp-totalpages' });
/** Routes the store does not page (order notes): every item comes in one response, the only page. */
const onePage: PageStrategy<never> = {
  items: (body) => (Array.isArray(body) ? (body as never[]) : []),
  describe: (_spec, _response, _body, items) => ({
    total: items.length,
    totalPages: 1,
    pageNumber: 1,
    next: null,
  }),
};
const resourceId = z.number().check(z.int(), z.positive());
const batchItems = z.array(z.unknown());
const batchResponse = z.looseObject({
  create: z.optional(batchItems),
  update: z.optional(batchItems),
  delete: z.optional(batchItems),
});

export function checkId(value: unknown, field = 'id'): number {
  // The common case without building a schema per call (a batch checks a thousand ids).
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  return parseInput(z.object({ [field]: resourceId }), { [field]: value }, `${field}`)[field] as number;
}

/**
 * The CRUD + list + batch requests every WooCommerce collection route shares. Resource classes hold one
 * privately and list their public methods themselves, so `client.orders.update` is found in `orders.ts`.
 */
export class Collection<S extends Schemas> {
  readonly #client: BaseClient;
  readonly #allowUnknown: boolean;
  /** A function for nested collections, so a bad parent id rejects the call instead of throwing. */
  readonly #base: string | (() => string);
  readonly #schemas: S;

  constructor(context: StoreContext, base: string | (() => string), schemas: S) {
    this.#client = context.client;
    this.#allowUnknown = context.allowUnknownFields;
    this.#base = base;
    this.#schemas = schemas;
  }

  #input<T extends z.ZodMiniType>(schema: T, input: unknown, what: string | (() => string)): z.output<T> {
    const name = this.#schemas.name;
    const named = typeof what === 'string' ? `${name}.${what}` : () => `${name}.${what()}`;
    return checkInput(schema, input, named, this.#allowUnknown);
  }

  get #path(): string {
    return typeof this.#base === 'string' ? this.#base : this.#base();
  }

  get #item(): S['item'] {
    return this.#schemas.item;
  }

  get #update(): z.ZodMiniType {
    return this.#schemas.update ?? this.#schemas.create;
  }

  create(input: CreateInput<S>, options?: RequestOptions): APIPromise<Item<S>> {
    return this.#client.request(() => ({
      method: 'POST' as const,
      path: this.#path,
      body: this.#input(this.#schemas.create, input, 'create input'),
      schema: this.#item,
      what: `${this.#schemas.name}.create`,
      options,
    }));
  }

  get(id: number, params?: GetParams, options?: RequestOptions): APIPromise<Item<S>> {
    return this.#client.request(() => ({
      method: 'GET' as const,
      path: `${this.#path}/${checkId(id)}`,
      query: params as RequestSpec['query'],
      schema: this.#itemSchema(params),
      what: `${this.#schemas.name}.get`,
      options,
    }));
  }

  update(id: number, input: UpdateInput<S>, options?: RequestOptions): APIPromise<Item<S>> {
    return this.#client.request(() => ({
      method: 'PUT' as const,
      path: `${this.#path}/${checkId(id)}`,
      body: this.#input(this.#update, input, 'update input'),
      schema: this.#item,
      what: `${this.#schemas.name}.update`,
      options,
    }));
  }

  delete(id: number, params?: DeleteParams, options?: RequestOptions): APIPromise<Item<S>> {
    return this.#client.request(() => {
      const query = parseInput(deleteParams, params ?? {}, `${this.#schemas.name}.delete params`);
      if (!this.#schemas.trashable) query.force = true;
      return {
        method: 'DELETE' as const,
        path: `${this.#path}/${checkId(id)}`,
        query: query as RequestSpec['query'],
        schema: this.#item,
        what: `${this.#schemas.name}.delete`,
        options,
      };
    });
  }

  list(params?: ListParams<S>, options?: ListOptions): PagePromise<Item<S>> {
    const { concurrency, ...requestOptions } = options ?? {};
    return this.#client.list<Item<S>>(() => this.#listSpec(params, requestOptions), pages as never, {
      concurrency: concurrency ?? 1,
    });
  }

  /** For routes the store does not page (order notes): one request, every item, as a single page. */
  listOnePage(params?: ListParams<S>, options?: RequestOptions): PagePromise<Item<S>> {
    return this.#client.list<Item<S>>(() => this.#listSpec(params, options), onePage as never);
  }

  #listSpec(params: ListParams<S> | undefined, options: RequestOptions | undefined): RequestSpec {
    const query = this.#input(this.#schemas.list, params ?? {}, 'list params') as Record<string, unknown>;
    return {
      method: 'GET',
      path: this.#path,
      query: query as RequestSpec['query'],
      schema: z.array(this.#itemSchema(query)),
      what: `${this.#schemas.name}.list`,
      options,
    };
  }

  /**
   * Creates, updates and deletes in as many requests as the 100-item limit needs, results merged back in
   * the order given. WooCommerce answers 200 even when items fail; those items are reported one by one.
   */
  async batch(
    input: BatchInput<CreateInput<S>, UpdateInput<S>>,
    options?: BatchOptions,
  ): Promise<BatchResult<Item<S>>> {
    const { chunkSize = 100, concurrency = 1, throwOnItemError = true, ...requestOptions } = options ?? {};
    const name = this.#schemas.name;
    const operations: Array<{ action: 'create' | 'update' | 'delete'; index: number; payload: unknown }> = [];
    (input.create ?? []).forEach((item, index) => {
      operations.push({
        action: 'create',
        index,
        payload: this.#input(this.#schemas.create, item, () => `batch create[${index}]`),
      });
    });
    const updateWithId = compileCheck(withId(this.#update));
    (input.update ?? []).forEach((item, index) => {
      // The common case in one pass and without a copy: the item, `id` included, is the payload.
      if (updateWithId?.(item, this.#allowUnknown)) {
        operations.push({ action: 'update', index, payload: item });
        return;
      }
      // Otherwise `id` and the fields are checked apart, so the error names the one at fault.
      const { id, ...fields } = (item ?? {}) as { id?: unknown };
      const checked = this.#input(this.#update, fields, `batch update[${index}]`) as object;
      operations.push({
        action: 'update',
        index,
        payload: { ...checked, id: checkId(id, `update[${index}].id`) },
      });
    });
    (input.delete ?? []).forEach((id, index) => {
      operations.push({ action: 'delete', index, payload: checkId(id, `delete[${index}]`) });
    });

    const result: BatchResult<Item<S>> = { create: [], update: [], delete: [], failures: [] };
    const chunks: (typeof operations)[] = [];
    for (let i = 0; i < operations.length; i += chunkSize) chunks.push(operations.slice(i, i + chunkSize));

    const runChunk = async (chunk: typeof operations) => {
      const body: Record<string, unknown[]> = {};
      for (const op of chunk) {
        body[op.action] ??= [];
        body[op.action]!.push(op.payload);
      }
      const { data: response, requestId } = await this.#client
        .request({
          method: 'POST',
          path: `${this.#path}/batch`,
          body,
          schema: batchResponse,
          what: `${name}.batch`,
          options: requestOptions,
        })
        .withResponse();
      const seen = { create: 0, update: 0, delete: 0 };
      for (const op of chunk) {
        const raw = response[op.action]?.[seen[op.action]++];
        // Only an item with `error` can be a failure; zod's failed parse of every success costs an Error each.
        const failed = hasError(raw) ? batchItemError.safeParse(raw) : undefined;
        if (failed?.success) {
          result[op.action][op.index] = failed.data;
          result.failures.push({
            action: op.action,
            index: op.index,
            id: failed.data.id,
            error: failed.data.error,
          });
        } else {
          result[op.action][op.index] = checkItem(
            this.#item,
            raw,
            () => `${name}.batch ${op.action}[${op.index}]`,
            requestId,
          );
        }
      }
    };

    for (let i = 0; i < chunks.length; i += concurrency)
      await Promise.all(chunks.slice(i, i + concurrency).map(runChunk));
    result.failures.sort((a, b) => a.action.localeCompare(b.action) || a.index - b.index);
    if (throwOnItemError && result.failures.length > 0) {
      throw new BatchError(
        `${result.failures.length} of ${operations.length} ${name} batch items failed: ${result.failures
          .slice(0, 3)
          .map((f) => `${f.action}[${f.index}] ${f.error.code}: ${f.error.message}`)
          .join('; ')}${result.failures.length > 3 ? '; ...' : ''}`,
        result.failures,
        result,
      );
    }
    return result;
  }

  /** With `_fields` the store returns only those fields, so the full schema would reject every object. */
  #itemSchema(params: { _fields?: unknown } | undefined): S['item'] {
    return params?._fields ? z.partial(this.#item as never) : this.#item;
  }
}

const updatesWithId = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/** A batch update item: the update's fields plus the `id` of the object to change. */
function withId(update: z.ZodMiniType): z.ZodMiniType {
  let schema = updatesWithId.get(update);
  if (!schema) {
    schema = z.extend(update as z.ZodMiniObject, { id: resourceId });
    updatesWithId.set(update, schema);
  }
  return schema;
}

function hasError(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'error' in raw;
}
