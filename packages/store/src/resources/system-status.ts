import { type APIPromise, parseInput, type RequestOptions, type RequestSpec } from '@x/core';
import * as z from 'zod/mini';
import {
  type SystemStatusParams,
  type SystemStatus as SystemStatusReport,
  type SystemStatusTool,
  systemStatus,
  systemStatusParams,
  systemStatusTool,
  toolId,
} from '../schemas/system-status.js';
import { checkInput } from '../schemas/validate.js';
import type { StoreContext } from './collection.js';

function checkToolId(id: unknown): string {
  if (typeof id === 'string' && /^[\w-]+$/.test(id)) return id;
  return parseInput(z.object({ id: toolId }), { id }, 'id').id;
}

/** `/system_status`: the store's environment, settings, pages and counts, and its maintenance tools. */
export class SystemStatus {
  readonly #context: StoreContext;
  /** `/system_status/tools`: list the tools and run one. */
  readonly tools: SystemStatusTools;

  constructor(context: StoreContext) {
    this.#context = context;
    this.tools = new SystemStatusTools(context);
  }

  /** The whole report, or with `_fields` only those sections (the store computes only those). */
  get(params?: SystemStatusParams, options?: RequestOptions): APIPromise<SystemStatusReport> {
    return this.#context.client.request(() => {
      const query = checkInput(
        systemStatusParams,
        params ?? {},
        'systemStatus.get params',
        this.#context.allowUnknownFields,
      ) as Record<string, unknown>;
      const fields = query._fields as string[] | undefined;
      return {
        method: 'GET' as const,
        path: '/system_status',
        query: (fields ? { ...query, _fields: fields.join(',') } : query) as RequestSpec['query'],
        // With `_fields` only the named parts of each section come back; the full schema would refuse them.
        schema: fields ? (z.looseObject({}) as unknown as typeof systemStatus) : systemStatus,
        what: 'systemStatus.get',
        options,
      };
    });
  }
}

/** `/system_status/tools`. */
export class SystemStatusTools {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** Every tool the store offers, in one response. */
  list(options?: RequestOptions): APIPromise<SystemStatusTool[]> {
    return this.#context.client.request({
      method: 'GET',
      path: '/system_status/tools',
      schema: z.array(systemStatusTool),
      what: 'systemStatus.tools.list',
      options,
    });
  }

  /** One tool; an unknown id is `404 woocommerce_rest_system_status_tool_invalid_id`. */
  get(id: string, options?: RequestOptions): APIPromise<SystemStatusTool> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: `/system_status/tools/${checkToolId(id)}`,
      schema: systemStatusTool,
      what: 'systemStatus.tools.get',
      options,
    }));
  }

  /**
   * Runs the tool (PUT with `confirm: true`, as WooCommerce's docs show); the answer carries `success` and
   * `message`. Some tools cannot be undone (`delete_taxes`).
   */
  run(id: string, options?: RequestOptions): APIPromise<SystemStatusTool> {
    return this.#context.client.request(() => ({
      method: 'PUT' as const,
      path: `/system_status/tools/${checkToolId(id)}`,
      body: { confirm: true },
      schema: systemStatusTool,
      what: 'systemStatus.tools.run',
      options,
    }));
  }
}
