import type { Sequences, StoreState } from './tables.js';

/**
 * Undo journal for one order write. Why a journal and not "validate first" or an up-front snapshot: the set of
 * records a write touches (stock holders, sales counters, the paying customer) is only known once the line items
 * are resolved (by id, variation or SKU), so the code that mutates a record first hands it to `touch()`, which
 * keeps a deep copy of it. Everything `writeOrder()` and its callees can change is covered:
 * - the order itself (fields, addresses, lines, meta): `touch(o)` before the write (a new order is only
 *   inserted into `orders` after a successful write, so it needs nothing);
 * - id sequences (`post`, `item`, `meta` through nextId()): `seq` is copied whole (seven numbers);
 * - stock (`stock_quantity`, `stock_status`, `modified`) of products/variations: adjustStock() touches the holder;
 * - `total_sales` of products/variations: recordSales() touches both;
 * - `is_paying_customer`: statusSideEffects() touches the customer.
 * No write inserts into or deletes from a collection map. Webhooks already queued by emit() are not recalled
 * (nor were they when the whole state was cloned). Rollback restores each record in place, key order included.
 */
export class WriteJournal {
  private readonly seq: Sequences;
  private readonly saved = new Map<object, object>();

  constructor(private readonly state: StoreState) {
    this.seq = { ...state.seq };
  }

  /** Call before mutating a record that is already in the state. */
  touch(rec: object): void {
    if (!this.saved.has(rec)) this.saved.set(rec, structuredClone(rec));
  }

  rollback(): void {
    Object.assign(this.state.seq, this.seq);
    for (const [rec, copy] of this.saved) {
      for (const k of Object.keys(rec)) delete (rec as Record<string, unknown>)[k];
      Object.assign(rec, copy);
    }
    this.saved.clear();
  }
}
