import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { Emulator, EmulatorHandle, NodeEnv } from '../kit/emulator.js';
import { FaultQueue } from '../kit/faults.js';
import { DataFileError, Persister } from '../kit/persistence.js';
import { type RateLimit, RateWindows } from '../kit/rate-windows.js';
import { RequestStats, type StatsSnapshot } from '../kit/stats.js';
import { applyEntry } from './data/changes.js';
import { generateKey, STORE_DEV_KEYS, type StoreKey } from './data/keys.js';
import { type ResolvedStoreOptions, Store } from './data/store.js';
import { deserializeState } from './data/tables.js';
import { webhookPayload } from './present/webhook-payloads.js';
import type { StoreFault } from './rest/faults.js';
import { handleRequest, type Site } from './rest/request.js';
import { criticalError, errorResult, toResponse, withCors } from './rest/respond.js';
import { Router } from './rest/router.js';
import { registerRoutes } from './routes/index.js';
import { isStoreApiRequest, withStoreApiCors } from './routes/store-api/cors.js';
import { registerStoreApi, type StoreApiRateLimit } from './routes/store-api/index.js';
import { seedDemo } from './system/seed.js';
import { WebhookDeliverer } from './webhooks/delivery.js';

export type { StoreFault };

export interface StoreEmulatorOptions {
  /** Reproduce WooCommerce's is_ssl() gate: over plain HTTP, Basic and query keys are ignored (anonymous → 401). */
  strictHttps?: boolean;
  /** Per consumer key, sliding window. Default `{ limit: 500, intervalMs: 60_000 }`. */
  rateLimit?: RateLimit | false;
  /** Max create+update+delete items per batch request. Default 100. */
  batchLimit?: number;
  /** Max request body size in bytes. Default 8 MiB. */
  maxBodyBytes?: number;
  /** Keys to accept; each permission (`read`, `write`, `read_write`) not covered gets a dev key. */
  keys?: StoreKey[];
  /** Fill the permissions `keys` leaves out with generated keys instead of the fixed `STORE_DEV_KEYS`. */
  randomKeys?: boolean;
  /** Default `'none'`. */
  seed?: 'demo' | 'none';
  /** The Store API (`/wp-json/wc/store/v1`). */
  storeApi?: StoreApiEmulatorOptions;
}

export interface StoreApiEmulatorOptions {
  /** How long a cart and its `Cart-Token` live (`wc_session_expiration`). Default 2 days, as WooCommerce. */
  cartTokenTtlSeconds?: number;
  /**
   * StoreApi/Utilities/RateLimits.php: off by default; `true` is WooCommerce's 25 POST requests per 10 seconds
   * per client address, or give your own.
   */
  rateLimit?: boolean | Partial<StoreApiRateLimit>;
  /**
   * Origins a storefront page may call the Store API from before it holds a cart token (the
   * `allowed_http_origins` filter), besides the sandbox's own; `'*'` allows any. Default none.
   */
  allowedOrigins?: string[] | '*';
}

function storeApiSettings(o: StoreApiEmulatorOptions = {}) {
  const rl = o.rateLimit;
  return {
    ttlSeconds: o.cartTokenTtlSeconds ?? 2 * 86_400,
    allowedOrigins: o.allowedOrigins ?? [],
    rateLimit: rl ? { limit: 25, seconds: 10, ...(rl === true ? {} : rl) } : (false as const),
  };
}

export interface StoreSandbox extends EmulatorHandle<StoreFault, StatsSnapshot> {
  consumerKey: string;
  consumerSecret: string;
  keys: { read: StoreKey; write: StoreKey; read_write: StoreKey };
  /** Empty state (keys kept), re-seeded when seeded; resolves once a data file holds the reset state. */
  reset(): Promise<void>;
}

type Bindings = { incoming?: IncomingMessage };

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

function resolveOptions(o: StoreEmulatorOptions): ResolvedStoreOptions {
  return {
    strictHttps: o.strictHttps ?? false,
    rateLimit: o.rateLimit === undefined ? { limit: 500, intervalMs: 60_000 } : o.rateLimit,
    batchLimit: o.batchLimit ?? 100,
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY,
    seed: o.seed ?? 'none',
  };
}

function resolveKeys(o: StoreEmulatorOptions): StoreKey[] {
  const keys = [...(o.keys ?? [])];
  for (const perm of ['read', 'write', 'read_write'] as const) {
    if (keys.some((k) => k.permissions === perm)) continue;
    keys.push(o.randomKeys ? generateKey(perm) : { ...STORE_DEV_KEYS[perm] });
  }
  return keys;
}

/**
 * Mounted at `/`: WordPress routes from the root (`/wp-json/...` and `/?rest_route=`). `close()` flushes
 * persistence and stops webhook deliveries.
 */
