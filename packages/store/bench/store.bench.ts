/**
 * Export every order, then update 1,000 orders, against the sandbox's per-key rate limit: `@x/store`
 * (concurrent pages + batch, behind its own limiter) vs the official `@woocommerce/woocommerce-rest-api`
 * used the way its README shows (one `api.get` per page following `x-wp-totalpages`; one `api.put` per
 * order), with the simplest retry a user would add (sleep `Retry-After`, try again), since it has none.
 *
 *   pnpm --filter @x/core --filter @x/sandbox --filter @x/store build   # once
 *   pnpm --filter @x/store bench
 *   BENCH_LIMIT=500 BENCH_INTERVAL_MS=10000 BENCH_EXPORT_ORDERS=60000 pnpm --filter @x/store bench
 *
 * The limit: WooCommerce hosts quote 500 requests per minute. Here it is 100 per 5 s (1,200/min):
 * short enough for a run of about 2.5 minutes, long enough that the limiter's default safety margin
 * (50 ms, 20 ms since core d0ddef2; `BENCH_SAFETY_MARGIN_MS` overrides it) costs at most 1% of a window. Why not 500 per 10 s: at 50 requests/s neither the sandbox (it sorts the whole collection for
 * every page) nor the clients can move pages of 100 orders that fast on 2 shared cores (~40 pages/s
 * measured), so nobody would be rate-limit-bound and "% of the ceiling" would measure the server.
 * Workloads: the export is 3 windows of pages (300 pages × 100 = 30,000 orders), so `@x/store` is
 * rate-limit-bound there; the update is 1,000 orders (10 batch calls for `@x/store`, 1,000 PUTs for the
 * README way, and, as an extra not in that README, the official client posting `orders/batch` by hand).
 *
 * Each scenario uses its own consumer key (the limit is per key), so each starts with a full allowance;
 * data is seeded with yet another key. The sandboxes run in a child process so their CPU does not delay
 * the clients' timers. Figures: wall time (client side), requests and 429s (counted by the server),
 * retries (counted by the clients) and, for rate-limit-bound runs, how much of the limit was used (see
 * metrics.ts for both definitions). No assertion on timings: this measures, it does not test.
 */
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type WooCommerceRestApiClass from '@woocommerce/woocommerce-rest-api';
import type { SandboxOptions, StoreKey } from '@x/sandbox';
import { StoreClient } from '../src/index.js';
import { busiestWindow, ceilingUse, type Limit, pacing, percent, table } from './metrics.js';
import type { ChildMessage, ChildRequest } from './sandbox-child.js';

const LIMIT: Limit = { limit: intEnv('BENCH_LIMIT', 100), intervalMs: intEnv('BENCH_INTERVAL_MS', 5_000) };
const PER_PAGE = 100;
const EXPORT_ORDERS = intEnv('BENCH_EXPORT_ORDERS', 3 * LIMIT.limit * PER_PAGE);
const UPDATE_ORDERS = intEnv('BENCH_UPDATE_ORDERS', 1_000);
/** Pages in flight for `@x/store`'s export; its limiter paces them. */
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 4);
const SAFETY_MARGIN_MS = process.env.BENCH_SAFETY_MARGIN_MS
  ? intEnv('BENCH_SAFETY_MARGIN_MS', 50)
  : undefined;
/** `BENCH_TASKS=export` runs only the export scenarios. */
const TASKS = (process.env.BENCH_TASKS ?? 'export,update').split(',');
const TEMPLATES = 100;
const TARGET = 0.98;
/** The naive retry loop of the official client gives up after this many 429s on one call. */
const MAX_RETRIES_PER_CALL = 50;

// The package is CJS with `exports.default = class` and no exports map: a native ESM default import
// yields the exports object and `new` throws "is not a constructor" (woocommerce-rest-api-js-lib #66).
const require = createRequire(import.meta.url);
const WooCommerceRestApi = (
  require('@woocommerce/woocommerce-rest-api') as { default: typeof WooCommerceRestApiClass }
).default;

// ---- keys and sandboxes -------------------------------------------------------------------------------

