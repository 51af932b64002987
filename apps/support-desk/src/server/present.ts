import type { Customer, Order } from '@x/store';
import type { CustomerSummary, OrderSummary } from '../shared/api.js';

/** The customer meta_data key a negative call sets. */
export const UNHAPPY_META_KEY = 'support_desk_unhappy';
/** The transcript id of the last analysed call, next to it. */
export const LAST_CALL_META_KEY = 'support_desk_last_call';

/** Only what the dashboard shows of an order: no addresses, no payment details. */
export function orderSummary(order: Order): OrderSummary {
  const name = `${order.billing?.first_name ?? ''} ${order.billing?.last_name ?? ''}`.trim();
  return {
    id: order.id,
    number: String(order.number ?? order.id),
    status: String(order.status),
    total: String(order.total),
    currency: String(order.currency ?? ''),
    customerId: order.customer_id ?? 0,
    customerName: name || 'Guest',
    email: order.billing?.email ?? '',
    dateCreated: String(order.date_created_gmt ?? order.date_created ?? ''),
    items: (order.line_items ?? []).reduce((n, line) => n + (line.quantity ?? 0), 0),
  };
}

export function customerSummary(customer: Customer): CustomerSummary {
  const unhappy = (customer.meta_data ?? []).some((m) => m.key === UNHAPPY_META_KEY && m.value === 'yes');
  return {
    id: customer.id,
    name:
      `${customer.first_name ?? ''} ${customer.last_name ?? ''}`.trim() ||
      customer.email ||
      `#${customer.id}`,
    email: customer.email ?? '',
    city: customer.billing?.city ?? '',
    unhappy,
  };
}
