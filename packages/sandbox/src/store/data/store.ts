import type { Persister } from '../../kit/persistence.js';
import type { RateLimit } from '../../kit/rate-windows.js';
import { Changes } from './changes.js';
import { type KeyRecord, randomAlnum, type StoreKey } from './keys.js';
import type { StoreState } from './tables.js';
import { type Collection, createEmptyState, serializeState } from './tables.js';

/** The versions the emulated install reports (order `version`, webhook User-Agent, system status). */
export const WC_VERSION = '10.3.5';
export const WP_VERSION = '6.8.3';

export interface ResolvedStoreOptions {
  strictHttps: boolean;
  rateLimit: RateLimit | false;
  batchLimit: number;
  maxBodyBytes: number;
  seed: 'demo' | 'none';
}

export type WebhookResource = 'order' | 'product' | 'customer' | 'coupon';
export type WebhookEvent = 'created' | 'updated' | 'deleted' | 'restored';

/**
 * Where the install's webhook events go. The model only says what happened; the emulator wires in the
 * deliverer (webhooks/delivery.ts), which finds the subscribed webhooks and builds their payloads.
 */
export interface WebhookOutbox {
  /** `resource.event` happened to record `id`: queue it for every active webhook with that topic. */
  publish(resource: WebhookResource, event: WebhookEvent, id: number): void;
  /** WC_Webhook::deliver_ping() to a new webhook's URL. */
  ping(webhookId: number, url: string): void;
  /** Resolves once every queued delivery has settled. */
  idle(): Promise<void>;
  close(): void;
}

/** A store nobody wired a deliverer into (a model under a unit test): events go nowhere. */
const NO_DELIVERIES: WebhookOutbox = {
  publish() {},
  ping() {},
  idle: () => Promise.resolve(),
  close() {},
};

/** The emulated WooCommerce install: state, API keys, webhooks, persistence. */
export class Store {
  state: StoreState;
  homeUrl = 'http://127.0.0.1';
  readonly keys: KeyRecord[];
  readonly options: ResolvedStoreOptions;
  /** Set by the emulator (see WebhookOutbox). */
  deliverer: WebhookOutbox = NO_DELIVERIES;
  /** Set with a data file: each write is journalled before it is answered (see commit()). */
  persister: Persister | null = null;
  /** What model writes touched since the last commit(). */
  readonly changes = new Changes();
  /** The latest append or compaction commit() started. */
  private durable: Promise<void> = Promise.resolve();
  /** Re-seeds after reset(); installed by the app. */
  seeder: ((store: Store) => void) | null = null;

  constructor(options: ResolvedStoreOptions, keys: StoreKey[], state?: StoreState) {
    this.options = options;
    this.state = state ?? createEmptyState();
    this.keys = keys.map((k, i) => ({ ...k, keyId: i + 1, userId: 1, nonces: new Map() }));
  }

  findKey(consumerKey: string): KeyRecord | undefined {
    return this.keys.find((k) => k.consumerKey === consumerKey);
  }

  /** rest_url() for a namespace-relative path, e.g. `/products/12`. */
  restUrl(path: string): string {
    return `${this.homeUrl}/wp-json/wc/v3${path}`;
  }

  /** WordPress stores dates with second precision. */
  now(): number {
    return Math.floor(Date.now() / 1000) * 1000;
  }

  /**
   * Model writes call this for every record they change or delete (the ids in `collection`). Without arguments
   * it means "anything may have changed", and the next commit writes a whole snapshot: slower, never wrong.
   */
  changed(collection?: Collection, ...ids: number[]): void {
    if (collection === undefined) this.changes.everything = true;
    else for (const id of ids) this.changes.mark(collection, id);
  }

  /**
   * Makes what changed since the last commit durable: one journal entry (or a snapshot after a reset), fsynced.
   * The request pipeline awaits it before answering, so an acknowledged write survives a crash.
   */
  commit(): Promise<void> {
    if (!this.persister) {
      this.changes.clear();
      return Promise.resolve();
    }
    if (this.changes.everything) {
      this.changes.clear();
      this.durable = this.persister.compact();
      return this.durable;
    }
    const entry = this.changes.take(this.state);
    if (entry) {
      this.durable = this.persister.append(entry);
      return this.durable;
    }
    // Nothing new, but a background commit (a webhook's failure count) may have taken this request's marks:
    // appends complete in order, so waiting for the latest one covers them. Its failure is not this request's.
    return this.durable.catch(() => {});
  }

  /** Tells the deliverer `resource.event` happened to `id` (deliveries go out asynchronously). */
  emit(resource: WebhookResource, event: WebhookEvent, id: number): void {
    this.deliverer.publish(resource, event, id);
  }

  reset(): void {
    this.state = createEmptyState();
    for (const k of this.keys) k.nonces.clear();
    this.seeder?.(this);
    this.changed();
  }

  /** The whole state as data-file text; `journal` is the last journal entry it includes. */
  snapshot(journal = 0): string {
    return serializeState(this.state, journal);
  }

  newOrderKey(): string {
    return `wc_order_${randomAlnum(13)}`;
  }
}
