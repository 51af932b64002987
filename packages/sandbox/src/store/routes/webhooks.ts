import { nextId, type WebhookRec } from '../model/state.js';
import type { Store } from '../model/store.js';
import { randomAlnum, wcDate } from '../model/util.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { CONTEXT, collectionSpecs, type Specs, validateParams } from '../wp/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../wp/router.js';

const STATUSES = ['active', 'paused', 'disabled'];
const RESOURCES = ['coupon', 'customer', 'order', 'product'];
const EVENTS = ['created', 'updated', 'deleted', 'restored'];

/** wc_is_webhook_valid_topic(): `resource.event` (restored only for coupon/order/product), or `action.<hook>`. */
export function isValidTopic(topic: string): boolean {
  if (topic.startsWith('action.')) return topic.length > 7;
  const [resource, event, extra] = topic.split('.');
  if (extra !== undefined || !resource || !event) return false;
  if (!RESOURCES.includes(resource) || !EVENTS.includes(event)) return false;
  return !(resource === 'customer' && event === 'restored');
}

function specs(): Specs {
  return {
    name: { type: 'string' },
    status: { type: 'string', enum: STATUSES },
    topic: { type: 'string' },
    delivery_url: { type: 'string' },
    secret: { type: 'string' },
  };
}

export function presentWebhook(store: Store, w: WebhookRec): Record<string, unknown> {
  const [resource, event] = w.topic.split('.');
  return {
    id: w.id,
    name: w.name,
    status: w.status,
    topic: w.topic,
    resource: resource ?? '',
    event: event ?? '',
    hooks: [],
    delivery_url: w.delivery_url,
    date_created: wcDate(w.created),
    date_created_gmt: wcDate(w.created),
    date_modified: wcDate(w.modified),
    date_modified_gmt: wcDate(w.modified),
    _links: {
      self: [{ href: store.restUrl(`/webhooks/${w.id}`) }],
      collection: [{ href: store.restUrl('/webhooks') }],
    },
  };
}

function validUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function notFound(status: number): RestError {
  return new RestError(status, 'woocommerce_rest_shop_webhook_invalid_id', 'Invalid ID.');
}

function list(ctx: Ctx): Result {
  const p = validateParams(ctx.params, {
    ...collectionSpecs(['date', 'id', 'title']),
    status: { type: 'string', enum: ['all', ...STATUSES] },
  });
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
  const p = validateParams(ctx.params, {
    ...specs(),
    topic: { type: 'string', required: true },
    delivery_url: { type: 'string', required: true },
  });
  requireCap(ctx, 'create');
  const store = ctx.store;
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(400, 'woocommerce_rest_shop_webhook_exists', 'Cannot create existing shop_webhook.');
  }
  const topic = (p.topic as string).trim();
  if (!isValidTopic(topic)) {
    throw new RestError(
      400,
      'woocommerce_rest_webhook_invalid_topic',
      'Webhook topic is required and must be valid.',
    );
  }
  const url = (p.delivery_url as string).trim();
  if (!validUrl(url)) {
    throw new RestError(
      400,
      'woocommerce_rest_webhook_invalid_delivery_url',
      'Webhook delivery URL must be a valid URL starting with http:// or https://.',
    );
  }
  const now = store.now();
  const id = nextId(store.state, 'webhook');
  const w: WebhookRec = {
    id,
    name:
      typeof p.name === 'string' && p.name !== ''
        ? p.name
        : `Webhook created on ${new Date(now).toUTCString().replace(/ GMT$/, '')}`,
    status: typeof p.status === 'string' ? p.status : 'active',
    topic,
    delivery_url: url,
    secret: typeof p.secret === 'string' && p.secret !== '' ? p.secret : randomAlnum(50),
    api_version: 'wp_api_v3',
    created: now,
    modified: now,
    failure_count: 0,
  };
  store.state.webhooks.set(id, w);
  store.changed();
  if (w.status === 'active') store.deliverer.ping(id, w.delivery_url);
  return {
    status: 201,
    body: presentWebhook(store, w),
    headers: { Location: store.restUrl(`/webhooks/${id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, { context: CONTEXT });
  requireCap(ctx, 'view');
  const w = ctx.store.state.webhooks.get(idParam(ctx));
  if (!w) throw notFound(404);
  return { status: 200, body: presentWebhook(ctx.store, w) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, specs());
  requireCap(ctx, 'edit');
  const store = ctx.store;
  const existing = store.state.webhooks.get(idParam(ctx));
  if (!existing) throw notFound(400);
  const w = { ...existing };
  if (typeof p.name === 'string') w.name = p.name;
  if (typeof p.secret === 'string') w.secret = p.secret;
  if (typeof p.topic === 'string') {
    if (!isValidTopic(p.topic)) {
      throw new RestError(400, 'woocommerce_rest_webhook_invalid_topic', 'Webhook topic must be valid.');
    }
    w.topic = p.topic;
  }
  if (typeof p.delivery_url === 'string') {
    if (!validUrl(p.delivery_url)) {
      throw new RestError(
        400,
        'woocommerce_rest_webhook_invalid_delivery_url',
        'Webhook delivery URL must be a valid URL starting with http:// or https://.',
      );
    }
    w.delivery_url = p.delivery_url;
  }
  if (typeof p.status === 'string') {
    if (p.status === 'active' && w.status !== 'active') w.failure_count = 0;
    w.status = p.status;
  }
  w.modified = store.now();
  store.state.webhooks.set(w.id, w);
  store.changed();
  return { status: 200, body: presentWebhook(store, w) };
}

function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  requireCap(ctx, 'delete');
  const store = ctx.store;
  if (p.force !== true) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
  }
  const w = store.state.webhooks.get(idParam(ctx));
  if (!w) throw notFound(404);
  const body = presentWebhook(store, w);
  store.state.webhooks.delete(w.id);
  store.changed();
  return { status: 200, body };
}

export function registerWebhooks(router: Router): void {
  registerCrud(router, '/wc/v3/webhooks', { list, create, get, update, delete: remove });
}
