import {
  type BaseClient,
  BatchError,
  type PagePromise,
  pageNumberStrategy,
  parseInput,
  type RequestOptions,
  type RequestSpec,
  ResponseValidationError,
  toIssues,
} from '@x/core';
import * as z from 'zod/mini';
import { type BatchItemError, batchItemError, deleteParams } from '../schemas/common.js';

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

export interface Schemas<
  T extends z.ZodMiniType,
  C extends z.ZodMiniType,
  U extends z.ZodMiniType,
  L extends z.ZodMiniType,
> {
  item: T;
  create: C;
  update: U;
  list: L;
  /** Name used in errors, e.g. `products`. */
  name: string;
  /** Products and orders go to the trash unless forced; everything else can only be deleted for good. */
  trashable: boolean;
}

const pages = pageNumberStrategy<never>({ totalHeader: 'x-wp-total', totalPagesHeader: 'x-wp-totalpages' });
const resourceId = z.number().check(z.int(), z.positive());
const batchItems = z.array(z.unknown());
const batchResponse = z.looseObject({
  create: z.optional(batchItems),
  update: z.optional(batchItems),
  delete: z.optional(batchItems),
});

export function checkId(value: unknown, field = 'id'): number {
  return parseInput(z.object({ [field]: resourceId }), { [field]: value }, `${field}`)[field] as number;
}

/** The CRUD + list + batch surface every WooCommerce collection shares, over one base path. */
export class Collection<
  T extends z.ZodMiniType,
  C extends z.ZodMiniType,
  U extends z.ZodMiniType,
  L extends z.ZodMiniType,
> {
  constructor(
    private readonly client: BaseClient,
    /** A function for nested collections, so a bad parent id rejects the call instead of throwing. */
    private readonly base: string | (() => string),
    private readonly schemas: Schemas<T, C, U, L>,
  ) {}

  private get path(): string {
    return typeof this.base === 'string' ? this.base : this.base();
  }

  create(input: z.input<C>, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'POST' as const,
      path: this.path,
      body: parseInput(this.schemas.create, input, `${this.schemas.name}.create input`),
      schema: this.schemas.item,
      what: `${this.schemas.name}.create`,
      options,
    }));
  }

  get(
    id: number,
    params?: { context?: 'view' | 'edit'; _fields?: string[] } & Record<string, unknown>,
    options?: RequestOptions,
  ) {
    return this.client.request(() => ({
      method: 'GET' as const,
      path: `${this.path}/${checkId(id)}`,
      query: params as RequestSpec['query'],
      schema: this.#itemSchema(params),
      what: `${this.schemas.name}.get`,
      options,
    }));
  }

  update(id: number, input: z.input<U>, options?: RequestOptions) {
    return this.client.request(() => ({
      method: 'PUT' as const,
      path: `${this.path}/${checkId(id)}`,
      body: parseInput(this.schemas.update, input, `${this.schemas.name}.update input`),
      schema: this.schemas.item,
      what: `${this.schemas.name}.update`,
      options,
    }));
  }

  delete(id: number, params?: { force?: boolean } & Record<string, unknown>, options?: RequestOptions) {
    return this.client.request(() => {
      const query = parseInput(deleteParams, params ?? {}, `${this.schemas.name}.delete params`);
      if (!this.schemas.trashable) query.force = true;
      return {
        method: 'DELETE' as const,
        path: `${this.path}/${checkId(id)}`,
        query: query as RequestSpec['query'],
        schema: this.schemas.item,
        what: `${this.schemas.name}.delete`,
        options,
      };
    });
  }

  list(params?: z.input<L>, options?: ListOptions): PagePromise<z.infer<T>> {
    const { concurrency, ...requestOptions } = options ?? {};
    return this.client.list<z.infer<T>>(
      () => {
        const query = parseInput(
          this.schemas.list,
          params ?? {},
          `${this.schemas.name}.list params`,
        ) as Record<string, unknown>;
        return {
          method: 'GET',
          path: this.path,
          query: query as RequestSpec['query'],
          schema: z.array(this.#itemSchema(query)),
          what: `${this.schemas.name}.list`,
          options: requestOptions,
        };
      },
      pages as never,
      { concurrency: concurrency ?? 1 },
    );
  }

  /**
   * Creates, updates and deletes in as many requests as the 100-item limit needs, results merged back in
   * the order given. WooCommerce answers 200 even when items fail; those items are reported one by one.
   */
  async batch(
    input: BatchInput<z.input<C>, z.input<U>>,
    options?: BatchOptions,
  ): Promise<BatchResult<z.infer<T>>> {
    const { chunkSize = 100, concurrency = 1, throwOnItemError = true, ...requestOptions } = options ?? {};
    const name = this.schemas.name;
    const operations: Array<{ action: 'create' | 'update' | 'delete'; index: number; payload: unknown }> = [];
    (input.create ?? []).forEach((item, index) => {
      operations.push({
        action: 'create',
        index,
        payload: parseInput(this.schemas.create, item, `${name}.batch create[${index}]`),
      });
    });
    (input.update ?? []).forEach((item, index) => {
      const payload = parseInput(this.schemas.update, item, `${name}.batch update[${index}]`) as Record<
        string,
        unknown
      >;
      operations.push({
        action: 'update',
        index,
        payload: { ...payload, id: checkId((item as { id: unknown }).id, `update[${index}].id`) },
      });
    });
    (input.delete ?? []).forEach((id, index) => {
      operations.push({ action: 'delete', index, payload: checkId(id, `delete[${index}]`) });
    });

    const result: BatchResult<z.infer<T>> = { create: [], update: [], delete: [], failures: [] };
    const chunks: (typeof operations)[] = [];
    for (let i = 0; i < operations.length; i += chunkSize) chunks.push(operations.slice(i, i + chunkSize));

    const runChunk = async (chunk: typeof operations) => {
      const body: Record<string, unknown[]> = {};
      for (const op of chunk) {
        body[op.action] ??= [];
        body[op.action]!.push(op.payload);
      }
      const { data: response, requestId } = await this.client
        .request({
          method: 'POST',
          path: `${this.path}/batch`,
          body,
          schema: batchResponse,
          what: `${name}.batch`,
          options: requestOptions,
        })
        .withResponse();
      const seen = { create: 0, update: 0, delete: 0 };
      for (const op of chunk) {
        const raw = response[op.action]?.[seen[op.action]++];
        const failed = batchItemError.safeParse(raw);
        if (failed.success) {
          result[op.action][op.index] = failed.data;
          result.failures.push({
            action: op.action,
            index: op.index,
            id: failed.data.id,
            error: failed.data.error,
          });
        } else {
          result[op.action][op.index] = parseItem(
            this.schemas.item,
            raw,
            `${name}.batch ${op.action}[${op.index}]`,
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
  #itemSchema(params: { _fields?: unknown } | undefined): T {
    return (params?._fields ? z.partial(this.schemas.item as never) : this.schemas.item) as T;
  }
}

function parseItem<S extends z.ZodMiniType>(
  schema: S,
  raw: unknown,
  what: string,
  requestId: string | undefined,
): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ResponseValidationError({
    issues: toIssues(parsed.error),
    status: 200,
    requestId,
    body: raw,
    what,
  });
}
