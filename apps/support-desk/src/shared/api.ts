/**
 * What the app server and the page exchange: JSON bodies of `/api/*` and the realtime events. Types only;
 * the page imports nothing else from the server.
 */

import type { CurrencyFields } from '@x/store/storefront';

/** The one private channel every open dashboard subscribes to (authorised by `POST /api/realtime/auth`). */
export const DESK_CHANNEL = 'private-support-desk';

/** Realtime event names on `DESK_CHANNEL`. */
export const DeskEvents = {
  orderUpserted: 'order-upserted',
  customerUpserted: 'customer-upserted',
  callStatus: 'call-status',
  callAnalyzed: 'call-analyzed',
  /** A live call's partial or final turn (`LiveTurnEvent`), relayed from the tab that captures it. */
  liveTurn: 'live-turn',
} as const;

/** The header that carries a live call's key (`LiveCallStart.key`) on its turns, tokens and end. */
export const LIVE_CALL_KEY_HEADER = 'X-Live-Call-Key';

export type Sentiment = 'POSITIVE' | 'NEUTRAL' | 'NEGATIVE';

export interface OrderSummary {
  id: number;
  number: string;
  status: string;
  total: string;
  currency: string;
  customerId: number;
  customerName: string;
  email: string;
  dateCreated: string;
  items: number;
}

export interface CustomerSummary {
  id: number;
  name: string;
  email: string;
  city: string;
  /** Tagged by a call whose overall sentiment was negative (`support_desk_unhappy` in `meta_data`). */
  unhappy: boolean;
}

/** Who said it, once the desk has told the call's two sides apart (see `CustomerSpeaker`). */
export type SpeakerRole = 'Agent' | 'Customer';

export interface SentenceView {
  text: string;
  start: number;
  end: number;
  sentiment: Sentiment;
  confidence: number;
  /** null when the transcript has no speaker labels (a live call, or a service that gave none). */
  speaker?: SpeakerRole | null;
}

/** A stretch of one speaker, as the service diarized it (`utterances`), with the role the desk gave it. */
export interface UtteranceView {
  speaker: SpeakerRole;
  /** The service's label: `A`, `B`… */
  label: string;
  text: string;
  start: number;
  end: number;
}

/**
 * Which speaker label is the customer, and how the desk knows: `service` when the service's speaker
 * identification named the roles, `cues` from what each says (the order number and a name against "thank
 * you for calling"), `single` when only one voice was heard, `none` without speaker labels (then every
 * sentence counts as the customer's).
 */
export interface CustomerSpeaker {
  label: string | null;
  by: 'service' | 'cues' | 'single' | 'none';
}

/** The name the caller gave against the order's customer; `matches` is null when one of them is unknown. */
export interface CallerIdentity {
  spoken: string | null;
  onRecord: string | null;
  orderNumber: string | null;
  matches: boolean | null;
}

/** A note the desk added to an order, as the store returned it when read back. */
export interface SavedNote {
  orderId: number;
  orderNumber: string;
  noteId: number;
  note: string;
}

export interface CallEntity {
  entity_type: string;
  text: string;
}

export interface SafetyFlag {
  label: string;
  confidence: number;
  text: string;
}

export interface CallAnalysis {
  transcriptId: string;
  text: string;
  durationMs: number;
  sentences: SentenceView[];
  overall: Sentiment;
  /**
   * Duration-weighted mean of the customer's sentences' sentiment (every sentence's without speaker labels),
   * -1 (all negative) to 1 (all positive). `overall` and `counts` are the customer's too.
   */
  score: number;
  counts: Record<Sentiment, number>;
  safetyFlags: SafetyFlag[];
  /*
   * The fields below up to `summary` are absent on calls analysed by an older desk (kept in its database).
   */
  utterances?: UtteranceView[];
  customerSpeaker?: CustomerSpeaker;
  /** The service's summary (`speech_understanding` summarization), null when it gave none. */
  serviceSummary?: string | null;
  /** `speech_understanding` action items, as the service worded them. */
  actionItems?: string[];
  /** `entity_detection`, each type and text once. */
  entities?: CallEntity[];
  identity?: CallerIdentity;
  /** The notes added to the orders, read back from the store. */
  notes?: SavedNote[];
  summary: string;
  orderNumbers: string[];
  customerNames: string[];
  /** The orders found in the store for `orderNumbers`, and what was written to them. */
  orders: OrderSummary[];
  customer: CustomerSummary | null;
  noteAdded: boolean;
  customerTagged: boolean;
}

export type CallStatus =
  | 'receiving'
  | 'uploading'
  | 'transcribing'
  /** A live call: a tab is streaming the microphone and relaying turns. */
  | 'live'
  | 'analysing'
  | 'done'
  | 'error';

export interface CallView {
  id: string;
  name: string;
  source: 'upload' | 'sample' | 'live';
  status: CallStatus;
  /** 0..1 of the current stage that reports progress (the upload to the transcription service). */
  progress: number;
  createdAt: string;
  transcriptId: string | null;
  error: string | null;
  /**
   * How the transcript came: the transcription webhook, polling when the webhook did not come, or the live
   * call's own turns.
   */
  completedBy: 'webhook' | 'polling' | 'live' | null;
  /** Present once `status` is `done`: the summary fields; `GET /api/calls/:id` has the sentences. */
  overall: Sentiment | null;
  summary: string | null;
  /**
   * The customer's cart and last order, linked by a support code (`POST /api/calls/:id/storefront`): when it
   * was last read, and its totals. `GET /api/calls/:id` has the items. Absent until a code links them.
   */
  storefront?: StorefrontSummary;
}