function newKey(): StoreKey {
  return {
    consumerKey: `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
    permissions: 'read_write',
  };
}

/** One key per role: the limit is per key, so no scenario inherits another's window. */
const KEYS = {
  seed: newKey(),
  warmup: newKey(),
  storeExport: newKey(),
  officialExport: newKey(),
  storeUpdate: newKey(),
  officialPut: newKey(),
  officialBatch: newKey(),
};

interface Stats {
  requests: number;
  rateLimited: number;
  arrivals: number[];
}

interface ChildSandbox {
  url: string;
  stats(): Promise<Stats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

async function spawnSandbox(options: SandboxOptions): Promise<ChildSandbox> {
  // `fork` reuses this process's execArgv, i.e. tsx's loader, so the child can be TypeScript too.
  const child = fork(fileURLToPath(new URL('./sandbox-child.ts', import.meta.url)), {
    stdio: 'inherit',
    env: { ...process.env, BENCH_SANDBOX_OPTIONS: JSON.stringify(options) },
  });
  const pending = new Map<number, (message: ChildMessage & { type: 'reply' }) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`sandbox process exited with ${code} before it was ready`)),
    );
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve(message.url);
      else pending.get(message.id)?.(message);
    });
  });
  const ask = (type: ChildRequest['type']) =>
    new Promise<ChildMessage & { type: 'reply' }>((resolve) => {
      const id = nextId++;
      pending.set(id, (reply) => {
        pending.delete(id);
        resolve(reply);
      });
      child.send({ id, type } satisfies ChildRequest);
    });
  return {
    url,
    stats: async () => (await ask('stats')).stats!,
    resetStats: async () => void (await ask('resetStats')),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask('close');
      await exited;
    },
  };
}

// ---- clients -------------------------------------------------------------------------------------------

interface Counters {
  retries: number;
  tooMany: number;
}

function storeClient(url: string, key: StoreKey, counters: Counters): StoreClient {
  return new StoreClient({
    url,
    consumerKey: key.consumerKey,
    consumerSecret: key.consumerSecret,
    rateLimit: {
      limit: LIMIT.limit,
      interval: LIMIT.intervalMs,
      ...(SAFETY_MARGIN_MS === undefined ? {} : { safetyMarginMs: SAFETY_MARGIN_MS }),
    },
    logLevel: 'off',
    hooks: {
      afterResponse: (event) => void (event.status === 429 && counters.tooMany++),
      beforeRetry: () => void counters.retries++,
    },
  });
}

function officialClient(url: string, key: StoreKey): WooCommerceRestApiClass {
  // Exactly the README's setup; the sandbox URL is plain http, so it signs with OAuth 1.0a like @x/store.
  return new WooCommerceRestApi({
    url,
    consumerKey: key.consumerKey,
    consumerSecret: key.consumerSecret,
    version: 'wc/v3',
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The retry a user adds to a client that has none: on 429, sleep Retry-After seconds and try again. */
async function retryOn429<T>(call: () => Promise<T>, counters: Counters): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error: any) {
      if (error?.response?.status !== 429 || attempt >= MAX_RETRIES_PER_CALL) throw error;
      counters.tooMany++;
      counters.retries++;
      const seconds = Number(error.response.headers?.['retry-after']);
      await sleep((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
    }
  }
}

// ---- data ----------------------------------------------------------------------------------------------

const PEOPLE = [
  ['John', 'Doe', 'Austin', 'US'],
  ['Ana', 'García', 'Madrid', 'ES'],
  ['Kenji', 'Sato', 'Osaka', 'JP'],
  ['Mia', 'Müller', 'Berlin', 'DE'],
  ['Amara', 'Okafor', 'Lagos', 'NG'],
] as const;

/** A plausible order: a customer, 1 to 3 line items, a shipping line. */
function orderInput(i: number, productIds: readonly number[]) {
  const [first, last, city, country] = PEOPLE[i % PEOPLE.length]!;
  const address = { first_name: first, last_name: last, address_1: `${i + 1} Main St`, city, country };
  return {
    status: (['processing', 'completed', 'on-hold'] as const)[i % 3],
    billing: { ...address, email: `${first.toLowerCase()}.${i}@example.com`, phone: '555-0100' },
    shipping: address,
    payment_method: 'bacs',
    payment_method_title: 'Direct bank transfer',
    line_items: Array.from({ length: 1 + (i % 3) }, (_, k) => ({
      product_id: productIds[(i + k) % productIds.length]!,
      quantity: 1 + ((i + k) % 4),
    })),
    shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
  };
}

async function simpleProductIds(client: StoreClient): Promise<number[]> {
  const page = await client.products.list({ per_page: 100, type: 'simple' });
  return page.data.map((product) => product.id);
}

/** Creates `count` orders through the API with the seed key, 100 per batch call. */
async function seedOrders(url: string, count: number): Promise<number[]> {
  const client = storeClient(url, KEYS.seed, { retries: 0, tooMany: 0 });
  const productIds = await simpleProductIds(client);
  const { create } = await client.orders.batch({
    create: Array.from({ length: count }, (_, i) => orderInput(i, productIds)),
  });
  return create.map((order) => (order as { id: number }).id);
}

/**
 * The export store: creating 30,000 orders through the API is out of reach (each write in the sandbox
 * clones the whole state, so seeding is quadratic), so 100 orders are created through the API into a
 * persisted sandbox, and its data file is then grown to `count` copies with fresh ids.
 */
async function buildExportDataFile(dir: string, count: number): Promise<string> {
  const templateFile = join(dir, 'templates.json');
  const box = await spawnSandbox({
    dataFile: templateFile,
    store: { rateLimit: false, seed: 'demo', keys: [KEYS.seed] },
  });
  await seedOrders(box.url, TEMPLATES);
  await box.close();

  const data = JSON.parse(await readFile(templateFile, 'utf8')) as {
    seq: Record<string, number>;
    orders: Array<Record<string, any>>;
    notes: Array<{ order_id: number }>;
  };
  const templates = data.orders.filter((order) => order.created_via === 'rest-api');
  const seq = data.seq as { post: number; item: number; meta: number };
  const newest = Math.max(...templates.map((order) => order.created as number));
  const orders: Array<Record<string, any>> = [];
  for (let i = 0; i < count; i++) {
    const order = structuredClone(templates[i % templates.length]!);
    order.id = ++seq.post;
    order.order_key = `wc_order_${i.toString(36).padStart(13, '0')}`;
    // One order a minute going back in time, so the default orderby=date is a strict order.
    order.created = order.modified = newest - i * 60_000;
    for (const lines of ['line_items', 'shipping_lines', 'fee_lines'])
      for (const line of order[lines] ?? []) line.id = ++seq.item;
    for (const meta of order.meta_data ?? []) meta.id = ++seq.meta;
    orders.push(order);
  }
  data.orders = orders;
  data.notes = [];
  const file = join(dir, 'export.json');
  await writeFile(file, JSON.stringify(data));
  return file;
}

// ---- scenarios -----------------------------------------------------------------------------------------

interface Outcome {
  task: 'export' | 'update';
  client: string;
  wallMs: number;
  /** Every HTTP request the server saw, 429s included. */
  requests: number;
  tooMany: number;
  retries: number;
  arrivals: number[];
  isStore: boolean;
}

async function measure(
  box: ChildSandbox,
  task: Outcome['task'],
  client: string,
  run: (counters: Counters) => Promise<void>,
): Promise<Outcome> {
  await box.resetStats();
  const counters: Counters = { retries: 0, tooMany: 0 };
  const started = performance.now();
  await run(counters);
  const wallMs = performance.now() - started;
  const stats = await box.stats();
  if (counters.tooMany !== stats.rateLimited) {
    console.warn(
      `  ! ${client}: the client saw ${counters.tooMany} 429s, the server sent ${stats.rateLimited}`,
    );
  }
  const outcome = {
    task,
    client,
    wallMs,
    requests: stats.requests,
    tooMany: stats.rateLimited,
    retries: counters.retries,
    arrivals: stats.arrivals,
    isStore: client.startsWith('@x/store'),
  };
  console.log(
    `  ${task} ${client}: ${(wallMs / 1000).toFixed(2)} s, ${stats.requests} requests, ${stats.rateLimited} × 429`,
  );
  return outcome;
}

function expectAll(what: string, got: number, want: number): void {
  if (got !== want) throw new Error(`${what}: got ${got} orders, expected ${want}`);
}

async function exportScenarios(dir: string): Promise<Outcome[]> {
  const dataFile = await buildExportDataFile(dir, EXPORT_ORDERS);
  const box = await spawnSandbox({
    dataFile,
    store: { rateLimit: LIMIT, keys: Object.values(KEYS) },
  });
  try {
    // Load both libraries' code paths and open connections, with a key nobody measures.
    await storeClient(box.url, KEYS.warmup, { retries: 0, tooMany: 0 }).orders.list({ per_page: PER_PAGE });
    await officialClient(box.url, KEYS.warmup).get('orders', { per_page: PER_PAGE });

    const store = await measure(box, 'export', `@x/store (concurrency ${CONCURRENCY})`, async (counters) => {
      const client = storeClient(box.url, KEYS.storeExport, counters);
      const ids = new Set<number>();
      for await (const order of client.orders.list({ per_page: PER_PAGE }, { concurrency: CONCURRENCY }))
        ids.add(order.id);
      expectAll('@x/store export', ids.size, EXPORT_ORDERS);
    });

    const official = await measure(box, 'export', 'official, README way', async (counters) => {
      const api = officialClient(box.url, KEYS.officialExport);
      const ids = new Set<number>();
      let page = 1;
      let totalPages = 1;
      do {
        const response = await retryOn429(() => api.get('orders', { per_page: PER_PAGE, page }), counters);
        for (const order of response.data as Array<{ id: number }>) ids.add(order.id);
        totalPages = Number(response.headers['x-wp-totalpages']);
        page++;
      } while (page <= totalPages);
      expectAll('official export', ids.size, EXPORT_ORDERS);
    });
    return [store, official];
  } finally {
    await box.close();
  }
}

async function updateScenarios(): Promise<Outcome[]> {
  // Only the orders being updated: every write in the sandbox costs time proportional to the store's size.
  const box = await spawnSandbox({ store: { rateLimit: LIMIT, seed: 'demo', keys: Object.values(KEYS) } });
  try {
    const ids = await seedOrders(box.url, UPDATE_ORDERS);
    const note = (who: string) => `Checked by ${who} at ${new Date().toISOString()}`;
    await storeClient(box.url, KEYS.warmup, { retries: 0, tooMany: 0 }).orders.batch({
      update: [{ id: ids[0]!, customer_note: 'warm-up' }],
    });
    await officialClient(box.url, KEYS.warmup).put(`orders/${ids[0]}`, { customer_note: 'warm-up' });

    const store = await measure(box, 'update', '@x/store (batch)', async (counters) => {
      const client = storeClient(box.url, KEYS.storeUpdate, counters);
      const customer_note = note('@x/store');
      const result = await client.orders.batch({ update: ids.map((id) => ({ id, customer_note })) });
      expectAll('@x/store batch update', result.update.length, UPDATE_ORDERS);
    });

    const put = await measure(box, 'update', 'official, README way (PUT each)', async (counters) => {
      const api = officialClient(box.url, KEYS.officialPut);
      const customer_note = note('official PUT');
      let updated = 0;
      for (const id of ids) {
        await retryOn429(() => api.put(`orders/${id}`, { customer_note }), counters);
        updated++;
      }
      expectAll('official PUT update', updated, UPDATE_ORDERS);
    });

    const batch = await measure(box, 'update', 'official, batch by hand*', async (counters) => {
      const api = officialClient(box.url, KEYS.officialBatch);
      const customer_note = note('official batch');
      let updated = 0;
      for (let i = 0; i < ids.length; i += 100) {
        const update = ids.slice(i, i + 100).map((id) => ({ id, customer_note }));
        const response = await retryOn429(() => api.post('orders/batch', { update }), counters);
        const items = response.data.update as Array<{ error?: unknown }>;
        const failed = items.filter((item) => item.error);
        if (failed.length > 0) throw new Error(`official batch: ${failed.length} items failed`);
        updated += items.length;
      }
      expectAll('official batch update', updated, UPDATE_ORDERS);
    });
    return [store, put, batch];
  } finally {
    await box.close();
  }
}

// ---- report --------------------------------------------------------------------------------------------

function report(outcomes: Outcome[]): void {
  const storeTime = (task: Outcome['task']) => outcomes.find((o) => o.task === task && o.isStore)!.wallMs;
  const rows = outcomes.map((o) => {
    const accepted = o.arrivals.length;
    const bound = pacing(o.arrivals, LIMIT) !== undefined;
    return [
      o.task,
      o.client,
      (o.wallMs / 1000).toFixed(2),
      String(o.requests),
      String(o.tooMany),
      String(o.retries),
      String(busiestWindow(o.arrivals, LIMIT.intervalMs)),
      bound ? percent(ceilingUse(accepted, o.wallMs, LIMIT).ratio) : 'n/a',
      percent(pacing(o.arrivals, LIMIT)),
      o.isStore ? '1.00x' : `${(o.wallMs / storeTime(o.task)).toFixed(2)}x`,
    ];
  });
  console.log(
    `\n${table(
      [
        'task',
        'client',
        'wall s',
        'requests',
        '429s',
        'retries',
        'max/window',
        'ceiling use',
        'pacing',
        'time vs @x/store',
      ],
      rows,
    )}`,
  );
  console.log(
    [
      '',
      `requests: every request the server saw, 429s included; max/window: most accepted in any ${LIMIT.intervalMs} ms`,
      `ceiling use (the brief's): accepted / (${LIMIT.limit} × (floor(wall / ${LIMIT.intervalMs} ms) + 1)), only for runs longer than one window`,
      `pacing: for the last full window start m, m × ${LIMIT.intervalMs} ms / (server arrival of request m×${LIMIT.limit} − arrival of request 0), the exact lower bound over what happened`,
      `* not in the official README (it shows get/post/put/delete only); the WooCommerce REST docs' orders/batch endpoint through api.post, 100 per call`,
    ].join('\n'),
  );

  const store = outcomes.filter((o) => o.isStore);
  const tooMany = store.reduce((sum, o) => sum + o.tooMany, 0);
  const bound = store.filter((o) => pacing(o.arrivals, LIMIT) !== undefined);
  const worst = (ratio: (o: Outcome) => number) => Math.min(...bound.map(ratio));
  const worstPacing = worst((o) => pacing(o.arrivals, LIMIT)!);
  const worstCeiling = worst((o) => ceilingUse(o.arrivals.length, o.wallMs, LIMIT).ratio);
  const met = bound.length > 0 && tooMany === 0 && worstPacing >= TARGET && worstCeiling >= TARGET;
  const why = [
    bound.length === 0 ? 'no @x/store run was rate-limit-bound' : undefined,
    tooMany > 0 ? `${tooMany} × 429` : undefined,
    bound.length > 0 && worstPacing < TARGET ? `pacing ${percent(worstPacing)}` : undefined,
    bound.length > 0 && worstCeiling < TARGET ? `ceiling use ${percent(worstCeiling)}` : undefined,
  ].filter(Boolean);
  console.log(
    `\nVerdict: @x/store ${met ? 'MEETS' : 'MISSES'} the target (>= ${percent(TARGET)} of the limit's ceiling, 0 × 429): ` +
      `pacing ${percent(worstPacing)}, ceiling use ${percent(worstCeiling)} in ${bound.length} rate-limit-bound run(s), ` +
      `${tooMany} × 429 in all runs${met ? '' : ` (${why.join(', ')})`}.`,
  );
}

