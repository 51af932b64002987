/**
 * Fuzzing the Store API (`/wp-json/wc/store/v1`) over real sockets: random methods on every route, JSON bodies
 * (random trees and cart-shaped ones with hostile ids, quantities, keys, codes and addresses), query strings,
 * and `Cart-Token` / `Nonce` / session `Cookie` headers (garbage, a fuzz session's own token, and tokens and
 * cookies forged from another cart's).
 * Each answer is well formed (WordPress's error shape from 400 on, never a crash), and a sentinel cart held by a
 * token the fuzzer never sends keeps its items and totals.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { jsonBody } from './store-arbitraries.js';
import { expectWellFormed, send, watchCrashes } from './store-harness.js';
import { headerText, queryString } from './store-request-arbitraries.js';

const NS = '/wp-json/wc/store/v1';
let sb: Sandbox;
let agent: http.Agent;
let crashes: ReturnType<typeof watchCrashes>;
let productIds: number[];
let sentinel: { token: string; cart: string };
let fuzzToken: string;
let nonce: string;
let sentinelId: string;

async function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await send(sb.url, agent, {
    method,
    path: `${NS}/${route}`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { ...res, json: JSON.parse(res.text || 'null') };
}

/** What must not move: the sentinel cart's items and totals. */
async function sentinelCart(): Promise<string> {
  const { json } = await call('GET', 'cart', undefined, { 'Cart-Token': sentinel.token });
  return JSON.stringify({
    items: json.items.map((i: any) => [i.key, i.quantity]),
    totals: json.totals,
    coupons: json.coupons,
  });
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
  const token = String(first.headers['cart-token']);
  const buyable = products.filter((p) => p.type === 'simple' && p.is_in_stock).map((p) => p.id);
  for (const id of buyable.slice(0, 2))
    await call('POST', 'cart/add-item', { id, quantity: 1 }, { 'Cart-Token': token });
  sentinel = { token, cart: '' };
  sentinelId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).user_id;
  sentinel.cart = await sentinelCart();
  expect(JSON.parse(sentinel.cart).items.length).toBeGreaterThan(0);
  fuzzToken = String((await call('GET', 'cart')).headers['cart-token']);
});
afterAll(async () => {
  crashes?.stop();
  agent?.destroy();
  await sb?.close();
});

const ROUTES = [
  'products',
  'products/{id}',
  'cart',
  'cart/add-item',
  'cart/update-item',
  'cart/remove-item',
  'cart/apply-coupon',
  'cart/remove-coupon',
  'cart/update-customer',
  'cart/select-shipping-rate',
  'cart/items',
  'cart/items/{key}',
  'checkout',
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });
const hostile = fc.oneof(
  fc.integer({ min: -2, max: 2 ** 53 }),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    null,
    true,
    false,
    [],
    {},
    '__proto__',
    '1e309',
    '0x10',
    ' 7',
    '-1',
    'fuzz10',
    'flat_rate:1',
  ),
);
const address = fc.dictionary(
  fc.constantFrom('first_name', 'email', 'country', 'state', 'postcode', 'city', 'address_1', 'phone'),
  fc.oneof(hostile, fc.constantFrom('US', 'CA', 'FR', 'a@b.co')),
);
const cartBody = fc
  .record(
    {
      id: fc.oneof(hostile, fc.nat({ max: 400 })),
      quantity: hostile,
      key: fc.oneof(hostile, hex32),
      code: hostile,
      rate_id: hostile,
      package_id: hostile,
      payment_method: fc.oneof(hostile, fc.constantFrom('bacs', 'cod', 'cheque')),
      billing_address: fc.oneof(address, hostile),
      shipping_address: fc.oneof(address, hostile),
    },
    { requiredKeys: [] },
  )
  .map((b) => JSON.stringify(b));

function forgedTokens(): fc.Arbitrary<string | undefined> {
  const [h, p, s] = sentinel.token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const reclaim = (patch: Record<string, unknown>) =>
    `${h}.${Buffer.from(JSON.stringify({ ...claims, ...patch })).toString('base64url')}.${s}`;
  return fc.oneof(
    fc.constant(undefined),
    fc.constant(fuzzToken),
    headerText,
    fc.constantFrom(
      `${h}.${p}.${s.slice(0, -2)}AA`,
      `${h}.${p}`,
      reclaim({ exp: 4_102_444_800 }),
      reclaim({ iss: 'other' }),
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`,
      '...',
    ),
  );
}

describe('Store API: methods, routes, bodies, tokens and nonces', () => {
  for (const run of fuzzRuns(250)) {
    it(`store-api requests ${run.label}`, async () => {
      let n = 0;
      const input = fc.record({
        method: fc.oneof({ weight: 3, arbitrary: fc.constant('POST') }, fc.constantFrom(...METHODS)),
        route: fc.constantFrom(...ROUTES),
        id: fc.oneof(fc.constantFrom(...productIds), fc.nat()),
        key: hex32,
        query: fc.oneof(fc.constant(''), queryString),
        body: fc.oneof(cartBody, jsonBody, fc.constant(undefined)),
        token: forgedTokens(),
        nonce: fc.oneof(fc.constant(undefined), fc.constant(nonce), headerText),
        cookie: fc.oneof(
          fc.constant(undefined),
          headerText,
          headerText.map((v) => `wp_woocommerce_session_x_sandbox=${v}`),
          fc.constant(
            `wp_woocommerce_session_x_sandbox=${encodeURIComponent(`${sentinelId}||9999999999||0||00`)}`,
          ),
        ),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, id, key, query, body, token, nonce: n1, cookie }) => {
          n++;
          const path = `${NS}/${route.replace('{id}', String(id)).replace('{key}', key)}${query ? `?${query}` : ''}`;
          const withBody = method !== 'GET' && method !== 'HEAD' ? body : undefined;
          const headers = {
            'Content-Type': withBody === undefined ? undefined : 'application/json',
            'Cart-Token': token,
            Nonce: n1,
            Cookie: cookie,
          };
          const res = await send(sb.url, agent, { method, path, headers, body: withBody });
          const what = `${method} ${path} ${JSON.stringify(headers).slice(0, 300)} ${withBody?.slice(0, 200) ?? ''}`;
          expectWellFormed(res, method, what, crashes.take());
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store-api requests', run, n);
      expect(await sentinelCart()).toBe(sentinel.cart);
    });
  }
});
