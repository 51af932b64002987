import { randomAlnum } from '../data/keys.js';
import type { WebhookRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';

export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'];

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

function validUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function invalidUrl(): RestError {
  return new RestError(
    400,
    'woocommerce_rest_webhook_invalid_delivery_url',
    'Webhook delivery URL must be a valid URL starting with http:// or https://.',
  );
}

/** A new webhook from a validated body; an active one is pinged at its delivery URL (WC_Webhook::deliver_ping()). */
export function createWebhook(store: Store, p: Record<string, unknown>): WebhookRec {
  const topic = (p.topic as string).trim();
  if (!isValidTopic(topic)) {
    throw new RestError(
      400,
      'woocommerce_rest_webhook_invalid_topic',
      'Webhook topic is required and must be valid.',
    );
  }
  const url = (p.delivery_url as string).trim();
  if (!validUrl(url)) throw invalidUrl();
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
  store.changed('webhooks', id);
  if (w.status === 'active') store.deliverer.ping(id, w.delivery_url);
  return w;
}

/** Re-activating a webhook clears its failure count (WC_Webhook::set_status()). */
export function updateWebhook(store: Store, existing: WebhookRec, p: Record<string, unknown>): WebhookRec {
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
    if (!validUrl(p.delivery_url)) throw invalidUrl();
    w.delivery_url = p.delivery_url;
  }
  // WC_Webhook::set_status() sets the status alone: a webhook set back to active keeps its failure count
  // (only a delivery answered 2xx-302 zeroes it, in log_delivery()), so on a real store the next failure
  // disables it again at once (includes/class-wc-webhook.php).
  if (typeof p.status === 'string') w.status = p.status;
  w.modified = store.now();
  store.state.webhooks.set(w.id, w);
  store.changed('webhooks', w.id);
  return w;
}

export function deleteWebhook(store: Store, w: WebhookRec): void {
  store.state.webhooks.delete(w.id);
  store.changed('webhooks', w.id);
}
