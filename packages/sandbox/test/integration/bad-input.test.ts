/**
 * Hostile and malformed input against the store emulator over real sockets (node:http, raw node:net).
 *
 * Every API-level case must come back as a WordPress REST error body {code, message, data: {status} | number}
 * with the status and code a real WooCommerce store (WordPress REST server + WC controllers) would send.
 * Sources: WP_REST_Request::parse_json_params (rest_invalid_json, PHP json_decode depth 512, UTF-8/UTF-16
 * checks), WP_REST_Server::dispatch (args are validated before permission_callback; rest_no_route),
 * rest_validate_value_from_schema (rest_invalid_param / rest_missing_callback_param), route patterns
 * `(?P<id>[\d]+)`, WC_REST_Authentication, WC_REST_Controller::check_batch_limit, PHP's $_GET (last
 * duplicate wins). Parser-level garbage gets a 4xx (or a closed socket), never a 5xx, and the server survives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basic, expectWcError, parseRawBody, type RawResponse, rawSocket, request } from '../helpers/http.js';
import { type Pair, signWc, toQueryString } from '../helpers/oauth1.js';

const API = '/wp-json/wc/v3';
const MAX_BODY = 256 * 1024;

let sandbox: Sandbox;
let port: number;
let productId: number;

const auth = () => basic(sandbox.store.consumerKey, sandbox.store.consumerSecret);
const json = { 'content-type': 'application/json' };

interface Case {
  name: string;
  method?: string;
  path: string | (() => string);
  headers?: Record<string, string> | (() => Record<string, string>);
  body?: string | Buffer | (() => string | Buffer);
  /** Send the read_write key with Basic auth (default true). */
  authenticated?: boolean;
  status: number;
  /** Expected WooCommerce code; null = no WooCommerce equivalent, any string code accepted. */
  code: string | null;
  message?: string | RegExp;
  check?: (res: RawResponse) => void;
}

