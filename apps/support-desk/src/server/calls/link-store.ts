import { type Customer, NotFoundError, type Order, type StoreClient } from '@x/store';
import type { CallAnalysis } from '../../shared/api.js';
import { findCustomerNames, findOrderNumbers, matchCustomer } from '../analysis/match.js';
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

/**
 * Finds the order(s) and customer a call mentions, adds a private note with the summary, sentiment and
 * content-safety flags to each order, and tags an unhappy customer in `meta_data`.
 */
export async function linkCallToStore(store: StoreClient, analysis: SentimentAnalysis): Promise<StoreLink> {
  const orderNumbers = findOrderNumbers(analysis.text);
  const customerNames = findCustomerNames(analysis.text);
  const orders: Order[] = [];
  for (const number of orderNumbers.slice(0, MAX_ORDERS)) {
    const order = await findOrder(store, number);
    if (order && !orders.some((o) => o.id === order.id)) orders.push(order);
  }
  const customer = await findCustomer(store, orders, customerNames);
  const billing = orders[0]?.billing;
  const customerName = customer
    ? `${customer.first_name} ${customer.last_name}`.trim()
    : billing && billing.first_name !== 'Guest'
      ? `${billing.first_name ?? ''} ${billing.last_name ?? ''}`.trim() || null
      : (customerNames[0] ?? null);
  const summary = summarise(analysis, {
    orderNumbers: orders.length > 0 ? orders.map((o) => String(o.number ?? o.id)) : orderNumbers,
    customerName,
  });
  const note = orderNoteText(analysis, summary);
  for (const order of orders) await store.orders.notes.create(order.id, { note, customer_note: false });
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
