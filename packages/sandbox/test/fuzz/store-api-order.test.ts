/**
 * Fuzzing the Store API's order routes over real sockets: `GET order/{id}` and `POST checkout/{id}` with random
 * ids, `key` / `billing_email` query values (the right ones often, so inputs get past the authorisation), JSON
 * bodies (address- and payment-shaped or anything), and `Cart-Token` / `Nonce` headers. Each answer is well
 * formed (WooCommerce's one 500 here is `invalid_order_update_status`, a WP_Error without data), and a sentinel
 * order whose key the fuzzer never sends stays pending, unpaid and unchanged.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { jsonBody } from './store-arbitraries.js';
import { API, BASIC, expectWellFormed, send, watchCrashes } from './store-harness.js';
import { headerText, queryString } from './store-request-arbitraries.js';

const NS = '/wp-json/wc/store/v1';
let sb: Sandbox;
let agent: http.Agent;
let crashes: ReturnType<typeof watchCrashes>;
let nonce: string;
let token: string;
let orders: { id: number; key: string }[];
let sentinel: { id: number; text: string };

async function v3(method: string, path: string, body?: unknown): Promise<any> {
  const res = await send(sb.url, agent, {
    method,
    path: `${API}${path}`,
    headers: { Authorization: BASIC, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return JSON.parse(res.text);
}

async function sentinelText(): Promise<string> {
  const o = await v3('GET', `/orders/${sentinel.id}`);
  return JSON.stringify([
    o.status,
    o.payment_method,
    o.date_paid,
    o.billing,
    o.shipping,
    o.customer_note,
    o.total,
  ]);
}

beforeAll(async () => {
  crashes = watchCrashes();
  sb = await startSandbox({ port: 0, store: { seed: 'demo', rateLimit: false } });
  agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  for (const g of ['bacs', 'cheque', 'cod']) await v3('PUT', `/payment_gateways/${g}`, { enabled: true });
  const product = (await v3('POST', '/products', { name: 'Fuzz', regular_price: '10' })).id;
  const make = async (email: string) => {
    const o = await v3('POST', '/orders', {
      status: 'pending',
      billing: { first_name: 'A', last_name: 'B', address_1: 'C', country: 'US', email },
      line_items: [{ product_id: product, quantity: 1 }],
    });
    return { id: o.id as number, key: o.order_key as string };
  };
  orders = [await make('a@example.com'), await make('b@example.com')];
  const s = await make('sentinel@example.com');
  sentinel = { id: s.id, text: '' };
  sentinel.text = await sentinelText();
  const first = await send(sb.url, agent, { method: 'GET', path: `${NS}/cart` });
  nonce = String(first.headers.nonce);
  token = String(first.headers['cart-token']);
});
afterAll(async () => {
  crashes?.stop();
  agent?.destroy();
  await sb?.close();
});

const hostile = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', 'US', 'FR', 'ZZ', '__proto__', 'a@b.co', 'bacs', 'cod', 'cheque', 'nope'),
  fc.jsonValue({ maxDepth: 1 }),
);
const address = fc.dictionary(
  fc.constantFrom('first_name', 'last_name', 'address_1', 'city', 'country', 'email', 'phone', 'postcode'),
  hostile,
);
const payBody = fc
  .record(
    {
      billing_address: fc.oneof({ weight: 3, arbitrary: address }, hostile),
      shipping_address: fc.oneof(address, hostile),
      payment_method: fc.oneof(fc.constantFrom('bacs', 'cheque', 'cod'), hostile),
      customer_note: hostile,
      key: hostile,
      billing_email: hostile,
    },
    { requiredKeys: [] },
  )
  .map((b) => JSON.stringify(b));

describe('Store API order routes', () => {
  for (const run of fuzzRuns(200)) {
    it(`store-api order ${run.label}`, async () => {
      let n = 0;
      let reached = 0;
      const input = fc.record({
        method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'DELETE'),
        route: fc.constantFrom('order', 'checkout'),
        which: fc.nat({ max: orders.length }),
        id: fc.oneof(fc.nat(), fc.constantFrom('0', '18446744073709551616', '00')),
        useId: fc.boolean(),
        key: fc.oneof(fc.constant('right'), fc.constant(undefined), headerText),
        email: fc.oneof(fc.constant('right'), fc.constant(undefined), headerText),
        extra: fc.oneof(fc.constant(''), queryString),
        body: fc.oneof({ weight: 3, arbitrary: payBody }, jsonBody, fc.constant(undefined)),
        token: fc.constantFrom(undefined, token, 'a.b.c'),
        nonce: fc.constantFrom(undefined, nonce, 'ffffffffff'),
      });
      await fc.assert(
        fc.asyncProperty(input, async (i) => {
          n++;
          const order = orders[i.which];
          const id = i.useId && order ? String(order.id) : String(i.id);
          const q = new URLSearchParams();
          const key = i.key === 'right' ? order?.key : i.key;
          const email = i.email === 'right' ? (i.which === 0 ? 'a@example.com' : 'b@example.com') : i.email;
          if (key !== undefined) q.set('key', key);
          if (email !== undefined) q.set('billing_email', email);
          const query = [q.toString(), i.extra].filter(Boolean).join('&');
          const path = `${NS}/${i.route}/${id}${query ? `?${query}` : ''}`;
          const body = i.method === 'GET' ? undefined : i.body;
          const headers = {
            'Content-Type': body === undefined ? undefined : 'application/json',
            'Cart-Token': i.token,
            Nonce: i.nonce,
          };
          const res = await send(sb.url, agent, { method: i.method, path, headers, body });
          const what = `${i.method} ${path} ${JSON.stringify(headers)} ${body?.slice(0, 200) ?? ''}`;
          if (res.status < 300) reached++;
          const parsed = JSON.parse(res.text || 'null') as { code?: string; data?: unknown } | null;
          if (parsed?.code === 'invalid_order_update_status') {
            expect([res.status, parsed.data], what).toEqual([500, null]);
            expect(crashes.take(), what).toEqual([]);
          } else expectWellFormed(res, i.method, what, crashes.take());
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store-api order', run, n);
      // Some inputs got past the authorisation to the routes themselves.
      expect(reached).toBeGreaterThan(0);
      expect(await sentinelText()).toBe(sentinel.text);
    });
  }
});
