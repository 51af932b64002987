import { type RequestOptions, ValidationError } from '@x/core';
import { type Customer, customer } from '../schemas/customers.js';
import { type Order, order } from '../schemas/orders.js';
import { type Product, product } from '../schemas/products.js';
import type { Webhook } from '../schemas/webhooks.js';
import type { SyncOptions } from '../sync/checkpoint.js';
import type { StoreContext } from './collection.js';
import { Sync, type SyncRun } from './sync.js';

/**
 * What `webhooks.health()` can see, and why no more. WooCommerce counts consecutive failed deliveries and,
 * on a failure when the count already exceeds `woocommerce_max_webhook_delivery_failures` (5), sets the
 * status to `disabled` instead of counting (plugins/woocommerce/includes/class-wc-webhook.php
 * failed_delivery(); a 2xx, 301 or 302 answer resets the count, log_delivery()). So the 7th consecutive
 * failure disables it. Nobody is told: the action `woocommerce_webhook_disabled_due_delivery_failures` runs,
 * no mail is sent.
 *
 * The REST API (v3's controller inherits v2's prepare_item_for_response(),
 * includes/rest-api/Controllers/Version2/class-wc-rest-webhooks-v2-controller.php) returns id, name, status,
 * topic, resource, event, hooks, delivery_url and the dates; not `failure_count`. So a webhook that is failing
 * but not yet disabled cannot be seen from outside. What can: `disabled` (by failures; `paused` is an admin's
 * choice) and `date_modified_gmt`, which every save stamps (includes/data-stores/class-wc-webhook-data-store.php
 * update()), and failed_delivery() saves: for a disabled webhook not edited since, it is when the disabling
 * failure happened. A store whose response adds `failure_count` (the `woocommerce_rest_prepare_webhook`
 * filter) gets it read, and webhooks with a count above zero listed as failing.
 *
 * Re-enabling is `status: 'active'`, and it does not reset the count: neither WC_Webhook::set_status() nor
 * the data store's update() touches it, so on WooCommerce the next failure disables the webhook again at once;
 * only a delivery that succeeds clears it. Fix the receiver before re-enabling.
 */

export interface WebhookProblem {
  id: number;
  name: string;
  topic: string;
  delivery_url: string;
  status: Webhook['status'];
  /** Why it is listed. */
  reason: 'disabled' | 'paused' | 'failing';
  /** The store's failure count when its response carries one (stock WooCommerce's does not). */
  failure_count: number | undefined;
  /** The last save: for a webhook the store disabled, when that happened (unless edited since). */
  date_modified_gmt: string | null;
}

export interface WebhookHealth {
  /** No webhook disabled, paused or failing. */
  ok: boolean;
  /** How many webhooks were read. */
  checked: number;
  /** Disabled by the store after repeated failed deliveries: nothing is delivered until re-enabled. */
  disabled: WebhookProblem[];
  /** Paused by someone: nothing is delivered until re-enabled. */
  paused: WebhookProblem[];
  /** Active with failures counted; always empty unless the store's response carries `failure_count`. */
  failing: WebhookProblem[];
  /** Whether any webhook's response carried `failure_count`. */
  failure_count_exposed: boolean;
}

/** Reads every webhook (all pages) and sorts the ones not delivering. */
export async function webhookHealth(webhooks: AsyncIterable<Webhook>): Promise<WebhookHealth> {
  const health: WebhookHealth = {
    ok: true,
    checked: 0,
    disabled: [],
    paused: [],
    failing: [],
    failure_count_exposed: false,
  };
  for await (const w of webhooks) {
    health.checked++;
    const raw = (w as { failure_count?: unknown }).failure_count;
    const count =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (count !== undefined) health.failure_count_exposed = true;
    const reason =
      w.status === 'disabled' ? 'disabled' : w.status === 'paused' ? 'paused' : count ? 'failing' : undefined;
    if (!reason) continue;
    health.ok = false;
    health[reason].push({
      id: w.id,
      name: w.name,
      topic: w.topic,
      delivery_url: w.delivery_url,
      status: w.status,
      reason,
      failure_count: count,
      date_modified_gmt: w.date_modified_gmt ?? null,
    });
  }
  return health;
}

/** The resources a catch-up can list: the REST API has `modified_after` (or a scan) for these. */
const catchUpRoutes = {
  order: ['/orders', order, 'orders'],
  product: ['/products', product, 'products'],
  customer: ['/customers', customer, 'customers'],
} as const;

export type CatchUpRecord<T extends string> = T extends `order.${string}`
  ? Order
  : T extends `product.${string}`
    ? Product
    : T extends `customer.${string}`
      ? Customer
      : Order | Product | Customer;

export interface CatchUpOptions extends Omit<SyncOptions, 'modified_after'> {
  /** Records modified strictly after this instant (to the second). Required unless `checkpoint` is given. */
  modified_after?: string | Date;
}

// Coupons and action topics have no sync; a deletion leaves no record for the REST API to list.
const CATCH_UP_TOPIC = /^(order|product|customer)\.(created|updated|restored|published)$/;

/**
 * What changed while a webhook was down: the sync of its topic's resource (`orders.sync()` and its
 * siblings: the same keyset walk, the same checkpoints), from `modified_after`. Each call is a new sync with
 * its own in-memory checkpoint, under the key `catch-up:<topic>` in a `checkpointStore` you pass.
 */
export function catchUp<T extends string>(
  context: StoreContext,
  webhook: T | { topic: T },
  options: CatchUpOptions,
  requestOptions?: RequestOptions,
): SyncRun<CatchUpRecord<T>> {
  const topic = typeof webhook === 'string' ? webhook : (webhook as { topic?: unknown } | null)?.topic;
  if (typeof topic !== 'string' || !CATCH_UP_TOPIC.test(topic)) {
    throw new ValidationError('webhooks.catchUp webhook', [
      { path: 'topic', message: 'expected an order, product or customer topic, not .deleted' },
    ]);
  }
  if (options?.modified_after === undefined && options?.checkpoint === undefined) {
    throw new ValidationError('webhooks.catchUp options', [
      {
        path: 'modified_after',
        message: 'required (or a checkpoint): when the last delivery you handled was made',
      },
    ]);
  }
  const [path, item, resource] = catchUpRoutes[topic.split('.')[0] as keyof typeof catchUpRoutes];
  const sync = new Sync<CatchUpRecord<T>>(context, path, item, resource);
  return sync.run({ key: `catch-up:${topic}`, ...options }, requestOptions);
}
