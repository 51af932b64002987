/**
 * What the scenarios run on: consumer keys, sandboxes in a child process, the two clients set up the way
 * their users would, and the orders they work with.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type WooCommerceRestApiClass from '@woocommerce/woocommerce-rest-api';
import type { SandboxOptions, StoreKey } from '@x/sandbox';
import { StoreClient } from '../src/index.js';
import { LIMIT, MAX_RETRIES_PER_CALL, SAFETY_MARGIN_MS, TEMPLATES, UPDATE_ROUNDS } from './config.js';
import type { ChildMessage, ChildRequest } from './sandbox-child.js';

// The package is CJS with `exports.default = class` and no exports map: a native ESM default import
// yields the exports object and `new` throws "is not a constructor" (woocommerce-rest-api-js-lib #66).
const require = createRequire(import.meta.url);
const WooCommerceRestApi = (
  require('@woocommerce/woocommerce-rest-api') as { default: typeof WooCommerceRestApiClass }
).default;

// ---- keys and sandboxes -------------------------------------------------------------------------------

export function newKey(): StoreKey {
  return {
    consumerKey: `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
    permissions: 'read_write',
  };
}

/** One key per role: the limit is per key, so no scenario inherits another's window. */
export const KEYS = {
  seed: newKey(),
  warmup: newKey(),
  storeExport: newKey(),
  officialExport: newKey(),
  /** One per round of the batch update, so no round shares a window with the previous one. */
  storeUpdate: Array.from({ length: UPDATE_ROUNDS }, newKey),
  officialPut: newKey(),
  officialBatch: Array.from({ length: UPDATE_ROUNDS }, newKey),
};

export function allKeys(): StoreKey[] {
  return Object.values(KEYS).flat();
}

export interface Stats {
  requests: number;
  rateLimited: number;
  arrivals: number[];
}

export interface ChildSandbox {
  url: string;
  stats(): Promise<Stats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

export async function spawnSandbox(options: SandboxOptions): Promise<ChildSandbox> {
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

export interface Counters {
  retries: number;
  tooMany: number;
}

export function storeClient(url: string, key: StoreKey, counters: Counters): StoreClient {
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

export function officialClient(url: string, key: StoreKey): WooCommerceRestApiClass {
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
export async function retryOn429<T>(call: () => Promise<T>, counters: Counters): Promise<T> {
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
export async function seedOrders(url: string, count: number): Promise<number[]> {
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
export async function buildExportDataFile(dir: string, count: number): Promise<string> {
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
