import type {
  CallDetail,
  CallView,
  CustomerSummary,
  LiveTranscriptView,
  LiveTurnView,
  OrderSummary,
} from '../shared/api.js';
import { applyTurn, EMPTY_TRANSCRIPT } from '../shared/live-transcript.js';
import type { LiveStatus } from './live-session.js';

export interface DeskError {
  id: number;
  message: string;
}

export interface DeskState {
  orders: OrderSummary[];
  customers: CustomerSummary[];
  calls: CallView[];
  /** Whether the list of calls has been loaded once (the first load opens the newest call). */
  listed: boolean;
  details: Record<string, CallDetail>;
  selectedCallId: string | null;
  /** Ids of orders that just arrived or changed live, highlighted for a moment. */
  fresh: number[];
  errors: DeskError[];
  connection: string;
  subscribed: boolean;
  /** Live calls' transcripts, by call id: this tab's own turns, or those relayed to it. */
  live: Record<string, LiveTranscriptView>;
  /** The live call this tab captures, if any. */
  capture: { callId: string | null; status: LiveStatus };
}

export const initialState: DeskState = {
  orders: [],
  customers: [],
  calls: [],
  listed: false,
  details: {},
  selectedCallId: null,
  fresh: [],
  errors: [],
  connection: 'initialized',
  subscribed: false,
  live: {},
  capture: { callId: null, status: 'idle' },
};

export type Action =
  | { type: 'orders'; orders: OrderSummary[] }
  | { type: 'customers'; customers: CustomerSummary[] }
  | { type: 'calls'; calls: CallView[] }
  | { type: 'order'; order: OrderSummary }
  | { type: 'customer'; customer: CustomerSummary }
  /** A call's state from the server or another tab: listed, never opened. */
  | { type: 'call'; call: CallView }
  /** A call this tab started: listed and opened. */
  | { type: 'started'; call: CallView }
  | { type: 'detail'; detail: CallDetail }
  | { type: 'select'; id: string }
  | { type: 'unfresh'; id: number }
  | { type: 'error'; message: string }
  | { type: 'dismiss'; id: number }
  | { type: 'connection'; state: string }
  | { type: 'subscribed'; subscribed: boolean }
  /** A turn of a live call: `local` when this tab captured it, else relayed by the app server. */
  | { type: 'liveTurn'; callId: string; turn: LiveTurnView; local: boolean }
  | { type: 'capture'; status?: LiveStatus; callId?: string };

let errorIds = 0;

/** `turns` taken into a call's live transcript, each as every tab takes it (`applyTurn`). */
function withTurns(state: DeskState, callId: string, turns: readonly LiveTurnView[]): DeskState {
  let view = state.live[callId] ?? EMPTY_TRANSCRIPT;
  for (const turn of turns) view = applyTurn(view, turn)?.view ?? view;
  return view === state.live[callId] ? state : { ...state, live: { ...state.live, [callId]: view } };
}

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
    case 'calls': {
      // The list was read before it arrived: a call this tab learnt of meanwhile (one it started, another
      // tab's event) is newer than the list's newest and stays listed, or the tab's own call would vanish.
      const newest = action.calls[0]?.createdAt ?? '';
      const since = state.calls.filter(
        (c) => c.createdAt > newest && !action.calls.some((x) => x.id === c.id),
      );
      return {
        ...state,
        calls: [...since, ...action.calls],
        listed: true,
        // Only the page's first load opens the newest call: a reload after a reconnect must not open
        // another tab's call in a tab that shows none.
        selectedCallId: state.selectedCallId ?? (state.listed ? null : (action.calls[0]?.id ?? null)),
      };
    }
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
    case 'call':
      // A call started in any tab is listed in every tab, but only the tab that started it opens it: a
      // colleague's new call must not take away the one this tab is reading.
      return { ...state, calls: upsert(state.calls, action.call, true) };
    case 'started': {
      // The server's events may have listed it already with a later status than this answer's.
      const known = state.calls.some((c) => c.id === action.call.id);
      return {
        ...state,
        calls: known ? state.calls : upsert(state.calls, action.call, true),
        selectedCallId: action.call.id,
      };
    }
    case 'detail': {
      const next = { ...state, details: { ...state.details, [action.detail.id]: action.detail } };
      const live = action.detail.live;
      // A tab that opens during a call catches up with what was said before it subscribed.
      if (!live) return next;
      const turns = live.partial ? [...live.finals, live.partial] : live.finals;
      return withTurns(next, action.detail.id, turns);
    }
    case 'liveTurn':
      // This tab shows its own turns as it hears them; an echo through the server would be older.
      if (!action.local && action.callId === state.capture.callId) return state;
      return withTurns(state, action.callId, [action.turn]);
    case 'capture':
      return {
        ...state,
        capture: {
          status: action.status ?? state.capture.status,
          callId: action.callId ?? state.capture.callId,
        },
      };
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
