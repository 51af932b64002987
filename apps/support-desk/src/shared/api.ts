/**
 * What the app server and the page exchange: JSON bodies of `/api/*` and the realtime events. Types only;
 * the page imports nothing else from the server.
 */

/** The one private channel every open dashboard subscribes to (authorised by `POST /api/realtime/auth`). */
export const DESK_CHANNEL = 'private-support-desk';

/** Realtime event names on `DESK_CHANNEL`. */
export const DeskEvents = {
  orderUpserted: 'order-upserted',
  customerUpserted: 'customer-upserted',
  callStatus: 'call-status',
  callAnalyzed: 'call-analyzed',
} as const;

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

export interface SentenceView {
  text: string;
  start: number;
  end: number;
  sentiment: Sentiment;
  confidence: number;
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
  /** Duration-weighted mean of the sentences' sentiment, -1 (all negative) to 1 (all positive). */
  score: number;
  counts: Record<Sentiment, number>;
  safetyFlags: SafetyFlag[];
  summary: string;
  orderNumbers: string[];
  customerNames: string[];
  /** The orders found in the store for `orderNumbers`, and what was written to them. */
  orders: OrderSummary[];
  customer: CustomerSummary | null;
  noteAdded: boolean;
  customerTagged: boolean;
}

export type CallStatus = 'receiving' | 'uploading' | 'transcribing' | 'analysing' | 'done' | 'error';

export interface CallView {
  id: string;
  name: string;
  source: 'upload' | 'sample';
  status: CallStatus;
  /** 0..1 of the current stage that reports progress (the upload to the transcription service). */
  progress: number;
  createdAt: string;
  transcriptId: string | null;
  error: string | null;
  /** How completion was learnt: the transcription webhook, or polling when the webhook did not come. */
  completedBy: 'webhook' | 'polling' | null;
  /** Present once `status` is `done`: the summary fields; `GET /api/calls/:id` has the sentences. */
  overall: Sentiment | null;
  summary: string | null;
}

export interface CallDetail extends CallView {
  analysis: CallAnalysis | null;
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
  services: { store: string; transcription: string; realtime: string };
}

/** Every error the API answers, whatever the status. */
export interface ApiErrorBody {
  error: { message: string; status: number; code?: string; issues?: { path: string; message: string }[] };
}
