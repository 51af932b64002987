import { createHmac, randomBytes } from 'node:crypto';
import {
  type Store,
  WC_VERSION,
  type WebhookEvent,
  type WebhookOutbox,
  type WebhookResource,
  WP_VERSION,
} from '../data/store.js';
import { phpJsonEncode } from '../runtime/json.js';

const DELIVERY_TIMEOUT_MS = 60_000;
/** woocommerce_max_webhook_delivery_failures */
const MAX_FAILURES = 5;
/**
 * How much of a receiver's answer is kept (WC_Webhook::log_delivery() logs the response body). WordPress reads
 * it all (no `limit_response_size`), so a receiver streaming hundreds of MB would exhaust PHP's memory_limit in
 * the background job; the emulator keeps this prefix and hangs up on the rest.
 */
export const RESPONSE_BODY_LIMIT = 8 * 1024;

/** The last answer to a webhook's delivery or ping: its status and the first RESPONSE_BODY_LIMIT bytes. */
export interface DeliveryResponse {
  code: number;
  body: string;
}

/** Reads at most `limit` bytes of a response body and cancels the rest of the stream. */
export async function readPrefix(res: Response, limit = RESPONSE_BODY_LIMIT): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, limit - size);
      chunks.push(part);
      size += part.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A record as its REST API presents it (the upper layers know how), or null when it is gone. */
export type PayloadOf = (resource: WebhookResource, id: number) => unknown;

/** WC_Webhook::deliver(): signed JSON POSTs, sequential per webhook, never blocking the API response. */
export class WebhookDeliverer implements WebhookOutbox {
  private chains = new Map<number, Promise<void>>();
  private inflight = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private readonly responses = new Map<number, DeliveryResponse>();

  constructor(
    private readonly store: Store,
    private readonly payloadOf: PayloadOf = () => null,
  ) {}

  private userAgent(): string {
    return `WooCommerce/${WC_VERSION} Hookshot (WordPress/${WP_VERSION})`;
  }

  private enqueue(webhookId: number, task: () => Promise<void>): void {
    if (this.closing.signal.aborted) return;
    const prev = this.chains.get(webhookId) ?? Promise.resolve();
    const next = prev
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task)
      .catch(() => {});
    this.chains.set(webhookId, next);
    this.inflight.add(next);
    void next.finally(() => {
      this.inflight.delete(next);
      if (this.chains.get(webhookId) === next) this.chains.delete(webhookId);
    });
  }

  publish(resource: WebhookResource, event: WebhookEvent, id: number): void {
    const topic = `${resource}.${event}`;
    const hooks = [...this.store.state.webhooks.values()].filter(
      (w) => w.status === 'active' && w.topic === topic,
    );
    if (hooks.length === 0) return;
    // WC_Webhook::build_payload(): a deletion carries only the id.
    const payload = event === 'deleted' ? { id } : (this.payloadOf(resource, id) ?? { id });
    for (const hook of hooks) this.deliver(hook.id, resource, event, payload);
  }

  deliver(webhookId: number, resource: WebhookResource, event: WebhookEvent, payload: unknown): void {
    const body = phpJsonEncode(payload).trim();
    this.enqueue(webhookId, async () => {
      const hook = this.store.state.webhooks.get(webhookId);
      if (hook?.status !== 'active') return;
      const signature = createHmac('sha256', hook.secret).update(body, 'utf8').digest('base64');
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'User-Agent': this.userAgent(),
        'X-WC-Webhook-Source': `${this.store.homeUrl}/`,
        'X-WC-Webhook-Topic': hook.topic,
        'X-WC-Webhook-Resource': resource,
        'X-WC-Webhook-Event': event,
        'X-WC-Webhook-Signature': signature,
        'X-WC-Webhook-ID': String(hook.id),
        'X-WC-Webhook-Delivery-ID': randomBytes(16).toString('hex'),
      };
      let ok = false;
      try {
        const res = await fetch(hook.delivery_url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(DELIVERY_TIMEOUT_MS), this.closing.signal]),
        });
        await this.record(webhookId, res);
        ok = res.status >= 200 && res.status <= 302;
      } catch {
        ok = false;
      }
      if (ok || this.closing.signal.aborted) return;
      const current = this.store.state.webhooks.get(webhookId);
      if (!current) return;
      // WC_Webhook::failed_delivery(): disable once the count already exceeds the maximum, else count.
      if (current.failure_count > MAX_FAILURES) current.status = 'disabled';
      else current.failure_count += 1;
      this.store.changed('webhooks', current.id);
      // Not part of a request, so nothing else commits it; a failure to persist a counter is not worth a crash.
      await this.store.commit().catch(() => {});
    });
  }

  /** WC_Webhook::deliver_ping(): form-encoded `webhook_id=<id>`, no X-WC-Webhook-* headers. */
  ping(webhookId: number, url: string): void {
    this.enqueue(webhookId, async () => {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'User-Agent': this.userAgent(),
          },
          body: `webhook_id=${webhookId}`,
          redirect: 'manual',
          signal: AbortSignal.any([AbortSignal.timeout(DELIVERY_TIMEOUT_MS), this.closing.signal]),
        });
        await this.record(webhookId, res);
      } catch {
        // The REST create ignores the ping result.
      }
    });
  }

  /** The last response a webhook's receiver gave (bounded), if any. */
  lastResponse(webhookId: number): DeliveryResponse | undefined {
    return this.responses.get(webhookId);
  }

  private async record(webhookId: number, res: Response): Promise<void> {
    const body = await readPrefix(res).catch(() => '');
    this.responses.set(webhookId, { code: res.status, body });
    // One per webhook that still exists: a deleted webhook's log goes with it.
    if (this.responses.size > this.store.state.webhooks.size) {
      for (const id of this.responses.keys())
        if (!this.store.state.webhooks.has(id)) this.responses.delete(id);
    }
  }

  /** Resolves once every queued delivery has settled. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  close(): void {
    this.closing.abort();
  }
}
