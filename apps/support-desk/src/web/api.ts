import type {
  ApiErrorBody,
  CallDetail,
  CallView,
  CustomerSummary,
  DeskConfig,
  OrderSummary,
} from '../shared/api.js';

/** An error the server answered with its JSON body (or a network failure), shown on the page as it is. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

function fromBody(status: number, text: string): ApiError {
  try {
    const { error } = JSON.parse(text) as ApiErrorBody;
    return new ApiError(error.message, error.status ?? status, error.code);
  } catch {
    return new ApiError(`The server answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`, status);
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
  if (!response.ok) throw fromBody(response.status, text);
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
};

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
