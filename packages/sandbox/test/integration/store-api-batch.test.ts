/**
 * `POST /wc/store/v1/batch` over real sockets (StoreApi/Routes/V1/Batch.php over WP_REST_Server::
 * serve_batch_request_v1()): sub-requests through the cart routes' own handlers on one shared cart session, one
 * answer each in a 207, the whole batch refused for a path outside the Store API or more than 25 requests, the
 * nonce rule applied per sub-request on its own headers, and the rate limit counting the batch once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let mug: number;
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  mug = (await v3('POST', '/products', { name: 'Mug', regular_price: '12.50' })).json.id;
  await v3('POST', '/coupons', { code: 'five', amount: '5', discount_type: 'fixed_cart' });
});
afterAll(async () => {
  await sb?.close();
});

/** A session with a cart token (its first GET). */
async function tokenSession(): Promise<{ s: StoreApiSession; token: string; nonce: string }> {
  const s = new StoreApiSession(sb.url);
  const first = await s.call('GET', 'cart');
  return { s, token: s.token!, nonce: first.headers.get('nonce')! };
}

describe('Store API batch', () => {
  it('runs each sub-request through its route on one cart, a bad one failing alone (207)', async () => {
    const { s, token } = await tokenSession();
    const headers = { 'Cart-Token': token };
    const res = await s.call('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/add-item', body: { id: mug, quantity: 2 }, headers },
        { path: '/wc/store/v1/cart/add-item', body: { id: 999999 }, headers },
        { path: '/wc/store/v1/cart/apply-coupon', body: { code: 'five' }, headers },
      ],
    });
    expect(res.status).toBe(207);
    const { responses } = res.body;
    expect(responses.map((r: { status: number }) => r.status)).toEqual([201, 400, 200]);
    expect(responses[0].body.items).toMatchObject([{ id: mug, quantity: 2 }]);
    expect(responses[1].body).toMatchObject({
      code: 'woocommerce_rest_cart_invalid_product',
      data: { status: 400 },
    });
    // The coupon applies to the cart the first sub-request filled: one session for the whole batch.
    expect(responses[2].body.coupons).toMatchObject([{ code: 'five' }]);
    expect(responses[2].body.totals).toMatchObject({ total_items: '2500', total_discount: '500' });
    for (const r of responses) {
      expect(r.headers).toMatchObject({ 'User-ID': 0, Nonce: expect.any(String) });
      expect(typeof r.headers['Nonce-Timestamp']).toBe('number');
      expect(r.headers['Cart-Token']).toEqual(expect.any(String));
    }
    // The batch answer carries the nonce headers, not a Cart-Token (Batch::get_response()).
    expect(res.headers.get('nonce')).toMatch(/^[0-9a-f]{10}$/);
    expect(res.headers.get('x-wc-store-api-nonce')).toBe(res.headers.get('nonce'));
    expect(res.headers.get('cart-token')).toBeNull();
    const cart = (await s.call('GET', 'cart', undefined, { 'Cart-Token': token })).body;
    expect(cart.items).toMatchObject([{ id: mug, quantity: 2 }]);
    expect(cart.coupons).toMatchObject([{ code: 'five' }]);
  });

  it('refuses the whole batch for a path outside wc/store, and answers rest_batch_not_allowed or rest_no_route per request', async () => {
    const { s, token } = await tokenSession();
    const headers = { 'Cart-Token': token };
    const refused = await s.call('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers },
        { path: '/wc/v3/orders', body: { status: 'pending' } },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'woocommerce_rest_invalid_path',
      message: 'Invalid path provided.',
      data: { status: 400 },
    });
    expect(refused.headers.get('nonce')).toMatch(/^[0-9a-f]{10}$/);
    expect((await s.call('GET', 'cart')).body.items).toEqual([]);
    expect((await v3('GET', '/orders')).json).toEqual([]);

    // stristr() looks anywhere in the path, so a REST v3 route with `wc/store` in its query passes that check,
    // then fails on the route's allow_batch; a Store API route without a handler for the method is no route.
    const mixed = await s.call('POST', 'batch', {
      requests: [
        { path: '/wc/v3/orders?x=wc/store', body: { status: 'pending' } },
        { path: '/wc/store/v1/products' },
        { path: '/wc/store/v1/batch', body: { requests: [] } },
        { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers },
      ],
    });
    expect(mixed.status).toBe(207);
    expect(mixed.body.responses.map((r: { status: number }) => r.status)).toEqual([400, 404, 400, 201]);
    expect(mixed.body.responses[0]).toEqual({
      body: {
        code: 'rest_batch_not_allowed',
        message: 'The requested route does not support batch requests.',
        data: { status: 400 },
      },
      status: 400,
      headers: [],
    });
    expect(mixed.body.responses[1].body.code).toBe('rest_no_route');
    expect(mixed.body.responses[2].body.code).toBe('rest_batch_not_allowed');
    expect((await v3('GET', '/orders')).json).toEqual([]);

    // `require-all-validate`: one unmatched request and nothing runs.
    const strict = await s.call('POST', 'batch', {
      validation: 'require-all-validate',
      requests: [
        { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers },
        { path: '/wc/store/v1/nowhere' },
      ],
    });
    expect(strict.status).toBe(207);
    expect(strict.body.failed).toBe('validation');
    expect(strict.body.responses[0]).toBeNull();
    expect(strict.body.responses[1].status).toBe(404);
    expect((await s.call('GET', 'cart')).body.items_count).toBe(1);
  });

  it('refuses more than 25 requests and malformed ones as WordPress validates the arguments', async () => {
    const { s, token } = await tokenSession();
    const one = { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers: { 'Cart-Token': token } };
    const over = await s.call('POST', 'batch', { requests: Array.from({ length: 26 }, () => one) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): requests',
      data: {
        status: 400,
        params: { requests: 'requests must contain at most 25 items.' },
        details: {
          requests: {
            code: 'rest_too_many_items',
            message: 'requests must contain at most 25 items.',
            data: null,
          },
        },
      },
    });
    // WordPress refused it before the route ran: no session headers.
    expect(over.headers.get('nonce')).toBeNull();
    expect((await s.call('GET', 'cart')).body.items).toEqual([]);

    const exactly = await s.call('POST', 'batch', { requests: Array.from({ length: 25 }, () => one) });
    expect(exactly.status).toBe(207);
    expect((await s.call('GET', 'cart')).body.items_count).toBe(25);

    const missing = await s.call('POST', 'batch', {});
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { status: 400, params: ['requests'] },
    });
    const bad = await s.call('POST', 'batch', {
      validation: 'all',
      requests: [{ method: 'GET', path: '/wc/store/v1/cart' }],
    });
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.params).toEqual({
      validation: 'validation is not one of require-all-validate and normal.',
      requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.',
    });
    const noPath = await s.call('POST', 'batch', { requests: [{ body: {} }] });
    expect(noPath.body.data.params).toEqual({ requests: 'path is a required property of requests[0].' });
  });

  it('asks each sub-request without a Cart-Token for its own nonce, on one cookie-less session', async () => {
    const { nonce } = await tokenSession();
    const guest = new StoreApiSession(sb.url, false);
    // The nonce on the batch alone is not enough: check_nonce() reads the sub-request's headers.
    const bare = await guest.call(
      'POST',
      'batch',
      { requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: mug } }] },
      { Nonce: nonce },
    );
    expect(bare.status).toBe(207);
    expect(bare.body.responses[0]).toMatchObject({
      status: 401,
      body: { code: 'woocommerce_rest_missing_nonce', data: { status: 401 } },
    });
    const forged = await guest.call('POST', 'batch', {
      requests: [{ path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers: { Nonce: 'abcdef0123' } }],
    });
    expect(forged.body.responses[0]).toMatchObject({
      status: 403,
      body: { code: 'woocommerce_rest_invalid_nonce' },
    });
    const withNonce = await guest.call('POST', 'batch', {
      requests: [
        { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers: { Nonce: nonce } },
        { path: '/wc/store/v1/cart/add-item', body: { id: mug, quantity: 2 }, headers: { nonce } },
      ],
    });
    const [a, b] = withNonce.body.responses;
    expect([a.status, b.status]).toEqual([201, 201]);
    // Both ran on the same new guest cart, whose session cookie the batch answer sets.
    expect(b.body.items).toMatchObject([{ id: mug, quantity: 3 }]);
    expect(a.headers['Cart-Token']).toBe(b.headers['Cart-Token']);
    expect(withNonce.headers.get('set-cookie')).toMatch(/^wp_woocommerce_session_x_sandbox=/);
    const kept = await guest.call('GET', 'cart', undefined, { 'Cart-Token': b.headers['Cart-Token'] });
    expect(kept.body.items_count).toBe(3);
  });
});

