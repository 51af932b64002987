import {
  type ApiErrorBody,
  type CallDetail,
  type CallView,
  type CustomerSummary,
  type DeskConfig,
  LIVE_CALL_KEY_HEADER,
  type LiveCallStart,
  type LiveTurnInput,
  type OrderSummary,
  type StorefrontSnapshot,
} from '../shared/api.js';

/** An error the server answered with its JSON body (or a network failure), shown on the page as it is. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    /** From `Retry-After` on a 429: when to try again. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

function fromBody(status: number, text: string, retryAfter?: string | null): ApiError {
  const seconds = Number(retryAfter);
  const retryAfterMs = retryAfter && Number.isFinite(seconds) ? seconds * 1000 : undefined;
  try {
    const { error } = JSON.parse(text) as ApiErrorBody;
    return new ApiError(error.message, error.status ?? status, error.code, retryAfterMs);
  } catch {
    return new ApiError(
      `The server answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`,
      status,
      undefined,
      retryAfterMs,
    );
  }
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(
      `Could not reach the app server (${error instanceof Error ? error.message : error})`,
      0,
    );
  }
  const text = await response.text();
  if (!response.ok) throw fromBody(response.status, text, response.headers.get('Retry-After'));
  return JSON.parse(text) as T;
}

export const api = {
  config: () => request<DeskConfig>('/api/config'),
  orders: () => request<{ orders: OrderSummary[] }>('/api/orders').then((r) => r.orders),
  customers: () => request<{ customers: CustomerSummary[] }>('/api/customers').then((r) => r.customers),
  calls: () => request<{ calls: CallView[] }>('/api/calls').then((r) => r.calls),
  call: (id: string) => request<CallDetail>(`/api/calls/${encodeURIComponent(id)}`),
  sample: (input: { orderId?: number; mood: 'unhappy' | 'happy' }) =>
    request<{ call: CallView }>('/api/calls/sample', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
    }).then((r) => r.call),
  /** The call's linked cart and order as last read (null before a support code links them). */
  storefront: (id: string) => request<StorefrontLinked>(`/api/calls/${encodeURIComponent(id)}/storefront`),
  /** Links the call to the cart behind the customer's support code, read through the Store API. */
  linkStorefront: (id: string, code: string) =>
    request<StorefrontLinked>(`/api/calls/${encodeURIComponent(id)}/storefront`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code }),
    }),
  /** Reads the linked cart and order again. */
  refreshStorefront: (id: string) =>
    request<StorefrontLinked>(`/api/calls/${encodeURIComponent(id)}/storefront/refresh`, { method: 'POST' }),
};

/** What the storefront routes answer: the call (with its new summary) and the snapshot. */
export interface StorefrontLinked {
  call: CallView;
  cart: StorefrontSnapshot | null;
}

/** What a live call asks of the app server; `base` is its URL (empty in the page, which it served). */
export interface LiveCallApi {
  start(): Promise<LiveCallStart>;
  token(id: string, key: string): Promise<{ token: string; expires_in_seconds: number }>;
  relay(id: string, key: string, body: { socket_id?: string; turns: LiveTurnInput[] }): Promise<unknown>;
  end(
    id: string,
    key: string,
    body: { session_id?: string; audio_duration_seconds?: number },
  ): Promise<{ call: CallView }>;
}

export function liveCallApi(base = ''): LiveCallApi {
  const post = <T>(path: string, key: string | null, body: unknown) =>
    request<T>(`${base}/api/live-calls${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { [LIVE_CALL_KEY_HEADER]: key } : {}) },
      body: JSON.stringify(body),
      // The end of a call must arrive even when the tab is closing.
      keepalive: path.endsWith('/end'),
    });
  const at = (id: string, what: string) => `/${encodeURIComponent(id)}/${what}`;
  return {
    start: () => post('', null, {}),
    token: (id, key) => post(at(id, 'token'), key, {}),
    relay: (id, key, body) => post(at(id, 'turns'), key, body),
    end: (id, key, body) => post(at(id, 'end'), key, body),
  };
}

/**
 * Uploads a recording with XMLHttpRequest, the one browser API that reports upload progress
 * (`fetch` does not), and resolves the call the server started.
 */
export function uploadRecording(file: File, onProgress: (fraction: number) => void): Promise<CallView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/calls?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 202) resolve((JSON.parse(xhr.responseText) as { call: CallView }).call);
      else reject(fromBody(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError('The upload failed: the app server could not be reached.', 0));
    xhr.send(file);
  });
}
