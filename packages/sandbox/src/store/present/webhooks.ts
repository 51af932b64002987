import type { WebhookRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { wcDate } from '../runtime/values.js';

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