export interface StoreEmulator extends Emulator<StoreSandbox> {
  /** `fetch` as a Hono app, to mount on another Hono server with `root.route('/', app)`. */
  app: Hono<{ Bindings: Bindings }>;
  fetch(request: Request, env?: NodeEnv): Promise<Response>;
  store: Store;
}

/**
 * Loads `file` (snapshot, then the journal entries it does not include yet) or seeds a first start, then makes
 * the store journal its writes there. Anything unreadable stops the start with the file and the fault named.
 */
async function openDataFile(store: Store, file: string): Promise<void> {
  const { persister, recovered } = await Persister.open(file);
  for (const note of recovered.notes) process.stderr.write(`x-sandbox: ${note}\n`);
  let journal = 0;
  if (recovered.snapshot !== null) {
    const loaded = deserializeState(recovered.snapshot, file);
    store.state = loaded.state;
    journal = loaded.journal;
  } else if (recovered.journal.length > 0) {
    // Entries only make sense on top of the snapshot they follow; starting without it would lose data quietly.
    throw new DataFileError(persister.journalFile, `it has entries but ${file} is missing`);
  } else store.seeder?.(store);
  for (const rec of recovered.journal) {
    if (rec.seq <= journal) continue;
    try {
      applyEntry(store.state, rec.entry);
    } catch (err) {
      throw new DataFileError(persister.journalFile, `line ${rec.line}: ${(err as Error).message}`);
    }
  }
  await persister.start((seq) => store.snapshot(seq), journal);
  store.persister = persister;
}

/** Builds the WooCommerce REST API v3 emulator as a mountable Hono sub-app. */
export async function createStoreEmulator(
  options: StoreEmulatorOptions = {},
  init: { dataFile?: string } = {},
): Promise<StoreEmulator> {
  const resolved = resolveOptions(options);
  // Built before the state is loaded, so an impossible rate limit fails before any file is touched.
  const windows = new RateWindows(resolved.rateLimit);
  const store = new Store(resolved, resolveKeys(options));
  // The model publishes plain events; deliveries carry what the REST API presents.
  store.deliverer = new WebhookDeliverer(store, (resource, id) => webhookPayload(store, resource, id));
  if (resolved.seed === 'demo') store.seeder = seedDemo;
  if (init.dataFile) await openDataFile(store, init.dataFile);
  else store.seeder?.(store);
  store.changes.clear();

  const router = new Router();
  registerRoutes(router, store);
  const storeApi = storeApiSettings(options.storeApi);
  registerStoreApi(router, storeApi);
  const site: Site = {
    store,
    router,
    faults: new FaultQueue<StoreFault>(),
    windows,
    stats: new RequestStats(),
  };

  const app = new Hono<{ Bindings: Bindings }>();
  app.all('*', async (c) => {
    try {
      const res = await handleRequest(site, c.req.raw, c.env?.incoming);
      // The Store API sends its own CORS headers instead of WordPress's (routes/store-api/cors.ts).
      if (isStoreApiRequest(c.req.raw)) return withStoreApiCors(store, storeApi, c.req.raw, res);
      return withCors(c.req.raw, res);
    } catch (err) {
      return withCors(c.req.raw, toResponse(errorResult(err, `${c.req.method} ${c.req.path}`), 'GET'));
    }
  });

  const byPerm = (perm: StoreKey['permissions']): StoreKey => {
    const k = store.keys.find((x) => x.permissions === perm)!;
    return { consumerKey: k.consumerKey, consumerSecret: k.consumerSecret, permissions: k.permissions };
  };
  const rw = byPerm('read_write');
  const handle: StoreSandbox = {
    get url() {
      return store.homeUrl;
    },
    consumerKey: rw.consumerKey,
    consumerSecret: rw.consumerSecret,
    keys: { read: byPerm('read'), write: byPerm('write'), read_write: rw },
    injectFault: (fault) => site.faults.inject(fault),
    stats: () => site.stats.snapshot(),
    resetStats: () => site.stats.reset(),
    async reset() {
      site.faults.clear();
      site.windows.clear();
      store.reset();
      // The reset state's snapshot, as a write's journal entry: on disk before the caller goes on.
      await store.commit();
    },
  };

  return {
    name: 'store',
    prefixes: ['/'],
    app,
    fetch: async (request, env) => app.fetch(request, env),
    // The server's last guard (the catch-all above answers a handler's crash itself): WordPress's critical error.
    internalError: () => toResponse(criticalError(), 'GET'),
    store,
    handle,
    setHomeUrl(url: string) {
      store.homeUrl = url.replace(/\/+$/, '');
    },
    async close() {
      store.deliverer.close();
      await store.commit().catch(() => {});
      await store.persister?.close();
    },
  };
}
