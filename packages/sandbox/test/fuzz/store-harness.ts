/**
 * The store fuzzing suites' peer and checks: a demo sandbox over real sockets, the ids of a record in every
 * route family (so random inputs reach handlers with real records), a sentinel product and customer no input
 * can name, and the invariants every answer and the state afterwards must hold.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Sandbox, STORE_DEV_KEYS, startSandbox } from '../../src/index.js';

export const API = '/wp-json/wc/v3';
export const KEY = STORE_DEV_KEYS.read_write;
export const BASIC = `Basic ${Buffer.from(`${KEY.consumerKey}:${KEY.consumerSecret}`).toString('base64')}`;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface Send {
  method: string;
  /** Path and query exactly as they go on the request line. */
  path: string;
  headers?: Record<string, string | undefined>;
  body?: string | Buffer;
}

/**
 * One request on a keep-alive connection. A dropped connection rejects (the server must always answer over
 * HTTP); so does a request unanswered after `hangMs`, which only a hang reaches.
 */
export function send(base: string, agent: http.Agent, req: Send, hangMs = 20_000): Promise<Answer> {
  const url = new URL(base);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) if (v !== undefined) headers[k] = v;
  // node:http frames a GET or DELETE body with neither length nor chunking; say how long it is.
  if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const r = http.request(
      // The Link header echoes the query, which the fuzzing makes long.
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers,
        agent,
        maxHeaderSize: 1 << 20,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => r.destroy(new Error(`no answer to ${req.method} ${req.path.slice(0, 120)}`)),
      hangMs,
    );
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}

/**
 * What the store reports on stderr when a handler throws something other than a WordPress error or an emulated
 * PHP fatal: a sandbox bug, even when a batch hides it in a 200 as one item's error.
 */
export function watchCrashes(): { take(): string[]; stop(): void } {
  const seen: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.startsWith('x-sandbox: store:')) seen.push(text.trim());
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    take: () => seen.splice(0),
    stop: () => {
      process.stderr.write = write;
    },
  };
}

/**
 * The 5xx WooCommerce itself answers on purpose: 501 for a DELETE without `force` where nothing can be
 * trashed, 500 for a refund its gateway cannot make, a zone method it cannot add, the default category,
 * and WordPress's critical error where PHP dies on the input (a TypeError, memory_limit); a crash of the
 * emulator answers the same critical error, which `watchCrashes()` tells apart.
 */
const WOOCOMMERCE_5XX = [
  'rest_trash_not_supported',
  'woocommerce_rest_trash_not_supported',
  'woocommerce_rest_cannot_create_order_refund',
  'woocommerce_rest_cannot_delete',
  'woocommerce_rest_shipping_zone_not_created',
  'internal_server_error',
];

/**
 * The invariants of one answer: a JSON body (none for HEAD), WordPress's `{code, message, data: {status}}` at
 * 400 and above with the same status, a 500 only where WooCommerce sends one, and no crash reported.
 */
export function expectWellFormed(res: Answer, method: string, what: string, crashes: string[] = []): void {
  const context = `${what} -> HTTP ${res.status} ${res.text.slice(0, 400)}`;
  expect(crashes, context).toEqual([]);
  expect(Number.isInteger(res.status) && res.status >= 200 && res.status <= 599, context).toBe(true);
  expect(String(res.headers['content-type']), context).toMatch(/^application\/json/);
  if (method === 'HEAD') return;
  let body: unknown;
  expect(() => {
    body = JSON.parse(res.text);
  }, context).not.toThrow();
  if (res.status < 400) return;
  const e = body as { code?: unknown; message?: unknown; data?: unknown };
  expect(typeof e.code, context).toBe('string');
  expect(typeof e.message, context).toBe('string');
  // WooCommerce's refund errors carry the status bare (`data: 400`), everything else as `data.status`.
  const dataStatus = typeof e.data === 'number' ? e.data : (e.data as { status?: unknown } | null)?.status;
  expect(dataStatus, context).toBe(res.status);
  if (res.status >= 500) expect(WOOCOMMERCE_5XX, context).toContain(e.code);
}

