import type { CallDetail, CallView, CustomerSummary, OrderSummary } from '../shared/api.js';

export interface DeskError {
  id: number;
  message: string;
}

export interface DeskState {
  orders: OrderSummary[];
  customers: CustomerSummary[];
  calls: CallView[];
  details: Record<string, CallDetail>;
  selectedCallId: string | null;
  /** Ids of orders that just arrived or changed live, highlighted for a moment. */
  fresh: number[];
  errors: DeskError[];
  connection: string;
  subscribed: boolean;
}

export const initialState: DeskState = {
  orders: [],
  customers: [],
  calls: [],
  details: {},
  selectedCallId: null,
  fresh: [],
  errors: [],
  connection: 'initialized',
  subscribed: false,
};

export type Action =
  | { type: 'orders'; orders: OrderSummary[] }
  | { type: 'customers'; customers: CustomerSummary[] }
  | { type: 'calls'; calls: CallView[] }
  | { type: 'order'; order: OrderSummary }
  | { type: 'customer'; customer: CustomerSummary }
  | { type: 'call'; call: CallView }
  | { type: 'detail'; detail: CallDetail }
  | { type: 'select'; id: string }
  | { type: 'unfresh'; id: number }
  | { type: 'error'; message: string }
  | { type: 'dismiss'; id: number }
  | { type: 'connection'; state: string }
  | { type: 'subscribed'; subscribed: boolean };

let errorIds = 0;

function upsert<T extends { id: number | string }>(list: T[], item: T, atTop: boolean): T[] {
  const index = list.findIndex((x) => x.id === item.id);
  if (index === -1) return atTop ? [item, ...list] : [...list, item];
  const copy = list.slice();
  copy[index] = item;
  return copy;
}

export function reducer(state: DeskState, action: Action): DeskState {
  switch (action.type) {
    case 'orders':
      return { ...state, orders: action.orders };
    case 'customers':
      return { ...state, customers: action.customers };
    case 'calls':
      return {
        ...state,
        calls: action.calls,
        selectedCallId: state.selectedCallId ?? action.calls[0]?.id ?? null,
      };
    case 'order': {
      const orders = upsert(state.orders, action.order, true).sort((a, b) => b.id - a.id);
      return {
        ...state,
        orders,
        fresh: [...state.fresh.filter((id) => id !== action.order.id), action.order.id],
      };
    }
    case 'customer':
      return { ...state, customers: upsert(state.customers, action.customer, true) };
    case 'call': {
      // A call started in any tab is shown in every tab; the newest is selected.
      const isNew = !state.calls.some((c) => c.id === action.call.id);
      return {
        ...state,
        calls: upsert(state.calls, action.call, true),
        selectedCallId: isNew ? action.call.id : state.selectedCallId,
      };
    }
    case 'detail':
      return { ...state, details: { ...state.details, [action.detail.id]: action.detail } };
    case 'select':
      return { ...state, selectedCallId: action.id };
    case 'unfresh':
      return { ...state, fresh: state.fresh.filter((id) => id !== action.id) };
    case 'error':
      return { ...state, errors: [...state.errors.slice(-3), { id: ++errorIds, message: action.message }] };
    case 'dismiss':
      return { ...state, errors: state.errors.filter((e) => e.id !== action.id) };
    case 'connection':
      return { ...state, connection: action.state };
    case 'subscribed':
      return { ...state, subscribed: action.subscribed };
  }
}
