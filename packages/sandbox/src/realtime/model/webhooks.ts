import { hmacHex } from '../protocol/signatures.js';
import type { RealtimeApp } from './apps.js';

/** One webhook event: `channel_occupied`, `member_added`, `client_event`, ... with the fields Pusher sends. */
export interface WebhookEvent {
  name: string;
  channel: string;
  [field: string]: unknown;
}

export interface RealtimeWebhookOptions {
  /** How long a batching app's events are collected before one POST. Default 50 ms. */
  batchWindowMs: number;
  /**
   * Events per batched POST at most; a full batch goes out at once. Default 20, as Pusher: "Webhooks are batched
   * for a maximum of 250ms or until 20 webhook events have been added to the batch"
   * (https://support.pusher.com/hc/en-us/articles/4412243470225-What-Is-The-Batch-Size-and-Batch-Window-For-Channels-Webhooks-).
   */
  maxBatchEvents: number;
  /** Attempts per POST in all. Default 8 (Pusher retries for 5 minutes; the sandbox gives up sooner). */
  attempts: number;
  /** First retry delay, doubled each time up to `maxRetryDelayMs`. Default 1000 ms. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** The receiver must answer within this. Default 10 s. */
  timeoutMs: number;
}

/** What decides when a webhook is emitted, rather than how it is delivered. */
export interface RealtimeWebhookTiming {
  /**
   * `member_removed` and `channel_vacated` wait this long, and are dropped (with the `member_added` /
   * `channel_occupied` that would follow) when the user or channel comes back in time. Default 3000 ms, as
   * Pusher; 0 sends them at once.
   */
  leaveDelayMs: number;
}

export interface WebhookStats {
  /** POSTs answered with 2xx. */
  delivered: number;
  /** Attempts that got a non-2xx status or no answer. */
  failedAttempts: number;
  /** POSTs dropped after the last attempt failed. */
  abandoned: number;
}

/** The delay before attempt `attempt + 1` (1-based): exponential from `retryDelayMs`, capped. */
export function webhookRetryDelay(options: RealtimeWebhookOptions, attempt: number): number {
  return Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** (attempt - 1));
}

/**
 * Webhook delivery as Pusher does it: a signed JSON POST (`X-Pusher-Key`, `X-Pusher-Signature` = hex HMAC-SHA256
 * of the raw body with the app secret), one event per POST unless the app batches, retried with backoff on any
 * non-2xx answer. Runs in the background; `idle()` waits for it, `close()` stops pending retries.
 */
export class WebhookDispatcher {
  readonly #options: RealtimeWebhookOptions;
  readonly #pending = new Map<RealtimeApp, { events: WebhookEvent[]; timer: NodeJS.Timeout }>();
  readonly #inFlight = new Set<Promise<void>>();
  #stop = new AbortController();
  #stats: WebhookStats = { delivered: 0, failedAttempts: 0, abandoned: 0 };

  constructor(options: RealtimeWebhookOptions) {
    this.#options = options;
  }

  emit(app: RealtimeApp, event: WebhookEvent): void {
    const target = app.webhooks;
    if (!target || this.#stop.signal.aborted) return;
    if (!target.batch) {
      this.#post(app, [event]);
      return;
    }
    const pending = this.#pending.get(app);
    if (pending) {
      pending.events.push(event);
      if (pending.events.length >= this.#options.maxBatchEvents) this.#flush(app);
      return;
    }
    if (this.#options.maxBatchEvents === 1) {
      this.#post(app, [event]);
      return;
    }
    const timer = setTimeout(() => this.#flush(app), this.#options.batchWindowMs);
    this.#pending.set(app, { events: [event], timer });
  }

  #flush(app: RealtimeApp): void {
    const pending = this.#pending.get(app);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(app);
    this.#post(app, pending.events);
  }

  #post(app: RealtimeApp, events: WebhookEvent[]): void {
    const task = this.#deliver(app, events).finally(() => this.#inFlight.delete(task));
    this.#inFlight.add(task);
  }

  async #deliver(app: RealtimeApp, events: WebhookEvent[]): Promise<void> {
    const url = app.webhooks?.url;
    if (!url) return;
    const body = JSON.stringify({ time_ms: Date.now(), events });
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'x-sandbox-realtime-webhook',
      'X-Pusher-Key': app.key,
      'X-Pusher-Signature': hmacHex(app.secret, body),
    };
    const signal = this.#stop.signal;
    for (let attempt = 1; attempt <= this.#options.attempts; attempt++) {
      if (signal.aborted) return;
      let ok = false;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.any([signal, AbortSignal.timeout(this.#options.timeoutMs)]),
        });
        ok = response.status >= 200 && response.status < 300;
        await response.body?.cancel().catch(() => {});
      } catch {
        ok = false;
      }
      if (ok) {
        this.#stats.delivered += 1;
        return;
      }
      this.#stats.failedAttempts += 1;
      if (attempt < this.#options.attempts) await this.#sleep(webhookRetryDelay(this.#options, attempt));
    }
    if (!signal.aborted) this.#stats.abandoned += 1;
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#stop.signal;
    return new Promise((resolve) => {
      // The stop that aborted this POST has already fired: an 'abort' listener added now would never run.
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
    });
  }

  stats(): WebhookStats {
    return { ...this.#stats };
  }

  /** Resolves when no batch is waiting and every POST has been delivered or given up. */
  async idle(): Promise<void> {
    for (;;) {
      for (const app of [...this.#pending.keys()]) this.#flush(app);
      if (this.#inFlight.size === 0) return;
      await Promise.all([...this.#inFlight]);
    }
  }

  /** Drops waiting batches and stops retries; later events are delivered again. */
  async reset(): Promise<void> {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    this.#stop.abort();
    await Promise.all([...this.#inFlight]);
    this.#stop = new AbortController();
    this.#stats = { delivered: 0, failedAttempts: 0, abandoned: 0 };
  }

  async close(): Promise<void> {
    for (const app of [...this.#pending.keys()]) this.#flush(app);
    this.#stop.abort();
    await Promise.all([...this.#inFlight]);
  }
}
