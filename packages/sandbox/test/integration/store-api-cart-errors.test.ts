/**
 * A coupon that stops applying while it sits in a cart (another order used it up, it expired), over real
 * sockets: CartSchema::get_item_response() runs get_cart_errors() first, whose CartController::
 * validate_cart_coupon() takes the coupon off the cart and reports it in `errors`, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let jug: number;
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  jug = (await v3('POST', '/products', { name: 'Jug', regular_price: '10' })).json.id;
  await v3('PUT', '/payment_gateways/bacs', { enabled: true });
});
afterAll(async () => {
  await sb?.close();
});

async function shopper(code: string): Promise<StoreApiSession> {
  const s = new StoreApiSession(sb.url);
  await s.call('GET', 'cart');
  await s.call('POST', 'cart/add-item', { id: jug, quantity: 1 });
  const applied = await s.call('POST', 'cart/apply-coupon', { code });
  expect([applied.status, applied.body.totals.total_price, applied.body.errors]).toEqual([200, '800', []]);
  return s;
}

describe('Store API cart errors', () => {
  it('reports a coupon whose usage limit was reached, once, and drops it from the cart', async () => {
    await v3('POST', '/coupons', { code: 'once', amount: '2', discount_type: 'fixed_cart', usage_limit: 1 });
    const [first, second] = [await shopper('once'), await shopper('once')];
    const order = { payment_method: 'bacs', billing_address: { email: 'b@example.com' } };
    expect((await first.call('POST', 'checkout', order)).status).toBe(200);

    const cart = (await second.call('GET', 'cart')).body;
    expect(cart.errors).toEqual([
      {
        code: 'woocommerce_rest_cart_coupon_error',
        message:
          'The "once" coupon has been removed from your cart: Usage limit for coupon &quot;once&quot; has been reached.',
      },
    ]);
    expect([cart.coupons, cart.totals.total_discount, cart.totals.total_price]).toEqual([[], '0', '1000']);
    const again = (await second.call('GET', 'cart')).body;
    expect([again.errors, again.coupons]).toEqual([[], []]);
  });

  it('reports a coupon that expired', async () => {
    const c = (await v3('POST', '/coupons', { code: 'soon', amount: '2', discount_type: 'fixed_cart' })).json;
    const s = await shopper('soon');
    const key = (await s.call('GET', 'cart')).body.items[0].key;
    await v3('PUT', `/coupons/${c.id}`, { date_expires: '2020-01-01T00:00:00' });
    // Any answer that carries the cart reports it: here an update's.
    const cart = (await s.call('POST', 'cart/update-item', { key, quantity: 2 })).body;
    expect(cart).toMatchObject({ coupons: [], items_count: 2 });
    expect(cart.errors).toEqual([
      {
        code: 'woocommerce_rest_cart_coupon_error',
        message: 'The "soon" coupon has been removed from your cart: This coupon has expired.',
      },
    ]);
  });
});
