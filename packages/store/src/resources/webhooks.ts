import type { BaseClient } from '@x/core';
import { webhook, webhookCreateInput, webhookListParams, webhookUpdateInput } from '../schemas/webhooks.js';
import { Collection } from './collection.js';

/** Webhook subscriptions (`/webhooks`); to receive deliveries see `verifyWebhook` / `parseWebhook`. */
export class Webhooks extends Collection<
  typeof webhook,
  typeof webhookCreateInput,
  typeof webhookUpdateInput,
  typeof webhookListParams
> {
  constructor(client: BaseClient) {
    super(client, '/webhooks', {
      item: webhook,
      create: webhookCreateInput,
      update: webhookUpdateInput,
      list: webhookListParams,
      name: 'webhooks',
      trashable: false,
    });
  }
}
