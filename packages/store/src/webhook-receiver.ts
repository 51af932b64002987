import {
  type HeaderSource,
  type IdempotencyStore,
  IdempotencyStoreError,
  MemoryIdempotencyStore,
  type ReserveResult,
  readHeader,
  ValidationError,
} from '@x/core';
import { parseWebhook, type WebhookEvent } from './webhooks.js';

/**
 * Receiving WooCommerce deliveries once each. A delivery can arrive twice (a proxy or load balancer that
 * retries, a receiver that answered after WooCommerce's 60 s timeout, a replay), so each one is claimed in a
 * store before its handler runs: the first claim runs it, later ones are answered as duplicates.
 *
 * The key is `X-WC-Webhook-Delivery-ID` together with the signature (the HMAC of the body). The id alone is
 * not unique: WooCommerce makes it `wp_hash( $this->get_id() . strtotime( 'now' ) )`
 * (plugins/woocommerce/includes/class-wc-webhook.php get_new_delivery_id()), so two deliveries of one
 * webhook in the same second share it; their bodies, and so their signatures, differ. An identical body
 * under the same id is the same delivery.
 *
 * The store is core's `IdempotencyStore`: `MemoryDeliveryStore` (this module, bounded) by default, and
 * `RedisIdempotencyStore` from `@x/core/redis` for receivers in several processes. A handler that throws
 * gives its claim back, so the next arrival of that delivery runs again; a process that dies mid-handler
 * holds it only until `leaseMs` ends.
 */

export interface WebhookReceiverOptions {
  /** The webhook's secret (the one given to `webhooks.create`). */
  secret: string;
  /** Where claims are kept. Default: a `MemoryDeliveryStore` of this receiver (one process). */
  store?: IdempotencyStore;
  /** How long a handled delivery is remembered. Default 24 h. */
  ttlMs?: number;
  /** How long a claim holds while its handler runs (a crashed process's claim frees after this). Default 5 min. */
  leaseMs?: number;
}

/** A delivery with data (not the creation ping). */
export type WebhookDeliveryEvent = Exclude<WebhookEvent, { topic: 'ping' }>;

export type ReceiveResult =
  /** The handler ran and returned. Answer 200. */
  | { status: 'processed'; httpStatus: 200; deliveryId: string; event: WebhookDeliveryEvent }
  /** Seen before (`done`) or being handled elsewhere right now (`pending`); the handler did not run. Answer 200. */
  | { status: 'duplicate'; httpStatus: 200; deliveryId: string; state: 'done' | 'pending' }
  /** The unsigned creation ping (`webhook_id=<id>`). Answer 200. */
  | { status: 'ping'; httpStatus: 200; webhookId: number }
  /** Not a valid delivery (signature, topic, body, delivery id); the handler did not run. */
  | { status: 'rejected'; httpStatus: 400 | 401; error: ValidationError };

export type DeliveryHandler = (event: WebhookDeliveryEvent) => unknown;

const DAY_MS = 86_400_000;
// Constant: the key already names the delivery; a record under it is always the same delivery.
const FINGERPRINT = 'wc-delivery-v1';
// WooCommerce's id is a 32-hex-digit wp_hash(); anything printable up to 200 characters is accepted.
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

function positive(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new ValidationError('WebhookReceiver options', [
    { path: field, message: 'expected a positive number' },
  ]);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Verifies, deduplicates and hands each delivery to a handler once. One per webhook secret. */
export class WebhookReceiver {
  readonly #secret: string;
  readonly #store: IdempotencyStore;
  readonly #ttlMs: number;
  readonly #leaseMs: number;

  constructor(options: WebhookReceiverOptions) {
    if (typeof options?.secret !== 'string' || options.secret === '') {
      throw new ValidationError('WebhookReceiver options', [
        { path: 'secret', message: 'expected the webhook secret, a non-empty string' },
      ]);
    }
    this.#secret = options.secret;
    this.#ttlMs = positive(options.ttlMs, 'ttlMs', DAY_MS);
    this.#leaseMs = positive(options.leaseMs, 'leaseMs', 300_000);
    this.#store = options.store ?? new MemoryDeliveryStore();
  }

  /**
   * Verifies the delivery (`parseWebhook`), then runs `handler` unless this delivery was handled before.
   * Pass the body exactly as received. Resolves to a typed result for any input; rejects only with what the
   * handler threw (after giving its claim back) or `IdempotencyStoreError` when the store fails (the
   * handler did not run: answer 5xx so the delivery counts as failed rather than lost).
   */
  async receive(
    rawBody: string | Uint8Array,
    headers: HeaderSource,
    handler: DeliveryHandler,
  ): Promise<ReceiveResult> {
    let event: WebhookEvent;
    try {
      if (typeof headers !== 'object' || headers === null) {
        throw new ValidationError('webhook delivery', [{ path: 'headers', message: 'expected headers' }]);
      }
      if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
        throw new ValidationError('webhook delivery', [
          { path: 'body', message: 'expected a string or bytes' },
        ]);
      }
      event = await parseWebhook(rawBody, headers, this.#secret);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const badSignature = error.issues?.some((i) => i.path === 'x-wc-webhook-signature');
      return { status: 'rejected', httpStatus: badSignature ? 401 : 400, error };
    }
    if (event.topic === 'ping') return { status: 'ping', httpStatus: 200, webhookId: event.webhookId };
    const deliveryId = event.deliveryId;
    if (deliveryId === undefined || !DELIVERY_ID.test(deliveryId)) {
      const error = new ValidationError('webhook delivery', [
        { path: 'x-wc-webhook-delivery-id', message: 'missing or not 1 to 200 printable characters' },
      ]);
      return { status: 'rejected', httpStatus: 400, error };
    }
    const signature = readHeader(headers, 'x-wc-webhook-signature') ?? '';
    const key = await sha256Hex(`wc-delivery:${event.webhookId ?? ''}:${deliveryId}:${signature}`);
    const owner = crypto.randomUUID();
    const request = {
      owner,
      fingerprint: FINGERPRINT,
      sent: deliveryId,
      leaseMs: this.#leaseMs,
      ttlMs: this.#ttlMs,
    };
    let claim: ReserveResult;
    try {
      claim = await this.#store.reserve(key, request);
    } catch (cause) {
      throw new IdempotencyStoreError(`webhook delivery store ${this.#store.description} failed`, {
        keyHash: key,
        store: this.#store.description,
        cause,
      });
    }
    if (claim.outcome !== 'reserved') {
      const state = claim.outcome === 'pending' ? 'pending' : 'done';
      return { status: 'duplicate', httpStatus: 200, deliveryId, state };
    }
    try {
      await handler(event);
    } catch (error) {
      await this.#store.release(key, owner, 'unsent').catch(() => {});
      throw error;
    }
    // A failure here leaves the claim pending until its lease ends: at worst one more run, never a loss.
    await this.#store.complete(key, owner, '1', this.#ttlMs).catch(() => {});
    return { status: 'processed', httpStatus: 200, deliveryId, event };
  }
}

/**
 * Claims of one process: core's `MemoryIdempotencyStore` bounded to `maxEntries` (default 10,000, the least
 * recently changed go first), so a flood of distinct deliveries cannot grow memory without bound.
 */
export class MemoryDeliveryStore extends MemoryIdempotencyStore {
  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    super({ maxEntries: 10_000, ...options });
  }
}