describe('Store API batch and webhooks', () => {
  it('delivers one order.updated per order for the whole batch, with the order as the batch left it', async () => {
    const deliveries: { id: number; total: string; customer_note: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.headers['x-wc-webhook-topic']) deliveries.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const hook = (await v3('POST', '/webhooks', { topic: 'order.updated', delivery_url: url, secret: 's' }))
        .json.id;
      const { s, token } = await tokenSession();
      await s.call('POST', 'cart/add-item', { id: mug, quantity: 1 });
      const id = (await s.call('GET', 'checkout')).body.order_id as number;
      const add = { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers: { 'Cart-Token': token } };
      const res = await s.call('POST', 'batch', { requests: [add, add, add] });
      expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201, 201]);
      // A later update of the same order marks the end: deliveries to one webhook go out in order.
      await v3('PUT', `/orders/${id}`, { customer_note: 'end' });
      await new Promise<void>((resolve) => {
        const look = () =>
          deliveries.some((d) => d.customer_note === 'end') ? resolve() : setTimeout(look, 20);
        look();
      });
      // WC_Webhook::process() queues an id once per webhook in a PHP request (is_already_processed()); the batch
      // is one request. Its payload is built when delivered, after the request: the draft with all four mugs.
      const fromBatch = deliveries.filter((d) => d.id === id && d.customer_note !== 'end');
      expect(fromBatch.map((d) => d.total)).toEqual(['50.00']);
      await v3('DELETE', `/webhooks/${hook}?force=true`);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('Store API namespace index', () => {
  it('lists the batch, order-pay and order routes with their methods', async () => {
    const index = (await (await fetch(`${sb.url}/wp-json/wc/store/v1`)).json()) as {
      routes: Record<string, { methods: string[] }>;
    };
    expect(index.routes['/wc/store/v1/batch']?.methods).toEqual(['POST']);
    expect(index.routes['/wc/store/v1/checkout/(?P<id>[\\d]+)']?.methods).toEqual(['POST']);
    expect(index.routes['/wc/store/v1/order/(?P<id>[\\d]+)']?.methods).toEqual(['GET']);
  });
});

describe('Store API batch and the rate limit', () => {
  it('counts the batch once, not its sub-requests', async () => {
    const limited = await startSandbox({
      port: 0,
      store: { rateLimit: false, storeApi: { rateLimit: { limit: 3, seconds: 60 } } },
    });
    try {
      const s = new StoreApiSession(limited.url);
      await s.call('GET', 'cart');
      const sub = {
        path: '/wc/store/v1/cart/add-item',
        body: { id: 999999 },
        headers: { 'Cart-Token': s.token },
      };
      const res = await s.call('POST', 'batch', { requests: Array.from({ length: 5 }, () => sub) });
      expect(res.status).toBe(207);
      expect(res.body.responses).toHaveLength(5);
      expect(res.headers.get('ratelimit-remaining')).toBe('1');
      for (const r of res.body.responses) expect(r.headers['RateLimit-Remaining']).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});
