/**
 * Fuzzing `POST /wc/store/v1/batch` over real sockets: arbitrary JSON bodies, and batch-shaped ones whose
 * `requests` mix real Store API paths (with queries), foreign and malformed paths, any method, bodies and header
 * maps of any JSON, under a fuzz session's `Cart-Token` / `Nonce` or none. The batch answers 207 or a 4xx in
 * WordPress's error shape, never a 5xx nor a crash; every sub-answer is a `{body, status, headers}` envelope;
 * and a sentinel cart held by a token the fuzzer never sends keeps its items and totals.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { jsonBody } from './store-arbitraries.js';
import { expectWellFormed, send, watchCrashes } from './store-harness.js';
import { headerText } from './store-request-arbitraries.js';

const NS = '/wp-json/wc/store/v1';
let sb: Sandbox;
let agent: http.Agent;
let crashes: ReturnType<typeof watchCrashes>;
let sentinelToken: string;
let sentinelCart: string;
let fuzzToken: string;
let nonce: string;
let productIds: number[];

async function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await send(sb.url, agent, {
    method,
    path: `${NS}/${route}`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { ...res, json: JSON.parse(res.text || 'null') };
}

async function cartOf(token: string): Promise<string> {
  const { json } = await call('GET', 'cart', undefined, { 'Cart-Token': token });
  return JSON.stringify({ items: json.items.map((i: any) => [i.key, i.quantity]), totals: json.totals });
}

beforeAll(async () => {
  crashes = watchCrashes();
  sb = await startSandbox({ port: 0, store: { seed: 'demo', rateLimit: false } });
  agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const products = (await call('GET', 'products?per_page=100')).json as {
    id: number;
    type: string;
    is_in_stock: boolean;
  }[];
  productIds = products.map((p) => p.id);
  const first = await call('GET', 'cart');
  nonce = String(first.headers.nonce);
  sentinelToken = String(first.headers['cart-token']);
  const buyable = products.find((p) => p.type === 'simple' && p.is_in_stock)!.id;
  await call('POST', 'cart/add-item', { id: buyable, quantity: 2 }, { 'Cart-Token': sentinelToken });
  sentinelCart = await cartOf(sentinelToken);
  expect(JSON.parse(sentinelCart).items).toHaveLength(1);
  fuzzToken = String((await call('GET', 'cart')).headers['cart-token']);
});
afterAll(async () => {
  crashes?.stop();
  agent?.destroy();
  await sb?.close();
});

/** Any JSON value, and the ones PHP and JavaScript read differently. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  fc.constantFrom('', '__proto__', [], {}, { __proto__: 1 }, '1e309', ' 7', null, true, 0),
);

const ROUTES = [
  'cart/add-item',
  'cart/update-item',
  'cart/remove-item',
  'cart/apply-coupon',
  'cart/remove-coupon',
  'cart/update-customer',
  'cart/select-shipping-rate',
  'cart/items',
  'cart/items/0123456789abcdef0123456789abcdef',
  'checkout',
  'checkout/1',
  'order/1',
  'products',
  'batch',
];

function subRequest(): fc.Arbitrary<unknown> {
  const path = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...ROUTES).map((r) => `/wc/store/v1/${r}`) },
    fc.constantFrom(
      '/wc/v3/orders?x=wc/store',
      '/WC/STORE/V1/CART/ADD-ITEM',
      'wc/store/v1/cart/add-item',
      '/wc/store/v1/cart/add-item/',
      '///wc/store',
      'http://wc/store',
      '/wc/store/v1/cart/add-item?id=1&quantity[]=2',
    ),
    fc.string({ maxLength: 40 }).map((s) => `/wc/store/${s}`),
    jsonValue,
  );
  const headers = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom({ 'Cart-Token': fuzzToken }, { Nonce: nonce }, { cart_token: fuzzToken }),
    },
    fc.dictionary(
      fc.constantFrom('Cart-Token', 'cart_token', 'Nonce', 'NONCE', 'X-Other'),
      fc.oneof(
        fc.constantFrom(fuzzToken, nonce, sentinelToken.slice(0, -2)),
        headerText,
        fc.array(headerText, { maxLength: 3 }),
        jsonValue,
      ),
    ),
    jsonValue,
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...productIds).map((id) => ({ id, quantity: 1 })) },
    fc.record(
      {
        id: fc.oneof(fc.constantFrom(...productIds), jsonValue),
        quantity: jsonValue,
        code: jsonValue,
        key: jsonValue,
        billing_address: jsonValue,
        payment_method: fc.oneof(fc.constantFrom('bacs', 'cod'), jsonValue),
      },
      { requiredKeys: [] },
    ),
    jsonValue,
  );
  return fc.oneof(
    {
      weight: 20,
      arbitrary: fc.record(
        {
          method: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE') },
            jsonValue,
          ),
          path,
          body,
          headers,
        },
        { requiredKeys: ['path'] },
      ),
    },
    jsonValue,
  );
}

/** Built once the sandbox is up: the arbitraries use its tokens. */
const batchBody = () =>
  fc
    .record(
      {
        requests: fc.oneof(
          { weight: 5, arbitrary: fc.array(subRequest(), { maxLength: 6 }) },
          fc.array(subRequest(), { minLength: 24, maxLength: 27 }),
          jsonValue,
        ),
        validation: fc.oneof(fc.constantFrom('normal', 'require-all-validate'), jsonValue),
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b));

/** Batches every check passes, with hostile values inside the sub-requests' bodies. */
const wellFormed = () =>
  fc
    .array(
      fc.record({
        path: fc.constantFrom('/wc/store/v1/cart/add-item', '/wc/store/v1/cart/items'),
        body: fc.record(
          { id: fc.constantFrom(...productIds), quantity: jsonValue },
          { requiredKeys: ['id'] },
        ),
        headers: fc.constantFrom({ 'Cart-Token': fuzzToken }, { Nonce: nonce }),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((requests) => JSON.stringify({ requests }));

describe('Store API batch bodies', () => {
  for (const run of fuzzRuns(150)) {
    it(`store-api batch ${run.label}`, async () => {
      let n = 0;
      let ran = 0;
      const input = fc.record({
        body: fc.oneof(
          { weight: 4, arbitrary: batchBody() },
          { weight: 2, arbitrary: wellFormed() },
          jsonBody,
        ),
        token: fc.constantFrom(undefined, fuzzToken, 'x.y.z'),
        nonce: fc.constantFrom(undefined, nonce),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ body, token, nonce: n1 }) => {
          n++;
          const headers = { 'Content-Type': 'application/json', 'Cart-Token': token, Nonce: n1 };
          const res = await send(sb.url, agent, { method: 'POST', path: `${NS}/batch`, headers, body });
          const what = `POST batch ${JSON.stringify(headers)} ${body.slice(0, 300)}`;
          expectWellFormed(res, 'POST', what, crashes.take());
          expect(res.status, what).toBeLessThan(500);
          if (res.status !== 207) return;
          const answer = JSON.parse(res.text) as { responses: unknown[] };
          for (const r of answer.responses) {
            if (r === null) continue;
            const e = r as { body: unknown; status: unknown; headers: unknown };
            expect(Object.keys(e).sort(), what).toEqual(['body', 'headers', 'status']);
            expect(Number.isInteger(e.status), what).toBe(true);
            if ((e.status as number) < 300) ran++;
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store-api batch', run, n);
      // The inputs reach the routes behind the batch, not only its argument checks.
      expect(ran).toBeGreaterThan(0);
      expect(await cartOf(sentinelToken)).toBe(sentinelCart);
    });
  }
});
