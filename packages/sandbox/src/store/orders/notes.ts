import type { NoteRec, OrderRec } from '../data/order-rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';

/** WC_Order::add_order_note() as the system (author "WooCommerce"). */
export function addSystemNote(store: Store, orderId: number, note: string): void {
  const id = nextId(store.state, 'comment');
  store.state.notes.set(id, {
    id,
    order_id: orderId,
    created: store.now(),
    note,
    customer_note: false,
    author: 'WooCommerce',
  });
  store.changed('notes', id);
}

/** WC_Order::add_order_note() through the API: `added_by_user` makes the admin its author. */
export function createNote(store: Store, o: OrderRec, p: Record<string, unknown>): NoteRec {
  const id = nextId(store.state, 'comment');
  const n: NoteRec = {
    id,
    order_id: o.id,
    created: store.now(),
    note: p.note as string,
    customer_note: p.customer_note === true,
    author: p.added_by_user === true ? 'admin' : 'WooCommerce',
  };
  store.state.notes.set(id, n);
  store.changed('notes', id);
  return n;
}

export function deleteNote(store: Store, n: NoteRec): void {
  store.state.notes.delete(n.id);
  store.changed('notes', n.id);
}
