import type { Persister } from '../../kit/persistence.js';
import type { RateLimit } from '../../kit/rate-windows.js';
import { randomAlnum } from '../runtime/formatting.js';
import { WebhookDeliverer } from '../webhooks/delivery.js';
import { Changes, type Collection } from './changes.js';
import type { KeyRecord, StoreKey } from './keys.js';
import type { StoreState } from './rows.js';
import { createEmptyState, serializeState } from './tables.js';

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

/** The emulated WooCommerce install: state, API keys, webhooks, persistence. */
export class Store {
  state: StoreState;
  homeUrl = 'http://127.0.0.1';
  readonly keys: KeyRecord[];
  readonly options: ResolvedStoreOptions;
  readonly presenters: Partial<Record<WebhookResource, (id: number) => unknown>> = {};
  readonly deliverer: WebhookDeliverer;
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
    this.deliverer = new WebhookDeliverer(this);
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

  /** Queues `resource.event` deliveries to every active webhook with that topic (asynchronously). */
  emit(resource: WebhookResource, event: WebhookEvent, id: number): void {
    const topic = `${resource}.${event}`;
    const hooks = [...this.state.webhooks.values()].filter((w) => w.status === 'active' && w.topic === topic);
    if (hooks.length === 0) return;
    const payload = event === 'deleted' ? { id } : (this.presenters[resource]?.(id) ?? { id });
    for (const hook of hooks) this.deliverer.deliver(hook.id, resource, event, payload);
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