function describeSetup(): string {
  return [
    `@x/store bench: node ${process.version}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `limit ${LIMIT.limit} per ${LIMIT.intervalMs} ms per key (sandbox and client); client safety margin ${
      SAFETY_MARGIN_MS === undefined
        ? "@x/core's default (not exported; 50 ms before d0ddef2, 20 ms since)"
        : `${SAFETY_MARGIN_MS} ms (${percent(SAFETY_MARGIN_MS / LIMIT.intervalMs)} of a window)`
    }`,
    `export ${EXPORT_ORDERS} orders at per_page ${PER_PAGE} (${Math.ceil(EXPORT_ORDERS / PER_PAGE)} pages); update ${UPDATE_ORDERS} orders`,
    `core limiter: ${limiterProvenance()}`,
  ].join('\n');
}

/** Which limiter ran: `@x/core` is used from its dist, so say when it was built and from what source. */
function limiterProvenance(): string {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  const source = 'packages/core/src/rate-limit.ts';
  const commit = git('log', '-1', '--format=%h %s', '--', source).slice(0, 80) || 'unknown';
  const dirty = git('status', '--porcelain', '--', source) ? ', with UNCOMMITTED changes in the tree' : '';
  let built = 'not built';
  try {
    built = `dist built ${statSync(join(root, 'packages/core/dist/index.js')).mtime.toISOString()}`;
  } catch {}
  return `${source} at ${commit}${dirty}; ${built}`;
}

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be an integer >= 0`);
  return value;
}

console.log(describeSetup());
const dir = await mkdtemp(join(tmpdir(), 'x-store-bench-'));
try {
  const outcomes: Outcome[] = [];
  if (TASKS.includes('export')) {
    console.log('\nexport (building the store first)');
    outcomes.push(...(await exportScenarios(dir)));
  }
  if (TASKS.includes('update')) {
    console.log('\nupdate (seeding first)');
    outcomes.push(...(await updateScenarios()));
  }
  report(outcomes);
} finally {
  await rm(dir, { recursive: true, force: true });
}
