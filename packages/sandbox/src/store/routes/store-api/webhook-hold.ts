/**
 * WC_Webhook::process() queues a hook's argument once per webhook in a PHP request (is_already_processed()), and
 * WooCommerce builds the payload when it delivers, in the background after the request (wc_webhook_process_delivery()
 * schedules woocommerce_deliver_webhook_async). A Store API request, and a whole batch, holds its events and
 * publishes each once when it ends, so their payloads show the state the request left.
 */

import type { Store, WebhookEvent, WebhookOutbox, WebhookResource } from '../../data/store.js';

/** Holds `store`'s webhook events until the returned release runs. */
export function holdWebhooks(store: Store): () => void {
  const outbox = store.deliverer;
  const held = new Map<string, [WebhookResource, WebhookEvent, number]>();
  let holding = true;
  const holder: WebhookOutbox = {
    publish(resource, event, id) {
      // Released, it passes events on: a hold that overlapped this one may hand it back as the outbox.
      if (!holding) return outbox.publish(resource, event, id);
      const key = `${resource}.${event}.${id}`;
      if (!held.has(key)) held.set(key, [resource, event, id]);
    },
    ping: (webhookId, url) => outbox.ping(webhookId, url),
    idle: () => outbox.idle(),
    close: () => outbox.close(),
  };
  store.deliverer = holder;
  return () => {
    holding = false;
    if (store.deliverer === holder) store.deliverer = outbox;
    for (const [resource, event, id] of held.values()) outbox.publish(resource, event, id);
  };
}
