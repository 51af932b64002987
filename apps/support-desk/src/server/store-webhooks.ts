import type { StoreClient, WebhookEvent } from '@x/store';
import { DeskEvents } from '../shared/api.js';
import { customerSummary, orderSummary } from './present.js';
import type { Broadcaster } from './services.js';

/** The store events the dashboard shows live. */
export const STORE_TOPICS = ['order.created', 'order.updated'] as const;

const WEBHOOK_NAME = 'support-desk';

/**
 * Makes sure the store delivers `STORE_TOPICS` to `deliveryUrl`, signed with `secret`: an existing
 * webhook of ours is updated (the secret may be new for this run), a missing one created.
 */
export async function ensureStoreWebhooks(
  store: StoreClient,
  deliveryUrl: string,
  secret: string,
): Promise<number[]> {
  const existing = [];
  for await (const webhook of store.webhooks.list({ per_page: 100 })) existing.push(webhook);
  const ids: number[] = [];
  for (const topic of STORE_TOPICS) {
    const mine = existing.find((w) => w.topic === topic && w.delivery_url === deliveryUrl);
    const webhook = mine
      ? await store.webhooks.update(mine.id, { secret, status: 'active' })
      : await store.webhooks.create({
          name: `${WEBHOOK_NAME} ${topic}`,
          topic,
          delivery_url: deliveryUrl,
          secret,
          status: 'active',
        });
    ids.push(webhook.id);
  }
  return ids;
}

/** A verified delivery, pushed to every dashboard; other topics are acknowledged and ignored. */
export async function publishStoreEvent(event: WebhookEvent, broadcaster: Broadcaster): Promise<void> {
  if (
    event.topic === 'order.created' ||
    event.topic === 'order.updated' ||
    event.topic === 'order.restored'
  ) {
    await broadcaster.push(DeskEvents.orderUpserted, orderSummary(event.payload));
  } else if (event.topic === 'customer.created' || event.topic === 'customer.updated') {
    await broadcaster.push(DeskEvents.customerUpserted, customerSummary(event.payload));
  }
}
