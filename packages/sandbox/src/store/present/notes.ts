import type { NoteRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { wcDate } from '../runtime/values.js';

export function presentNote(store: Store, n: NoteRec): Record<string, unknown> {
  return {
    id: n.id,
    author: n.author,
    date_created: wcDate(n.created),
    date_created_gmt: wcDate(n.created),
    note: n.note,
    customer_note: n.customer_note,
    _links: {
      self: [{ href: store.restUrl(`/orders/${n.order_id}/notes/${n.id}`) }],
      collection: [{ href: store.restUrl(`/orders/${n.order_id}/notes`) }],
      up: [{ href: store.restUrl(`/orders/${n.order_id}`) }],
    },
  };
}