export interface FuzzStore {
  sandbox: Sandbox;
  agent: http.Agent;
  /** Record ids by placeholder, e.g. `product`, `variation`, `order`, `zone`; never the sentinels'. */
  ids: Record<string, number[]>;
  settingsGroups: string[];
  settingIds: string[];
  gateways: string[];
  tools: string[];
  sentinel: { product: number; customer: number; productBody: string; customerBody: string };
  /** Stops the sandbox and starts it again on the same port from its data file. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function api(
  base: string,
  agent: http.Agent,
  method: string,
  path: string,
  body?: unknown,
): Promise<any> {
  const res = await send(base, agent, {
    method,
    path: `${API}${path}`,
    headers: { Authorization: BASIC, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
  return JSON.parse(res.text);
}

/** The demo store with one record of every kind the routes take ids for, and a local webhook receiver. */
export async function startFuzzStore(): Promise<FuzzStore> {
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-fuzz-'));
  const options = { dataFile: join(dir, 'store.json'), store: { seed: 'demo', rateLimit: false } } as const;
  const sandbox = await startSandbox({ port: 0, ...options });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const base = sandbox.url;
  const call = (method: string, path: string, body?: unknown) => api(base, agent, method, path, body);
  const idsOf = (list: { id: number }[]) => list.map((r) => r.id);

  const products = (await call('GET', '/products?per_page=100')) as { id: number; type: string }[];
  const variable = products.find((p) => p.type === 'variable')!;
  const variations = await call('GET', `/products/${variable.id}/variations`);
  const orders = await call('GET', '/orders?per_page=100');
  const order = orders[0].id as number;
  const note = await call('POST', `/orders/${order}/notes`, { note: 'fuzz' });
  const completed = orders.find(
    (o: { status: string; total: string }) => o.status === 'completed' && Number(o.total) > 1,
  );
  const refund = completed
    ? await call('POST', `/orders/${completed.id}/refunds`, { amount: '1.00', api_refund: false })
    : null;
  const coupon = await call('POST', '/coupons', { code: 'fuzz10', amount: '10' });
  const tax = await call('POST', '/taxes', { country: 'US', rate: '5.0000', name: 'Fuzz' });
  const zone = await call('POST', '/shipping/zones', { name: 'Fuzz zone' });
  const method = await call('POST', `/shipping/zones/${zone.id}/methods`, { method_id: 'flat_rate' });
  const hook = await call('POST', '/webhooks', { topic: 'order.updated', delivery_url: hookUrl });
  const attribute = await call('POST', '/products/attributes', { name: 'Fuzz size' });
  const term = await call('POST', `/products/attributes/${attribute.id}/terms`, { name: 'XL' });
  const categories = await call('GET', '/products/categories');
  const tags = await call('GET', '/products/tags');
  const reviews = await call('GET', '/products/reviews');
  const groups = (await call('GET', '/settings')) as { id: string }[];
  const general = (await call('GET', '/settings/general')) as { id: string }[];
  const gateways = (await call('GET', '/payment_gateways')) as { id: string }[];
  const tools = (await call('GET', '/system_status/tools')) as { id: string }[];

  // Created last, so their ids are above every number the arbitraries put in a body or a path.
  // Customers are users, with ids of their own: filler ones (fuzz targets too) move the sentinel's past 60.
  for (let id = 0; id <= 60; )
    id = (await call('POST', '/customers', { email: `filler${id}@example.com` })).id;
  const sentinelProduct = await call('POST', '/products', {
    name: 'Sentinel',
    regular_price: '3.00',
    sku: 'SENT',
  });
  const sentinelCustomer = await call('POST', '/customers', {
    email: 'sentinel@example.com',
    first_name: 'S',
  });
  for (const id of [sentinelProduct.id, sentinelCustomer.id]) expect(id).toBeGreaterThan(60);

  const customers = await call('GET', '/customers?per_page=100');
  const ids: Record<string, number[]> = {
    product: idsOf(products),
    variable: [variable.id],
    variation: idsOf(variations),
    order: idsOf(orders),
    note: [note.id],
    refund_order: completed ? [completed.id] : [order],
    refund: refund ? [refund.id] : [1],
    customer: idsOf(customers).filter((id) => id !== sentinelCustomer.id),
    coupon: [coupon.id],
    tax: [tax.id],
    zone: [0, zone.id],
    method: [method.instance_id],
    webhook: [hook.id],
    attribute: [attribute.id],
    term: [term.id, ...idsOf(categories), ...idsOf(tags)],
    review: idsOf(reviews),
  };
  const f: FuzzStore = {
    sandbox,
    agent,
    ids,
    settingsGroups: groups.map((g) => g.id),
    settingIds: general.map((s) => s.id),
    gateways: gateways.map((g) => g.id),
    tools: tools.map((t) => t.id),
    sentinel: {
      product: sentinelProduct.id,
      customer: sentinelCustomer.id,
      productBody: JSON.stringify(sentinelProduct),
      customerBody: JSON.stringify(sentinelCustomer),
    },
    async restart() {
      f.agent.destroy();
      await f.sandbox.close();
      f.sandbox = await startSandbox({ port: Number(new URL(base).port), ...options });
      f.agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    },
    async close() {
      f.agent.destroy();
      await f.sandbox.close();
      await new Promise<void>((r) => receiver.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  return f;
}

const LISTS = [
  ...[
    '/products',
    '/orders',
    '/customers',
    '/coupons',
    '/taxes',
    '/webhooks',
    '/refunds',
    '/products/reviews',
  ],
  ...['/products/categories', '/products/tags', '/products/attributes', '/taxes/classes', '/shipping/zones'],
];

/** Every record the store lists, in list order: what must be the same after a restart from the data file. */
async function dump(f: FuzzStore): Promise<string> {
  const call = (path: string) => api(f.sandbox.url, f.agent, 'GET', path);
  const out: unknown[] = [];
  for (const list of LISTS) {
    for (let page = 1; ; page++) {
      const items = (await call(`${list}?per_page=100&page=${page}`)) as unknown[];
      expect(Array.isArray(items)).toBe(true);
      out.push(...items);
      if (items.length < 100) break;
    }
  }
  // Some groups are listed but have no emulated fields, and answer 404 as a page without settings does.
  for (const group of f.settingsGroups) {
    const res = await send(f.sandbox.url, f.agent, {
      method: 'GET',
      path: `${API}/settings/${group}`,
      headers: { Authorization: BASIC },
    });
    out.push(res.status, res.text);
  }
  return JSON.stringify(out);
}

/**
 * After fuzzing: the sentinels read back unchanged, every collection still lists (so no stored record breaks
 * its presenter), the reports and the system status still answer, no input reached Object.prototype, and a
 * restart from the data file serves exactly the same records (the journal kept every fuzzed write as answered).
 */
export async function expectStoreHealthy(f: FuzzStore): Promise<void> {
  const call = (path: string) => api(f.sandbox.url, f.agent, 'GET', path);
  const product = await call(`/products/${f.sentinel.product}`);
  // price_html follows the currency settings, and each category's name and slug follow the category record
  // (the default category, which every product falls back to, may be renamed): the fuzzing changes both on
  // purpose. The product keeps the same categories.
  const own = ({ price_html: _html, categories, ...fields }: Record<string, unknown>) => ({
    ...fields,
    categories: (categories as { id: number }[]).map((c) => c.id),
  });
  expect(own(product)).toEqual(own(JSON.parse(f.sentinel.productBody)));
  const customer = await call(`/customers/${f.sentinel.customer}`);
  expect(JSON.stringify(customer)).toBe(f.sentinel.customerBody);
  await call('/system_status');
  await call('/reports/sales');
  await call('/reports/top_sellers');
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const before = await dump(f);
  await f.restart();
  expect(await dump(f)).toBe(before);
}
