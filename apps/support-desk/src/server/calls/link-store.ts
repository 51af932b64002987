import { type Customer, NotFoundError, type Order, type StoreClient } from '@x/store';
import type { CallAnalysis, CallerIdentity, SavedNote } from '../../shared/api.js';
import { findCustomerNames, findOrderNumbers, foldName, matchCustomer } from '../analysis/match.js';
import { orderNoteText, type SentimentAnalysis, summarise } from '../analysis/summary.js';
import { customerSummary, LAST_CALL_META_KEY, orderSummary, UNHAPPY_META_KEY } from '../present.js';

/** At most this many orders a call is linked to (a caller reading out a list is rare). */
const MAX_ORDERS = 3;

/** The order a caller means by `number`: usually its id; stores with custom numbering are searched. */
export async function findOrder(store: StoreClient, number: string): Promise<Order | null> {
  if (/^\d+$/.test(number)) {
    try {
      const order = await store.orders.get(Number(number));
      if (String(order.number ?? order.id) === number) return order;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const page = await store.orders.list({ search: number, per_page: 5 });
  return page.data.find((o) => String(o.number) === number) ?? null;
}

async function findCustomer(store: StoreClient, orders: Order[], names: string[]): Promise<Customer | null> {
  const id = orders.find((o) => (o.customer_id ?? 0) > 0)?.customer_id;
  if (id) return store.customers.get(id);
  for (const name of names) {
    const last = name.split(' ').at(-1)!;
    const page = await store.customers.list({ search: last, per_page: 20 });
    const match = matchCustomer(names, page.data);
    if (match) return match;
  }
  return null;
}

export type StoreLink = Omit<CallAnalysis, keyof SentimentAnalysis> & { updatedCustomer: Customer | null };

/** The name on the order: its customer's, or its billing name for a guest order with one. */
function nameOnRecord(customer: Customer | null, order: Order | undefined): string | null {
  if (customer) return `${customer.first_name} ${customer.last_name}`.trim() || null;
  const billing = order?.billing;
  if (!billing || billing.first_name === 'Guest') return null;
  return `${billing.first_name ?? ''} ${billing.last_name ?? ''}`.trim() || null;
}

/**
 * The spoken name against the order's: they match when every word the caller said is in the name on record
 * (a caller who gives only "Jane" or "Smith" is Jane Smith), compared without case or accents.
 */
export function callerIdentity(
  spoken: string | null,
  onRecord: string | null,
  orderNumber: string | null,
): CallerIdentity {
  if (!spoken || !onRecord) return { spoken, onRecord, orderNumber, matches: null };
  const recorded = nameWords(onRecord);
  const matches = nameWords(spoken).every((word) => recorded.includes(word));
  return { spoken, onRecord, orderNumber, matches };
}

/**
 * A name's words as a recogniser may write them: "Mary-Jane O'Neil" is heard as "Mary Jane O'Neil" or
 * "Mary Jane ONeil", which are the same caller, not a mismatch to flag on the order.
 */
function nameWords(name: string): string[] {
  return foldName(name)
    .replace(/['’]/g, '')
    .split(/[\s-]+/)
    .filter(Boolean);
}

/** The customer's words when the voices were told apart (the agent's "this is Sam" is no caller's name). */
function customerWords(analysis: SentimentAnalysis): string {
  if (!analysis.customerSpeaker?.label || !analysis.utterances) return analysis.text;
  return analysis.utterances
    .filter((u) => u.speaker === 'Customer')
    .map((u) => u.text)
    .join(' ');
}

/**
 * Finds the order(s) and customer a call mentions, adds a private note (summary, caller identity, the
 * customer's sentiment, the service's summary, action items and entities, content-safety flags) to each
 * order and reads it back, and tags an unhappy customer in `meta_data`. When the caller's name is not the
 * order's customer's, both are kept and the note says so; the order's customer is still the one linked
 * and tagged, since the complaint is about their order.
 */
export async function linkCallToStore(store: StoreClient, analysis: SentimentAnalysis): Promise<StoreLink> {
  const orderNumbers = findOrderNumbers(analysis.text);
  const customerNames = findCustomerNames(customerWords(analysis));
  const orders: Order[] = [];
  for (const number of orderNumbers.slice(0, MAX_ORDERS)) {
    const order = await findOrder(store, number);
    if (order && !orders.some((o) => o.id === order.id)) orders.push(order);
  }
  const customer = await findCustomer(store, orders, customerNames);
  const first = orders[0];
  const identity = callerIdentity(
    customerNames[0] ?? null,
    nameOnRecord(customer, first),
    first ? String(first.number ?? first.id) : null,
  );
  const summary = summarise(analysis, {
    orderNumbers: orders.length > 0 ? orders.map((o) => String(o.number ?? o.id)) : orderNumbers,
    identity,
  });
  const note = orderNoteText(analysis, summary, identity);
  const notes: SavedNote[] = [];
  for (const order of orders) {
    const created = await store.orders.notes.create(order.id, { note, customer_note: false });
    // What the page shows is what the store kept (it may trim or sanitise), not what was sent.
    const saved = await store.orders.notes.get(order.id, created.id);
    notes.push({
      orderId: order.id,
      orderNumber: String(order.number ?? order.id),
      noteId: saved.id,
      note: saved.note,
    });
  }
  let updatedCustomer: Customer | null = null;
  if (customer && analysis.overall === 'NEGATIVE') {
    updatedCustomer = await store.customers.update(customer.id, {
      meta_data: [
        { key: UNHAPPY_META_KEY, value: 'yes' },
        { key: LAST_CALL_META_KEY, value: analysis.transcriptId },
      ],
    });
  }
  return {
    summary,
    orderNumbers,
    customerNames,
    identity,
    notes,
    orders: orders.map(orderSummary),
    customer: updatedCustomer
      ? customerSummary(updatedCustomer)
      : customer
        ? customerSummary(customer)
        : null,
    noteAdded: orders.length > 0,
    customerTagged: updatedCustomer !== null,
    updatedCustomer,
  };
}
