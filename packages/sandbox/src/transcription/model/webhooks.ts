import { postWebhook, webhookHeaders } from './webhook-post.js';

export interface WebhookOptions {
  /** Delivery attempts in all. Default 10, as the service. */
  attempts: number;
  /** Between attempts. Default 10 s, as the service. */
  retryDelayMs: number;
  /** The receiver must answer within this. Default 10 s, as the service. */
  timeoutMs: number;
}

export interface WebhookDelivery {
  url: string;
  body: unknown;
  /** The header the caller registered (`webhook_auth_header_name`/`_value`), if any. */
  authHeader: { name: string; value: string } | null;
  /** Every attempt's HTTP status (null when no answer came), for `webhook_status_code`. */
  onStatus(status: number | null): void;
}

/**
 * The service's webhook delivery: a JSON POST after a job ends, retried while the receiver fails or does
 * not answer in time, but never after a 4xx (the receiver said the request itself is wrong). Runs in the
 * background; `close()` stops pending retries.
 */
export class WebhookSender {
  readonly #options: WebhookOptions;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stop = new AbortController();

  constructor(options: WebhookOptions) {
    this.#options = options;
  }

  send(delivery: WebhookDelivery): void {
    if (this.#stop.signal.aborted) return;
    const task = this.#deliver(delivery).finally(() => this.#inFlight.delete(task));
    this.#inFlight.add(task);
  }

  async #deliver(delivery: WebhookDelivery): Promise<void> {
    let headers: (readonly [string, string])[];
    try {
      headers = webhookHeaders(delivery.authHeader);
    } catch {
      // Requests are checked before they are accepted; only a hand-edited data file gets here, and no
      // receiver could be sent such a header, so no attempt is made.
      delivery.onStatus(null);
      return;
    }
    const body = JSON.stringify(delivery.body);
    for (let attempt = 1; attempt <= this.#options.attempts; attempt++) {
      if (this.#stop.signal.aborted) return;
      let status: number | null = null;
      try {
        status = await postWebhook(
          delivery.url,
          headers,
          body,
          AbortSignal.any([this.#stop.signal, AbortSignal.timeout(this.#options.timeoutMs)]),
        );
      } catch {
        status = null;
      }
      delivery.onStatus(status);
      if (status !== null && status >= 200 && status < 300) return;
      if (status !== null && status >= 400 && status < 500) return;
      if (attempt < this.#options.attempts) await this.#sleep(this.#options.retryDelayMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.#stop.signal;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
  }

  /** Resolves when every delivery has finished (succeeded, given up, or stopped). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  async close(): Promise<void> {
    this.#stop.abort();
    await this.idle();
  }
}
