/**
 * The Store API's cart routes over real sockets, against a catalogue built through REST v3: every cart route
 * (StoreApi/Routes/V1/Cart*.php over Utilities/CartController.php), the `Cart-Token` round trip and its expiry
 * (Routes/V1/AbstractCartRoute.php get_cart_token(), Utilities/JsonWebToken.php), the session cookie, and the
 * nonce rule (AbstractCartRoute requires_nonce()/check_nonce()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let mug: number;
let tee: number;
let single: number;
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  // Tokens here last WooCommerce's two days: a slow machine never expires a cart mid-test. The expiry test
  // below has its own sandbox with a one-second token.
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  mug = (
    await v3('POST', '/products', {
      name: 'Mug',
      regular_price: '12.50',
      manage_stock: true,
      stock_quantity: 3,
    })
  ).json.id;
  tee = (await v3('POST', '/products', { name: 'Tee', regular_price: '20', sale_price: '15', virtual: true }))
    .json.id;
  single = (await v3('POST', '/products', { name: 'Print', regular_price: '9.99', sold_individually: true }))
    .json.id;
  await v3('POST', '/products', { name: 'Hidden', regular_price: '1', catalog_visibility: 'hidden' });
  await v3('POST', '/products', { name: 'Draft', regular_price: '1', status: 'draft' });
  await v3('POST', '/coupons', { code: 'five', amount: '5', discount_type: 'fixed_cart' });
  const zone = (await v3('POST', '/shipping/zones', { name: 'France' })).json;
  await v3('PUT', `/shipping/zones/${zone.id}/locations`, [{ code: 'FR', type: 'country' }]);
  await v3('POST', `/shipping/zones/${zone.id}/methods`, {
    method_id: 'flat_rate',
    settings: { cost: '2 + [qty]' },
  });
  await v3('POST', `/shipping/zones/${zone.id}/methods`, {
    method_id: 'local_pickup',
    settings: { cost: '0' },
  });
});
afterAll(async () => {
  await sb?.close();
});

describe('Store API cart', () => {
  it('keeps a cart through its Cart-Token across every cart route', async () => {
    const s = new StoreApiSession(sb.url);
    const empty = await s.call('GET', 'cart');
    expect(empty.status).toBe(200);
    // A guest starts where the shop is (woocommerce_default_customer_address = base); an empty cart ships nothing.
    expect(empty.body).toMatchObject({
      items: [],
      items_count: 0,
      needs_shipping: false,
      has_calculated_shipping: false,
      shipping_rates: [],
      shipping_address: { country: 'US', state: 'CA' },
      billing_address: { country: 'US', state: 'CA', email: '' },
      totals: { total_price: '0', total_shipping: null },
    });
    expect(s.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(s.token!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: 'wc/store/v1', user_id: expect.stringMatching(/^t_/) });
    // WooCommerce's session length, two days (the `wc_session_expiration` default).
    expect(claims.exp - claims.iat).toBe(172_800);

    const added = await s.call('POST', 'cart/add-item', { id: mug, quantity: 2 });
    expect(added.status).toBe(201);
    expect(added.body.items).toHaveLength(1);
    const key = added.body.items[0].key as string;
    expect(added.body.items[0]).toMatchObject({ id: mug, quantity: 2, totals: { line_total: '2500' } });
    // Shipping costs do not wait for an address by default: no zone covers the shop's own state, so none.
    expect(added.body).toMatchObject({ has_calculated_shipping: true, totals: { total_shipping: '0' } });
    expect(added.body.shipping_rates[0].shipping_rates).toEqual([]);
    const again = await s.call('POST', 'cart/items', { id: tee, quantity: 1 });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: tee, quantity: 1, prices: { price: '1500' } });

    const list = await s.call('GET', 'cart/items');
    expect(list.body.map((i: { id: number }) => i.id)).toEqual([mug, tee]);
    expect((await s.call('GET', `cart/items/${key}`)).body.quantity).toBe(2);
    const updated = await s.call('POST', 'cart/update-item', { key, quantity: 1 });
    expect(updated.body.items_count).toBe(2);
    expect(updated.body.totals.total_items).toBe('2750');

    const coupon = await s.call('POST', 'cart/apply-coupon', { code: 'FIVE' });
    expect(coupon.status).toBe(200);
    expect(coupon.body.coupons).toMatchObject([{ code: 'five', totals: { total_discount: '500' } }]);
    expect(coupon.body.totals).toMatchObject({ total_discount: '500', total_price: '2250' });

    const customer = await s.call('POST', 'cart/update-customer', {
      billing_address: { email: 'ana@example.fr', country: 'FR', city: 'Lyon' },
      shipping_address: { country: 'FR', city: 'Lyon', postcode: '69001' },
    });
    expect(customer.body.has_calculated_shipping).toBe(true);
    const rates = customer.body.shipping_rates[0].shipping_rates;
    expect(rates.map((r: { rate_id: string }) => r.rate_id)).toEqual([
      expect.stringMatching(/^flat_rate:/),
      expect.stringMatching(/^local_pickup:/),
    ]);
    // The flat rate's cost `2 + [qty]` with two items in the cart (WC_Shipping_Flat_Rate::evaluate_cost()).
    expect(rates[0]).toMatchObject({ price: '400', selected: true });
    expect(customer.body.totals).toMatchObject({ total_shipping: '400', total_price: '2650' });
    const pickup = await s.call('POST', 'cart/select-shipping-rate', {
      package_id: 0,
      rate_id: rates[1].rate_id,
    });
    expect(pickup.body.totals).toMatchObject({ total_shipping: '0', total_price: '2250' });

    const uncoupon = await s.call('POST', 'cart/remove-coupon', { code: 'five' });
    expect(uncoupon.body.coupons).toEqual([]);
    const removed = await s.call('POST', 'cart/remove-item', { key });
    expect(removed.body.items.map((i: { id: number }) => i.id)).toEqual([tee]);
    const byKey = removed.body.items[0].key as string;
    const put = await s.call('PUT', `cart/items/${byKey}`, { quantity: 3 });
    expect(put.body).toMatchObject({ key: byKey, quantity: 3, totals: { line_total: '4500' } });
    expect((await s.call('DELETE', `cart/items/${byKey}`)).status).toBe(204);
    await s.call('POST', 'cart/add-item', { id: tee });
    const cleared = await s.call('DELETE', 'cart/items');
    expect(cleared.body).toEqual([]);
    expect((await s.call('GET', 'cart')).body.items).toEqual([]);
  });

  it("answers WooCommerce's cart errors (409s carry the cart)", async () => {
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    const unknown = await s.call('POST', 'cart/add-item', { id: 999999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: 'woocommerce_rest_cart_invalid_product',
      message: 'Product with ID &quot;999999&quot; was not found and cannot be added to the cart.',
      data: { status: 400 },
    });
    expect((await s.call('POST', 'cart/add-item', {})).body.message).toBe(
      'Product with ID &quot;0&quot; was not found and cannot be added to the cart.',
    );
    const tooMany = await s.call('POST', 'cart/add-item', { id: mug, quantity: 4 });
    expect(tooMany.body).toMatchObject({
      code: 'woocommerce_rest_product_partially_out_of_stock',
      message:
        'You cannot add that amount of &quot;Mug&quot; to the cart because there is not enough stock (3 remaining).',
    });
    const zero = await s.call('POST', 'cart/add-item', { id: mug, quantity: 0 });
    expect(zero.body.code).toBe('woocommerce_rest_product_invalid_quantity');
    await s.call('POST', 'cart/add-item', { id: single, quantity: 5 });
    const again = await s.call('POST', 'cart/add-item', { id: single });
    expect(again.body).toMatchObject({
      code: 'readonly_quantity',
      message: 'The quantity of &quot;Print&quot; cannot be changed',
      data: { status: 400 },
    });
    await s.call('POST', 'cart/add-item', { id: mug, quantity: 2 });
    const key = (await s.call('GET', 'cart')).body.items[1].key as string;
    const max = await s.call('POST', 'cart/update-item', { key, quantity: 4 });
    expect(max.body.message).toBe('The maximum quantity of &quot;Mug&quot; allowed in the cart is 3');
    const gone = await s.call('POST', 'cart/update-item', { key: 'f'.repeat(32), quantity: 2 });
    expect(gone.status).toBe(409);
    expect(gone.body).toMatchObject({
      code: 'woocommerce_rest_cart_invalid_key',
      message: 'Cart item does not exist.',
    });
    expect(gone.body.data.cart.items.map((i: { quantity: number }) => i.quantity)).toEqual([1, 2]);
    const removed = await s.call('POST', 'cart/remove-item', { key: 'f'.repeat(32) });
    expect(removed.body.message).toBe('Cart item no longer exists or is invalid.');
    expect((await s.call('GET', `cart/items/${'0'.repeat(32)}`)).status).toBe(409);
    const noCoupon = await s.call('POST', 'cart/apply-coupon', { code: 'Nope' });
    expect(noCoupon.body).toEqual({
      code: 'woocommerce_rest_cart_coupon_error',
      message: '&quot;Nope&quot; is an invalid coupon code.',
      data: { status: 400 },
    });
    expect((await s.call('POST', 'cart/remove-coupon', { code: 'nope' })).body.message).toBe(
      'Invalid coupon code.',
    );
    expect((await s.call('POST', 'cart/remove-coupon', { code: 'five' })).status).toBe(409);
    expect((await s.call('POST', 'cart/select-shipping-rate', {})).body.code).toBe(
      'rest_missing_callback_param',
    );
    expect((await s.call('POST', 'cart/add-item', { id: tee, key: 'abc' })).body.code).toBe(
      'woocommerce_rest_cart_item_exists',
    );
  });

  it('two tokens are two carts; a forged token is ignored and gets a new cart', async () => {
    const a = new StoreApiSession(sb.url);
    const b = new StoreApiSession(sb.url);
    await a.call('GET', 'cart');
    await b.call('GET', 'cart');
    await a.call('POST', 'cart/add-item', { id: tee, quantity: 2 });
    expect((await b.call('GET', 'cart')).body.items_count).toBe(0);
    expect((await a.call('GET', 'cart')).body.items_count).toBe(2);

    const [h, p] = a.token!.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    const f = await a.call('GET', 'cart', undefined, { 'Cart-Token': forged });
    expect(f.body.items_count).toBe(0);
    expect(f.headers.get('cart-token')).not.toBe(forged);
  });

  it('an expired token is ignored: no cart behind it, and an update with it needs a nonce', async () => {
    const short = await startSandbox({
      port: 0,
      store: { rateLimit: false, storeApi: { cartTokenTtlSeconds: 1 } },
    });
    try {
      const id = (
        await storeApi(short, 'POST', '/products', { name: 'Tee', regular_price: '20', virtual: true })
      ).json.id;
      const a = new StoreApiSession(short.url);
      // A token that holds the item. On a machine slow enough for a fresh token to expire before it is used,
      // the add is refused (401): take a new token and add again, so slowness never fails the test.
      let added = await a.call('GET', 'cart').then(() => a.call('POST', 'cart/add-item', { id }));
      for (let i = 0; added.status === 401 && i < 20; i++) {
        a.token = null;
        added = await a.call('GET', 'cart').then(() => a.call('POST', 'cart/add-item', { id }));
      }
      expect(added.status).toBe(201);
      expect(added.body.items_count).toBe(1);
      // The token's `exp` (and the session) is one second away; well past it the token counts for nothing.
      const old = a.token!;
      const claims = JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString());
      expect(claims.exp - claims.iat).toBe(1);
      await new Promise((r) => setTimeout(r, 2_100));
      const expired = await a.call('POST', 'cart/add-item', { id }, { 'Cart-Token': old });
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('woocommerce_rest_missing_nonce');
      expect((await a.call('GET', 'cart', undefined, { 'Cart-Token': old })).body.items_count).toBe(0);
    } finally {
      await short.close();
    }
  });

  it('needs a Nonce for updates without a cart token: 401 missing, 403 invalid, accepted when valid', async () => {
    const anon = new StoreApiSession(sb.url, false);
    const get = await anon.call('GET', 'cart');
    expect(get.status).toBe(200);
    const nonce = get.headers.get('nonce')!;
    expect(nonce).toMatch(/^[0-9a-f]{10}$/);
    expect(get.headers.get('user-id')).toBe('0');
    expect(Number(get.headers.get('nonce-timestamp'))).toBeGreaterThan(0);
    const missing = await anon.call('POST', 'cart/add-item', { id: tee });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      code: 'woocommerce_rest_missing_nonce',
      message: 'Missing the Nonce header. This endpoint requires a valid nonce.',
      data: { status: 401 },
    });
    const invalid = await anon.call('POST', 'cart/add-item', { id: tee }, { Nonce: '0123456789' });
    expect(invalid.status).toBe(403);
    expect(invalid.body.code).toBe('woocommerce_rest_invalid_nonce');
    const ok = await anon.call('POST', 'cart/add-item', { id: tee }, { Nonce: nonce });
    expect(ok.status).toBe(201);
    // Without a token the cart lives in WooCommerce's session cookie, which the next request sends back.
    const cookie = ok.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^wp_woocommerce_session_\w+=[^;]+; expires=.+; path=\/; HttpOnly$/);
    const jar = { Cookie: cookie.split(';')[0]! };
    const more = await anon.call('POST', 'cart/add-item', { id: tee }, { Nonce: nonce, ...jar });
    expect(more.body.items_count).toBe(2);
    expect((await anon.call('GET', 'cart', undefined, jar)).body.items_count).toBe(2);
    const forgedCookie = { Cookie: jar.Cookie.replace(/.$/, (c) => (c === '0' ? '1' : '0')) };
    expect((await anon.call('GET', 'cart', undefined, forgedCookie)).body.items_count).toBe(0);
    // The deprecated X-WC-Store-API-Nonce header is no longer read (check_nonce() reads `Nonce` only).
    const legacy = await anon.call('POST', 'cart/add-item', { id: tee }, { 'X-WC-Store-API-Nonce': nonce });
    expect(legacy.status).toBe(401);
    const checkout = await anon.call('POST', 'checkout', { billing_address: { email: 'a@example.com' } });
    expect(checkout.body.code).toBe('woocommerce_rest_missing_nonce');
  });
});