const oauthQuery = (query: Pair[], overrides: { timestamp?: number; method?: 'HMAC-SHA1' } = {}) => {
  const signed = signWc({
    method: 'GET',
    baseUrl: `${sandbox.url}${API}/products`,
    query,
    consumerKey: sandbox.store.consumerKey,
    consumerSecret: sandbox.store.consumerSecret,
    signatureMethod: overrides.method ?? 'HMAC-SHA1',
    timestamp: overrides.timestamp,
  });
  return signed.oauth;
};

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const cases: Case[] = [
  // --- bodies that are not the JSON object an endpoint expects
  {
    name: 'bad JSON (syntax error)',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name": }',
    status: 400,
    code: 'rest_invalid_json',
    message: 'Invalid JSON body passed.',
  },
  {
    name: 'truncated JSON',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"Mug","regular_price":"1',
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'JSON array where an object is expected (customer email then missing)',
    method: 'POST',
    path: `${API}/customers`,
    headers: json,
    body: '[{"email":"array@example.com"}]',
    status: 400,
    code: 'rest_missing_callback_param',
    message: 'Missing parameter(s): email',
  },
  {
    name: 'JSON string where an object is expected',
    method: 'POST',
    path: `${API}/customers`,
    headers: json,
    body: '"string@example.com"',
    status: 400,
    code: 'rest_missing_callback_param',
  },
  {
    name: 'JSON null where an object is expected',
    method: 'POST',
    path: `${API}/customers`,
    headers: json,
    body: 'null',
    status: 400,
    code: 'rest_missing_callback_param',
  },
  {
    name: 'deeply nested JSON (10k levels, PHP json_decode depth is 512)',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: () => nested(10_000),
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'JSON with a lone UTF-16 surrogate (\\ud800)',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"\\ud800"}',
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'JSON body with invalid UTF-8 bytes',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'wrong Content-Type (text/plain): the JSON body is not parsed, email missing',
    method: 'POST',
    path: `${API}/customers`,
    headers: { 'content-type': 'text/plain' },
    body: '{"email":"plain@example.com"}',
    status: 400,
    code: 'rest_missing_callback_param',
  },
  {
    name: 'body over the size limit',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: () => JSON.stringify({ name: 'big', description: 'x'.repeat(MAX_BODY + 1024) }),
    status: 413,
    code: null,
  },
  // --- wrong types and values for fields
  {
    name: 'price as a number',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"Numeric price","regular_price":19.99}',
    status: 400,
    code: 'rest_invalid_param',
    check: (res) => expect(res.json.data.params).toHaveProperty('regular_price'),
  },
  {
    name: 'huge number 1e400 as a price',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"Inf price","regular_price":1e400}',
    status: 400,
    code: 'rest_invalid_param',
  },
  {
    name: 'line item quantity as a non-numeric string',
    method: 'POST',
    path: `${API}/orders`,
    headers: json,
    body: () => JSON.stringify({ line_items: [{ product_id: productId, quantity: 'two' }] }),
    status: 400,
    code: 'rest_invalid_param',
    check: (res) => expect(res.json.data.params).toHaveProperty('line_items'),
  },
  {
    name: 'product status not in the enum',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"Bogus status","status":"bogus"}',
    status: 400,
    code: 'rest_invalid_param',
    check: (res) => expect(res.json.data.params).toHaveProperty('status'),
  },
  {
    name: 'order status not in the enum',
    method: 'POST',
    path: `${API}/orders`,
    headers: json,
    body: '{"status":"shipped"}',
    status: 400,
    code: 'rest_invalid_param',
  },
  {
    name: 'malformed email',
    method: 'POST',
    path: `${API}/customers`,
    headers: json,
    body: '{"email":"not-an-email"}',
    status: 400,
    code: 'rest_invalid_param',
    check: (res) => expect(res.json.data.params).toHaveProperty('email'),
  },
  {
    name: 'boolean field given "maybe"',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"Maybe featured","featured":"maybe"}',
    status: 400,
    code: 'rest_invalid_param',
  },
  {
    name: 'create with an id in the body',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: () => JSON.stringify({ id: productId, name: 'dup' }),
    status: 400,
    code: 'woocommerce_rest_product_exists',
  },
  // --- ids in the path
  {
    name: 'id 2**63 (overflows int64)',
    path: `${API}/products/9223372036854775808`,
    status: 404,
    code: 'woocommerce_rest_product_invalid_id',
  },
  {
    name: 'id of 5000 digits',
    path: `${API}/products/${'9'.repeat(5000)}`,
    status: 404,
    code: 'woocommerce_rest_product_invalid_id',
  },
  { name: 'negative id', path: `${API}/products/-1`, status: 404, code: 'rest_no_route' },
  { name: 'float id', path: `${API}/products/1.5`, status: 404, code: 'rest_no_route' },
  { name: 'NaN id', path: `${API}/products/NaN`, status: 404, code: 'rest_no_route' },
  {
    name: 'encoded path traversal in the id',
    path: `${API}/products/..%2F..%2Fetc%2Fpasswd`,
    status: 404,
    code: 'rest_no_route',
    check: (res) => expect(res.text).not.toContain('root:'),
  },
  { name: 'NUL byte after the id', path: `${API}/products/1%00`, status: 404, code: 'rest_no_route' },
  { name: 'emoji id', path: `${API}/products/%F0%9F%98%80`, status: 404, code: 'rest_no_route' },
  {
    name: 'non-ASCII digits id (Arabic-Indic ١٢)',
    path: `${API}/products/%D9%A1%D9%A2`,
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'traversal through ?rest_route=',
    path: '/?rest_route=/wc/v3/products/..%2F..%2Fsettings',
    status: 404,
    code: 'rest_no_route',
  },
  // --- collection parameters
  { name: 'per_page=0', path: `${API}/products?per_page=0`, status: 400, code: 'rest_invalid_param' },
  { name: 'per_page=101', path: `${API}/products?per_page=101`, status: 400, code: 'rest_invalid_param' },
  { name: 'per_page=-1', path: `${API}/products?per_page=-1`, status: 400, code: 'rest_invalid_param' },
  { name: 'per_page=abc', path: `${API}/products?per_page=abc`, status: 400, code: 'rest_invalid_param' },
  { name: 'per_page=5.5', path: `${API}/products?per_page=5.5`, status: 400, code: 'rest_invalid_param' },
  { name: 'per_page=1e400', path: `${API}/products?per_page=1e400`, status: 400, code: 'rest_invalid_param' },
  { name: 'page=0', path: `${API}/products?page=0`, status: 400, code: 'rest_invalid_param' },
  {
    name: 'duplicate query params: PHP keeps the last (per_page=5&per_page=500)',
    path: `${API}/products?per_page=5&per_page=500`,
    status: 400,
    code: 'rest_invalid_param',
  },
  { name: 'order=sideways', path: `${API}/products?order=sideways`, status: 400, code: 'rest_invalid_param' },
  {
    name: 'orderby not allowed',
    path: `${API}/products?orderby=password`,
    status: 400,
    code: 'rest_invalid_param',
  },
  { name: 'include=abc', path: `${API}/products?include=abc`, status: 400, code: 'rest_invalid_param' },
  {
    name: 'after=not-a-date',
    path: `${API}/products?after=not-a-date`,
    status: 400,
    code: 'rest_invalid_param',
  },
  {
    name: 'DELETE with force=maybe',
    method: 'DELETE',
    path: () => `${API}/products/${productId}?force=maybe`,
    status: 400,
    code: 'rest_invalid_param',
  },
  {
    name: 'anonymous with per_page=101: args are validated before permissions',
    path: `${API}/products?per_page=101`,
    authenticated: false,
    status: 400,
    code: 'rest_invalid_param',
  },
  // --- authentication
  {
    name: 'missing auth (GET)',
    path: `${API}/products`,
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: 'Sorry, you cannot list resources.',
  },
  {
    name: 'missing auth (POST)',
    method: 'POST',
    path: `${API}/products`,
    headers: json,
    body: '{"name":"anon"}',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_create',
  },
  {
    name: 'Basic with an unknown key (anonymous)',
    path: `${API}/products`,
    authenticated: false,
    headers: () => ({ authorization: basic(`ck_${'a'.repeat(40)}`, `cs_${'a'.repeat(40)}`) }),
    status: 401,
    code: 'woocommerce_rest_cannot_view',
  },
  {
    name: 'Basic with the wrong secret',
    path: `${API}/products`,
    authenticated: false,
    headers: () => ({ authorization: basic(sandbox.store.consumerKey, 'cs_wrong') }),
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Consumer secret is invalid.',
  },
  {
    name: 'Basic header that is not base64',
    path: `${API}/products`,
    authenticated: false,
    headers: { authorization: 'Basic !!!not-base64!!!' },
    status: 401,
    code: 'woocommerce_rest_cannot_view',
  },
  {
    name: 'query-string keys with the wrong secret',
    path: () => `${API}/products?consumer_key=${sandbox.store.consumerKey}&consumer_secret=cs_wrong`,
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Consumer secret is invalid.',
  },
  {
    name: 'forged OAuth signature',
    path: () => {
      const oauth = oauthQuery([]);
      oauth.oauth_signature = Buffer.from('forged-signature-forged-signa').toString('base64');
      return `${API}/products?${toQueryString(Object.entries(oauth))}`;
    },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Invalid signature - provided signature does not match.',
  },
  {
    name: 'OAuth timestamp 20 minutes old',
    path: () =>
      `${API}/products?${toQueryString(Object.entries(oauthQuery([], { timestamp: Math.floor(Date.now() / 1000) - 1200 })))}`,
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Invalid timestamp.',
  },
  {
    name: 'OAuth timestamp 20 minutes in the future',
    path: () =>
      `${API}/products?${toQueryString(Object.entries(oauthQuery([], { timestamp: Math.floor(Date.now() / 1000) + 1200 })))}`,
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Invalid timestamp.',
  },
  {
    name: 'unsupported OAuth signature method (PLAINTEXT)',
    path: () => {
      const oauth = oauthQuery([]);
      oauth.oauth_signature_method = 'PLAINTEXT';
      oauth.oauth_signature = `${sandbox.store.consumerSecret}&`;
      return `${API}/products?${toQueryString(Object.entries(oauth))}`;
    },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Invalid signature - signature method is invalid.',
  },
  {
    name: 'TRACE with a valid key',
    method: 'TRACE',
    path: `${API}/products`,
    status: 401,
    code: 'woocommerce_rest_authentication_error',
    message: 'Unknown request method.',
  },
  // --- batch
  {
    name: 'batch over the limit (101 items)',
    method: 'POST',
    path: `${API}/products/batch`,
    headers: json,
    body: JSON.stringify({ delete: Array.from({ length: 101 }, (_, i) => i + 1) }),
    status: 413,
    code: 'woocommerce_rest_request_entity_too_large',
    message: 'Unable to accept more than 100 items for this request.',
  },
  // --- routing
  { name: 'unknown sub-route', path: `${API}/products/1/nope`, status: 404, code: 'rest_no_route' },
];

beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none', maxBodyBytes: MAX_BODY } });
  port = Number(new URL(sandbox.url).port);
  const created = await request(`${sandbox.url}${API}/products`, {
    method: 'POST',
    headers: { ...json, authorization: auth() },
    body: JSON.stringify({ name: 'Hostile input target', regular_price: '9.99' }),
  });
  expect(created.status, created.text).toBe(201);
  productId = created.json.id;
});

afterAll(async () => {
  await sandbox?.close();
});

const resolve = <T>(v: T | (() => T)): T => (typeof v === 'function' ? (v as () => T)() : v);

describe('hostile input: WooCommerce error bodies over node:http', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const headers: Record<string, string> = { accept: 'application/json', ...resolve(c.headers ?? {}) };
    if (c.authenticated !== false) headers.authorization = auth();
    const res = await request(`${sandbox.url}${resolve(c.path)}`, {
      method: c.method ?? 'GET',
      headers,
      body: c.body === undefined ? undefined : resolve(c.body),
    });
    if (c.code === null) {
      expect(res.status, res.text.slice(0, 300)).toBe(c.status);
      expectWcError(res, c.status, res.json?.code);
    } else {
      expectWcError(res, c.status, c.code);
    }
    if (c.message instanceof RegExp) expect(res.json.message).toMatch(c.message);
    else if (c.message !== undefined) expect(res.json.message).toBe(c.message);
    c.check?.(res);
  });

  it('replayed OAuth nonce → 401 "Invalid nonce - nonce has already been used."', async () => {
    const url = `${sandbox.url}${API}/products?${toQueryString(Object.entries(oauthQuery([])))}`;
    expect((await request(url)).status).toBe(200);
    const replay = await request(url);
    expectWcError(replay, 401, 'woocommerce_rest_authentication_error');
    expect(replay.json.message).toBe('Invalid nonce - nonce has already been used.');
  });

  it('batch with non-array parts is refused (WC on PHP 8 dies in count(): 500 internal_server_error; 400 is the sane answer)', async () => {
    const res = await request(`${sandbox.url}${API}/products/batch`, {
      method: 'POST',
      headers: { ...json, authorization: auth() },
      body: '{"create":"not-an-array","delete":"7"}',
    });
    const allowed = [
      { status: 400, code: 'rest_invalid_param' },
      { status: 500, code: 'internal_server_error' },
    ];
    expect(allowed, res.text).toContainEqual({ status: res.status, code: res.json?.code });
    expectWcError(res, res.status, res.json.code);
  });

  it('HEAD without auth → 401 with no body', async () => {
    const res = await request(`${sandbox.url}${API}/products`, { method: 'HEAD' });
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
  });

  it('OPTIONS needs no key and answers the route schema', async () => {
    const res = await request(`${sandbox.url}${API}/products`, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ namespace: 'wc/v3' });
    expect(Array.isArray(res.json.methods)).toBe(true);
  });

  it('CR/LF smuggled through a query value is not reflected as a header', async () => {
    const res = await request(
      `${sandbox.url}${API}/products?per_page=1&search=%0D%0ASet-Cookie:%20injected=1%0D%0AX-Injected:%201`,
      { headers: { authorization: auth() } },
    );
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-injected']).toBeUndefined();
    for (const value of Object.values(res.headers)) expect(String(value)).not.toMatch(/[\r\n]/);
  });

  it('unicode and emoji in strings are stored and returned intact; long strings survive', async () => {
    const name = '🛒 Ünïcødé 商品 \u202eRTL\u202c 𝒳';
    const description = 'ß'.repeat(50_000);
    const created = await request(`${sandbox.url}${API}/products`, {
      method: 'POST',
      headers: { ...json, authorization: auth() },
      body: JSON.stringify({ name, description, sku: `sku-😀-${Date.now()}` }),
    });
    expect(created.status, created.text.slice(0, 300)).toBe(201);
    expect(created.json.name).toBe(name);
    const got = await request(`${sandbox.url}${API}/products/${created.json.id}`, {
      headers: { authorization: auth() },
    });
    expect(got.json.name).toBe(name);
    expect(got.json.description).toContain('ß'.repeat(1000));
    const search = await request(
      `${sandbox.url}${API}/products?search=${encodeURIComponent('商品')}&_fields=id,name`,
      { headers: { authorization: auth() } },
    );
    expect(search.json.map((p: any) => p.id)).toContain(created.json.id);
    const longSearch = await request(`${sandbox.url}${API}/products?search=${'q'.repeat(8000)}`, {
      headers: { authorization: auth() },
    });
    expect(longSearch.status).toBe(200);
    expect(longSearch.json).toEqual([]);
  });

  it('duplicate query params the other way round (per_page=500&per_page=2) → the last wins → 200', async () => {
    const res = await request(`${sandbox.url}${API}/products?per_page=500&per_page=2`, {
      headers: { authorization: auth() },
    });
    expect(res.status).toBe(200);
    expect(res.json.length).toBeLessThanOrEqual(2);
  });
});

