import { RestError } from '../runtime/errors.js';
import { isPlainObject } from '../runtime/values.js';
import { validateParams } from './params.js';
import { reportCrash } from './respond.js';
import { type Ctx, type Handler, type Result, requireCap } from './router.js';

export interface BatchOps {
  create: Handler;
  update: Handler;
  delete: Handler;
}

function itemError(
  id: number,
  err: unknown,
  what: string,
): { id: number; error: { code: string; message: string; data: unknown } } {
  if (err instanceof RestError) return { id, error: err.toBatchError() };
  reportCrash(err, what);
  return {
    id,
    error: {
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
      data: { status: 500 },
    },
  };
}

async function run(h: Handler, ctx: Ctx): Promise<{ ok: true; body: unknown } | { ok: false; err: unknown }> {
  try {
    const r: Result = await h(ctx);
    return { ok: true, body: r.body };
  } catch (err) {
    return { ok: false, err };
  }
}

/** WC_REST_Controller::check_batch_limit(): more items than the batch limit is a 413. */
export function checkBatchLimit(ctx: Ctx, items: number): void {
  const limit = ctx.store.options.batchLimit;
  if (items > limit) {
    throw new RestError(
      413,
      'woocommerce_rest_request_entity_too_large',
      `Unable to accept more than ${limit} items for this request.`,
    );
  }
}

/**
 * WC_REST_Controller::batch_items(): `{create, update, delete}` run item by item through the single-item
 * handlers; the total is capped (413); failures are per item with `200`; deletes are always forced.
 */
export function batchHandler(ops: BatchOps): Handler {
  return async (ctx) => {
    const p = validateParams(ctx.params, {
      create: { type: 'array', items: { type: 'object' } },
      update: { type: 'array', items: { type: 'object' } },
      delete: { type: 'array', items: { type: 'integer' } },
    });
    requireCap(ctx, 'batch');
    const create = (Array.isArray(p.create) ? p.create : []) as Record<string, unknown>[];
    const update = (Array.isArray(p.update) ? p.update : []) as Record<string, unknown>[];
    const del = (Array.isArray(p.delete) ? p.delete : []) as number[];
    checkBatchLimit(ctx, create.length + update.length + del.length);
    const out: Record<string, unknown[]> = {};
    const sub = (params: Record<string, unknown>, urlParams: Record<string, string>): Ctx => ({
      ...ctx,
      params: { ...ctx.urlParams, ...params },
      body: params,
      query: {},
      urlParams: { ...ctx.urlParams, ...urlParams },
    });
    if (create.length > 0) {
      out.create = [];
      for (const item of create) {
        const r = await run(ops.create, sub(isPlainObject(item) ? item : {}, {}));
        out.create.push(r.ok ? r.body : itemError(0, r.err, `${ctx.method} ${ctx.route} create`));
      }
    }
    if (update.length > 0) {
      out.update = [];
      for (const item of update) {
        const rawId = isPlainObject(item) ? item.id : undefined;
        // Only a number or a string is an id: Number() of a JSON object calls its own `toString` key, if any.
        const id =
          typeof rawId === 'number' || typeof rawId === 'string' ? Math.abs(Math.trunc(Number(rawId))) : 0;
        if (!id || !Number.isSafeInteger(id)) {
          out.update.push({
            id: 0,
            error: { code: 'woocommerce_rest_invalid_id', message: 'Invalid ID.', data: { status: 400 } },
          });
          continue;
        }
        const r = await run(ops.update, sub(item, { id: String(id) }));
        out.update.push(r.ok ? r.body : itemError(id, r.err, `${ctx.method} ${ctx.route} update ${id}`));
      }
    }
    if (del.length > 0) {
      out.delete = [];
      for (const raw of del) {
        const id = Math.trunc(raw);
        if (id === 0) continue;
        const r = await run(ops.delete, sub({ id, force: true }, { id: String(id) }));
        out.delete.push(r.ok ? r.body : itemError(id, r.err, `${ctx.method} ${ctx.route} delete ${id}`));
      }
    }
    return { status: 200, body: out };
  };
}
