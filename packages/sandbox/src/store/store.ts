import { randomBytes } from 'node:crypto';
import type { KeyRecord, StoreKey } from './auth.js';
import { createEmptyState, type Persister, type StoreState, serializeState } from './state.js';
import { randomAlnum } from './util.js';
import { WebhookDeliverer } from './webhooks-delivery.js';

export interface StoreFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  times?: number;
  method?: string;
  path?: string | RegExp;
  resetConnection?: boolean;
  /** Emulator extension: after `delayMs`, let the request through to the normal handler (a slow response). */
  passThrough?: boolean;
  /** Emulator extension: drop the Authorization header before authentication (hosts that strip it). */
  stripAuthorization?: boolean;
}

export interface ResolvedStoreOptions {
  strictHttps: boolean;
  rateLimit: { limit: number; intervalMs: number } | false;
  batchLimit: number;
  maxBodyBytes: number;
  seed: 'demo' | 'none';
}

export type WebhookResource = 'order' | 'product' | 'customer';
export type WebhookEvent = 'created' | 'updated' | 'deleted' | 'restored';

const ARRIVALS_CAP = 100_000;

export function generateKey(permissions: StoreKey['permissions']): StoreKey {
  return {
    consumerKey: `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
    permissions,
  };
}

/** The emulated WooCommerce install: state, API keys, limiter, injected faults, webhooks, persistence. */
export class Store {
  state: StoreState;
  homeUrl = 'http://127.0.0.1';
  readonly keys: KeyRecord[];
  readonly options: ResolvedStoreOptions;
  readonly presenters: Partial<Record<WebhookResource, (id: number) => unknown>> = {};
  readonly deliverer: WebhookDeliverer;
  persister: Persister | null = null;
  /** Re-seeds after reset(); installed by the app. */
  seeder: ((store: Store) => void) | null = null;

  private faults: { fault: StoreFault; remaining: number }[] = [];
  private windows = new Map<string, number[]>();
  private counters = { requests: 0, rateLimited: 0 };
  private arrivals: number[] = [];

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

  changed(): void {
    this.persister?.schedule();
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
    this.faults = [];
    this.windows.clear();
    this.seeder?.(this);
    this.changed();
  }

  // ---- faults -------------------------------------------------------------------------------------------

  injectFault(fault: StoreFault): void {
    const times = fault.times ?? 1;
    if (times > 0) this.faults.push({ fault, remaining: times });
  }

  /** Takes (consumes one use of) the first fault matching this request. */
  takeFault(method: string, wcRoute: string, predicate: (f: StoreFault) => boolean): StoreFault | null {
    for (let i = 0; i < this.faults.length; i++) {
      const entry = this.faults[i]!;
      const f = entry.fault;
      if (!predicate(f)) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (f.path !== undefined) {
        if (typeof f.path === 'string' ? f.path !== wcRoute : !f.path.test(wcRoute)) continue;
      }
      entry.remaining -= 1;
      if (entry.remaining <= 0) this.faults.splice(i, 1);
      return f;
    }
    return null;
  }

  // ---- rate limit & stats -------------------------------------------------------------------------------

  /** Sliding window: at most `limit` accepted requests in any `intervalMs`. Returns ms to wait, or 0 if accepted. */
  rateLimit(bucket: string, now: number): number {
    const rl = this.options.rateLimit;
    if (!rl) return 0;
    let window = this.windows.get(bucket);
    if (!window) {
      window = [];
      this.windows.set(bucket, window);
    }
    const cutoff = now - rl.intervalMs;
    let drop = 0;
    while (drop < window.length && window[drop]! <= cutoff) drop++;
    if (drop > 0) window.splice(0, drop);
    if (window.length >= rl.limit) {
      this.counters.rateLimited += 1;
      return Math.max(1, window[0]! + rl.intervalMs - now);
    }
    window.push(now);
    return 0;
  }

  countRequest(): void {
    this.counters.requests += 1;
  }

  recordArrival(t: number): void {
    this.arrivals.push(t);
    if (this.arrivals.length > ARRIVALS_CAP + 10_000)
      this.arrivals.splice(0, this.arrivals.length - ARRIVALS_CAP);
  }

  stats(): { requests: number; rateLimited: number; arrivals: number[] } {
    return { ...this.counters, arrivals: this.arrivals.slice(-ARRIVALS_CAP) };
  }

  resetStats(): void {
    this.counters = { requests: 0, rateLimited: 0 };
    this.arrivals = [];
  }

  snapshot(): string {
    return serializeState(this.state);
  }

  newOrderKey(): string {
    return `wc_order_${randomAlnum(13)}`;
  }
}