describe('malformed HTTP over raw sockets: 4xx or a closed socket, never 5xx', () => {
  const host = () => `Host: 127.0.0.1:${port}\r\n`;
  const raw: { name: string; payload: () => string | Buffer; halfClose?: boolean }[] = [
    { name: 'garbage request line', payload: () => 'GARBAGE\r\n\r\n' },
    {
      name: 'header line without a colon',
      payload: () => `GET ${API}/products HTTP/1.1\r\n${host()}NoColon\r\n\r\n`,
    },
    {
      name: 'header value with a bare CR (header injection)',
      payload: () => `GET ${API}/products HTTP/1.1\r\n${host()}X-Test: a\rSet-Cookie: x=1\r\n\r\n`,
    },
    {
      name: 'Content-Length and Transfer-Encoding together (smuggling)',
      payload: () =>
        `POST ${API}/products HTTP/1.1\r\n${host()}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\n${host()}\r\n`,
    },
    {
      name: 'invalid chunk size',
      payload: () =>
        `POST ${API}/products HTTP/1.1\r\n${host()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    },
    {
      name: 'request header larger than the server limit',
      payload: () => `GET ${API}/products HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    },
    {
      name: 'Content-Length larger than the body, then half-close',
      payload: () =>
        `POST ${API}/products HTTP/1.1\r\n${host()}Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"name":"x"}`,
      halfClose: true,
    },
  ];

  it.each(raw)('$name', async ({ payload, halfClose }) => {
    const result = await rawSocket(port, payload(), { idleMs: 300, maxMs: 5_000, halfClose });
    if (result.status !== 0) {
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(result.status).toBeLessThan(500);
    }
    expect(result.raw).not.toMatch(/^HTTP\/1\.[01] 5\d\d/m);
    expect(result.raw).not.toMatch(/^Set-Cookie:/im);
  });

  it('raw ../ traversal in the path does not escape the API', async () => {
    const result = await rawSocket(
      port,
      `GET ${API}/products/../../../../../../etc/passwd HTTP/1.1\r\n${host()}Authorization: ${auth()}\r\nConnection: close\r\n\r\n`,
    );
    expect(result.status).toBe(404);
    const { body } = parseRawBody(result.raw);
    expect(body).not.toContain('root:');
  });

  it('raw request with a JSON body that is an unterminated string gets rest_invalid_json', async () => {
    const body = '{"name":"unterminated';
    const result = await rawSocket(
      port,
      `POST ${API}/products HTTP/1.1\r\n${host()}Authorization: ${auth()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const parsed = JSON.parse(parseRawBody(result.raw).body);
    expectWcError({ status: result.status, json: parsed }, 400, 'rest_invalid_json');
  });
});

describe('after all of the above', () => {
  it('the server still serves normal requests', async () => {
    const list = await request(`${sandbox.url}${API}/products?per_page=1`, {
      headers: { authorization: auth() },
    });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.json)).toBe(true);
    expect(Number(list.headers['x-wp-total'])).toBeGreaterThanOrEqual(1);
    const created = await request(`${sandbox.url}${API}/products`, {
      method: 'POST',
      headers: { ...json, authorization: auth() },
      body: JSON.stringify({ name: 'Still alive', regular_price: '1.00' }),
    });
    expect(created.status).toBe(201);
    expect(created.json.name).toBe('Still alive');
    expect(sandbox.store.stats().requests).toBeGreaterThan(50);
  });
});