export interface CallDetail extends CallView {
  analysis: CallAnalysis | null;
  /** What the desk last read of the linked cart and order (absent until a support code links them). */
  cart?: StorefrontSnapshot;
  /** A live call's transcript so far (for a tab that opens during the call); null for other calls. */
  live: LiveTranscriptView | null;
}

/** A turn as the desk relays it: the service's `turn_order`, `end_of_turn` and `turn_is_formatted`. */
export interface LiveTurnView {
  turn_order: number;
  end_of_turn: boolean;
  turn_is_formatted: boolean;
  /** Every word of the turn so far, final or not (the service's `transcript` holds only the final ones). */
  text: string;
}

/** `live-turn` on `DESK_CHANNEL`: a partial replaces the previous one, a final settles its `turn_order`. */
export interface LiveTurnEvent extends LiveTurnView {
  callId: string;
}

export interface LiveTranscriptView {
  /** Final turns by `turn_order`, each once (a formatted copy replaces its unformatted turn). */
  finals: LiveTurnView[];
  /** The turn being spoken, if any. */
  partial: LiveTurnView | null;
}

/** A word of a final turn, as the service timed it (ms from the start of the stream). */
export interface LiveWord {
  text: string;
  start: number;
  end: number;
}

/** One turn the capturing tab relays (`POST /api/live-calls/:id/turns`); finals carry their words' times. */
export interface LiveTurnInput extends LiveTurnView {
  words?: LiveWord[];
}

/** The answer to `POST /api/live-calls`: everything the page needs to stream, and never the API key. */
export interface LiveCallStart {
  call: CallView;
  /** A single-use temporary token for the streaming socket; `POST /api/live-calls/:id/token` gives more. */
  token: string;
  /** Seconds the token may wait before it opens a session. */
  expires_in_seconds: number;
  /** The longest the session may last, in seconds. */
  max_session_duration_seconds: number;
  streaming: {
    /** The streaming WebSocket base (`wss://streaming.assemblyai.com`, or the sandbox's `ws://…`). */
    url: string;
    /** The connection parameters to open the session with. */
    params: { speech_model: string; sample_rate: number; format_turns: boolean };
  };
  /** Sent back in `X-Live-Call-Key` with the call's turns, tokens and end: only this tab writes the call. */
  key: string;
}

export interface DeskConfig {
  channel: string;
  realtime: {
    key: string;
    wsHost?: string;
    wsPort?: number;
    wssPort?: number;
    forceTLS: boolean;
    cluster?: string;
  };
  speech: { available: boolean; tool: string | null; missing: string | null };
  /** Live calls: where the page streams the microphone, and with which model. */
  live: { streamingUrl: string; speechModel: string };
  services: { store: string; transcription: string; realtime: string };
}

/** Every error the API answers, whatever the status. */
export interface ApiErrorBody {
  error: { message: string; status: number; code?: string; issues?: { path: string; message: string }[] };
}

/**
 * `POST /api/storefront/help`: the storefront's request for a support code. `cart_token` is the Store API's
 * `Cart-Token` (a bearer secret: the desk server keeps it and never shows it); `order` is the customer's last
 * checkout, when there was one: the Store API reads it with its key and billing email.
 */
export interface StorefrontHelpRequest {
  cart_token: string;
  order: { id: number; key: string; billing_email: string } | null;
}

/** The answer: six digits the customer reads out, which the agent types into the call's order panel. */
export interface StorefrontHelpCode {
  code: string;
  expires_in_seconds: number;
}

/** The Store API's currency fields (AbstractSchema::get_store_currency_response()), as it spells them. */
export type StoreCurrency = CurrencyFields;

/** A cart or order line; amounts are strings of minor units in the snapshot's currency, as the Store API gives them. */
export interface StorefrontLine {
  key: string;
  /** The product's (or variation's) id in a cart; the order line's id in an order, as the Store API gives them. */
  id: number;
  name: string;
  sku: string;
  quantity: number;
  /** The unit price. */
  price: string;
  line_subtotal: string;
  line_total: string;
}

export interface StorefrontCoupon {
  code: string;
  total_discount: string;
}

/** The totals the Store API computes (CartSchema / OrderSchema `totals`), in minor units. */
export interface StorefrontTotals {
  total_items: string;
  total_discount: string;
  /** null when the cart has not calculated shipping yet. */
  total_shipping: string | null;
  total_tax: string;
  total_price: string;
}

export interface StorefrontCart {
  items: StorefrontLine[];
  /** How many lines the cart has (`items` holds the first 50). */
  lines: number;
  items_count: number;
  coupons: StorefrontCoupon[];
  totals: StorefrontTotals;
  /** The selected shipping rate, if the cart has one. */
  shipping_rate: { rate_id: string; name: string; price: string } | null;
  /** The cart's own errors (CartSchema `errors`): out of stock, coupon no longer valid… */
  errors: { code: string; message: string }[];
  currency: StoreCurrency;
}

export interface StorefrontOrder {
  id: number;
  status: string;
  items: StorefrontLine[];
  lines: number;
  coupons: StorefrontCoupon[];
  totals: StorefrontTotals;
  currency: StoreCurrency;
  /** How the desk read it: the Store API's `order/{id}` with the order key, or the REST API (`wc/v3`). */
  via: 'store-api' | 'rest-v3';
}

/** What the desk read through the Store API for a call; a part that could not be read says why instead. */
export interface StorefrontSnapshot {
  readAt: string;
  cart: StorefrontCart | null;
  cartError: string | null;
  order: StorefrontOrder | null;
  orderError: string | null;
}

/** The few fields of a snapshot that every call update carries (realtime events are small). */
export interface StorefrontSummary {
  readAt: string;
  items_count: number | null;
  total_price: string | null;
  orderId: number | null;
  currency: StoreCurrency | null;
}
