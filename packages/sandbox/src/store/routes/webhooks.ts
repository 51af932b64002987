import type { WebhookRec } from '../data/rows.js';
import { presentWebhook } from '../present/webhooks.js';
import { namesId, registerCrud } from '../rest/crud.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../rest/list.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { createWebhook, deleteWebhook, updateWebhook } from '../webhooks/webhooks.js';
import { FORCE, VIEW } from './params/common.js';
import { WEBHOOK_CREATE_SPECS, WEBHOOK_LIST_SPECS, WEBHOOK_SPECS, webhookArgs } from './params/webhooks.js';

function notFound(status: number): RestError {
  return new RestError(status, 'woocommerce_rest_shop_webhook_invalid_id', 'Invalid ID.');
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, WEBHOOK_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = filterIncludeExclude(filterDates([...store.state.webhooks.values()], p), p);
  const status = (p.status as string | undefined) ?? 'all';
  if (status !== 'all') items = items.filter((w) => w.status === status);
  if (typeof p.search === 'string' && p.search !== '')
    items = items.filter((w) => searchMatch(p.search, w.name));
  const keys: Record<string, (w: WebhookRec) => string | number> = {
    date: (w) => w.created,
    id: (w) => w.id,
    title: (w) => w.name,
  };
  items = sortByParams(items, p, keys, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, (w) => presentWebhook(store, w));
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, WEBHOOK_CREATE_SPECS);
  requireCap(ctx, 'create');
  if (namesId(ctx)) {
    throw new RestError(400, 'woocommerce_rest_shop_webhook_exists', 'Cannot create existing shop_webhook.');
  }
  const w = createWebhook(ctx.store, webhookArgs(p, true));
  return {
    status: 201,
    body: presentWebhook(ctx.store, w),
    headers: { Location: ctx.store.restUrl(`/webhooks/${w.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'view');
  const w = ctx.store.state.webhooks.get(idParam(ctx));
  if (!w) throw notFound(404);
  return { status: 200, body: presentWebhook(ctx.store, w) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, WEBHOOK_SPECS);
  requireCap(ctx, 'edit');
  const existing = ctx.store.state.webhooks.get(idParam(ctx));
  if (!existing) throw notFound(400);
  return {
    status: 200,
    body: presentWebhook(ctx.store, updateWebhook(ctx.store, existing, webhookArgs(p, false))),
  };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, FORCE);
  requireCap(ctx, 'delete');
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
  }
  const w = ctx.store.state.webhooks.get(idParam(ctx));
  if (!w) throw notFound(404);
  const body = presentWebhook(ctx.store, w);
  deleteWebhook(ctx.store, w);
  return { status: 200, body };
}

export function registerWebhooks(router: Router): void {
  registerCrud(router, '/wc/v3/webhooks', { list, create, get, update, delete: remove });
}
