/**
 * The order of checks on the Store API's cart and checkout routes, over real sockets: WordPress validates a
 * route's declared args (WP_REST_Server::respond_to_request(): has_valid_params(), sanitize_params()) before the
 * route's callback, so a bad argument is a 400 even without a nonce, and carries none of the session headers
 * AbstractCartRoute::get_response() adds. A batch checks every sub-request's args before running any
 * (serve_batch_request_v1()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let mug: number;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  mug = (await storeApi(sb, 'POST', '/products', { name: 'Mug', regular_price: '12.50' })).json.id;
});
afterAll(async () => {
  await sb?.close();
});

const cases = (): [string, unknown, number, string, unknown][] => [
  ['cart/add-item', { id: 'mug' }, 400, 'rest_invalid_param', { id: 'id is not of type integer.' }],
  ['cart/add-item', { id: mug, quantity: 'two' }, 400, 'rest_invalid_param', null],
  [
    'cart/update-item',
    { key: 7, quantity: 2 },
    400,
    'rest_invalid_param',
    { key: 'key is not of type string.' },
  ],
  ['cart/remove-item', { key: ['a'] }, 400, 'rest_invalid_param', { key: 'key is not of type string.' }],
  ['cart/apply-coupon', { code: 5 }, 400, 'rest_invalid_param', { code: 'code is not of type string.' }],
  ['cart/remove-coupon', { code: {} }, 400, 'rest_invalid_param', { code: 'code is not of type string.' }],
  ['cart/select-shipping-rate', {}, 400, 'rest_missing_callback_param', ['rate_id']],
  ['cart/update-customer', { billing_address: 3 }, 400, 'rest_invalid_param', null],
  ['checkout', {}, 400, 'rest_missing_callback_param', ['billing_address']],
  ['checkout', { billing_address: 'x' }, 400, 'rest_invalid_param', null],
  ['checkout/1', { billing_address: 1 }, 400, 'rest_invalid_param', null],
];

describe('Store API argument checks', () => {
  it('answer a bad argument before the nonce, without session headers', async () => {
    const anon = new StoreApiSession(sb.url, false);
    for (const [route, body, status, code, params] of cases()) {
      const r = await anon.call('POST', route, body);
      expect([route, r.status, r.body.code]).toEqual([route, status, code]);
      if (params) expect(r.body.data.params).toMatchObject(params as object);
      for (const name of ['nonce', 'cart-token', 'nonce-timestamp', 'user-id', 'set-cookie']) {
        expect([route, name, r.headers.get(name)]).toEqual([route, name, null]);
      }
    }
    // Good arguments without a nonce still meet the nonce rule, with the session headers.
    const good = await anon.call('POST', 'cart/add-item', { id: mug });
    expect([good.status, good.body.code]).toEqual([401, 'woocommerce_rest_missing_nonce']);
    expect(good.headers.get('cart-token')).not.toBeNull();
  });

  it('checks every batch sub-request before running any', async () => {
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    const headers = { 'Cart-Token': s.token! };
    const add = { path: '/wc/store/v1/cart/add-item', body: { id: mug }, headers };
    const bad = { path: '/wc/store/v1/cart/update-item', body: { key: 1 }, headers };
    const all = await s.call(
      'POST',
      'batch',
      { validation: 'require-all-validate', requests: [add, bad] },
      { 'Cart-Token': s.token! },
    );
    expect(all.status).toBe(207);
    expect(all.body.failed).toBe('validation');
    expect(all.body.responses[0]).toBeNull();
    expect(all.body.responses[1]).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param', data: { params: { key: 'key is not of type string.' } } },
      headers: [],
    });
    expect((await s.call('GET', 'cart')).body.items_count).toBe(0);
    // In a normal batch the bad one answers its error in place, without headers, and the others run.
    const normal = await s.call('POST', 'batch', { requests: [add, bad] }, { 'Cart-Token': s.token! });
    expect(normal.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 400]);
    expect(normal.body.responses[1].headers).toEqual([]);
    expect((await s.call('GET', 'cart')).body.items_count).toBe(1);
  });

  it('checks and formats address states as AbstractAddressSchema does, before the nonce', async () => {
    const anon = new StoreApiSession(sb.url, false);
    const bad = await anon.call('POST', 'cart/update-customer', {
      shipping_address: { country: 'US', state: 'Narnia' },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('nonce')).toBeNull();
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(bad.body.data.details.shipping_address.code).toBe('invalid_state');
    expect(bad.body.data.params.shipping_address).toMatch(
      /^The provided state \(NARNIA\) is not valid\. Must be one of: AL, AK, .*, WY, AA, AE, AP$/,
    );
    const country = await anon.call('POST', 'checkout', { billing_address: { country: 'XX' } });
    expect(country.body.data.details.billing_address.code).toBe('invalid_country');

    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    // A state's name becomes its code; a country without a list of states keeps the state as sent.
    const named = await s.call('POST', 'cart/update-customer', {
      shipping_address: { country: 'us', state: 'california' },
      billing_address: { country: 'GB', state: 'Kent' },
    });
    expect(named.status).toBe(200);
    expect([named.body.shipping_address.country, named.body.shipping_address.state]).toEqual(['US', 'CA']);
    expect([named.body.billing_address.country, named.body.billing_address.state]).toEqual(['GB', 'Kent']);
  });
});
