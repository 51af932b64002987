/**
 * One model, two APIs: a cart checked out through the Store API (StoreApi/Routes/V1/Checkout.php) is an order in
 * `wc/v3/orders`, read with the official client `@woocommerce/woocommerce-rest-api`: the totals the cart showed
 * (coupon, tax, shipping), stock reduced, the coupon's usage counted, and the `order.created` webhook delivered
 * as for any order. Then the optional rate limit (StoreApi/Utilities/RateLimits.php).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { StoreApiSession } from '../helpers/store-api.js';
import { makeClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

let sb: Sandbox;
let api: WooCommerceRestApi;
let receiver: Server;
const deliveries: { topic: string; body: any }[] = [];
let arrived: () => void = () => {};

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  api = makeClient({
    url: sb.url,
    consumerKey: sb.store.consumerKey,
    consumerSecret: sb.store.consumerSecret,
  });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const topic = String(req.headers['x-wc-webhook-topic'] ?? '');
      if (topic) deliveries.push({ topic, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(200).end('ok');
      arrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await sb?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function delivery(topic: string): Promise<{ topic: string; body: any }> {
  return new Promise((resolve) => {
    const look = () => {
      const d = deliveries.find((x) => x.topic === topic);
      if (d) resolve(d);
      else arrived = look;
    };
    look();
  });
}

describe('Store API checkout', () => {
  it('creates the wc/v3 order with the cart’s totals, reduces stock, counts the coupon and fires order.created', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await api.post('webhooks', { topic: 'order.created', delivery_url: url, secret: 's' });
    await api.put('settings/general/woocommerce_calc_taxes', { value: 'yes' });
    await api.post('taxes', { country: 'FR', rate: '20.0000', name: 'TVA', shipping: true });
    const product = (
      await api.post('products', { name: 'Bol', regular_price: '30', manage_stock: true, stock_quantity: 10 })
    ).data;
    const coupon = (await api.post('coupons', { code: 'dix', amount: '10', discount_type: 'percent' })).data;
    const zone = (await api.post('shipping/zones', { name: 'FR' })).data;
    await api.put(`shipping/zones/${zone.id}/locations`, [{ code: 'FR', type: 'country' }]);
    await api.post(`shipping/zones/${zone.id}/methods`, { method_id: 'flat_rate', settings: { cost: '5' } });
    await api.put('payment_gateways/bacs', { enabled: true });

    const s = new StoreApiSession(sb.url);
    await s.call(
      'POST',
      'cart/add-item',
      { id: product.id, quantity: 3 },
      { Nonce: (await s.call('GET', 'cart')).headers.get('nonce')! },
    );
    await s.call('POST', 'cart/apply-coupon', { code: 'dix' });
    const cart = (
      await s.call('POST', 'cart/update-customer', {
        billing_address: { first_name: 'Ana', email: 'ana@example.fr', country: 'FR', city: 'Lyon' },
        shipping_address: { first_name: 'Ana', country: 'FR', city: 'Lyon' },
      })
    ).body;
    // 3 × 30 = 90, less 10 % = 81, shipping 5, VAT 20 % on both: 16.20 + 1.00; 103.20 in all.
    expect(cart.totals).toMatchObject({
      total_items: '9000',
      total_discount: '900',
      total_shipping: '500',
      total_tax: '1720',
      total_price: '10320',
    });
    expect(cart.payment_methods).toEqual(['bacs']);

    const missingMethod = await s.call('POST', 'checkout', { billing_address: { email: 'ana@example.fr' } });
    expect(missingMethod.body.code).toBe('woocommerce_rest_checkout_missing_payment_method');
    const noBilling = await s.call('POST', 'checkout', { payment_method: 'bacs' });
    expect(noBilling.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['billing_address'] },
    });
    const billing = { first_name: 'Ana', email: 'ana@example.fr', country: 'FR', city: 'Lyon' };
    const disabled = await s.call('POST', 'checkout', { payment_method: 'cod', billing_address: billing });
    expect(disabled.body).toMatchObject({
      code: 'woocommerce_rest_checkout_payment_method_disabled',
      message: 'Cash on delivery is not available for this order—please choose a different payment method',
    });

    const done = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      customer_note: 'merci',
      billing_address: billing,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'on-hold',
      customer_note: 'merci',
      payment_method: 'bacs',
      billing_address: { email: 'ana@example.fr', country: 'FR' },
      payment_result: { payment_status: 'success' },
    });
    const id = done.body.order_id as number;

    const order = (await api.get(`orders/${id}`)).data;
    expect(order).toMatchObject({
      id,
      status: 'on-hold',
      created_via: 'store-api',
      payment_method: 'bacs',
      total: '103.20',
      total_tax: '17.20',
      shipping_total: '5.00',
      discount_total: '9.00',
      billing: { email: 'ana@example.fr', first_name: 'Ana' },
    });
    expect(order.line_items).toMatchObject([{ product_id: product.id, quantity: 3, total: '81.00' }]);
    expect(order.coupon_lines).toMatchObject([{ code: 'dix', discount: '9.00' }]);
    expect(order.shipping_lines).toMatchObject([{ method_id: 'flat_rate', total: '5.00' }]);
    expect((await api.get(`products/${product.id}`)).data.stock_quantity).toBe(7);
    expect((await api.get(`coupons/${coupon.id}`)).data).toMatchObject({
      usage_count: 1,
      used_by: ['ana@example.fr'],
    });
    const listed = (await api.get('orders', { per_page: 100 })).data.map((o: { id: number }) => o.id);
    expect(listed).toContain(id);

    const hook = await delivery('order.created');
    expect(hook.body).toMatchObject({ id, total: '103.20', created_via: 'store-api' });

    // The cart is empty afterwards, and an empty cart cannot be ordered.
    expect((await s.call('GET', 'cart')).body.items).toEqual([]);
    const empty = await s.call('POST', 'checkout', { payment_method: 'bacs', billing_address: billing });
    expect(empty.body).toEqual({
      code: 'woocommerce_rest_cart_empty',
      message: 'Cannot place an order, your cart is empty.',
      data: { status: 400 },
    });
  });
});

describe('Store API checkout against stock that moved', () => {
  it('refuses with 409 when another order took the stock after the item was added (validate_cart_items())', async () => {
    const vase = (
      await api.post('products', { name: 'Vase', regular_price: '8', manage_stock: true, stock_quantity: 2 })
    ).data;
    const lamp = (
      await api.post('products', { name: 'Lamp', regular_price: '9', manage_stock: true, stock_quantity: 1 })
    ).data;
    const s = new StoreApiSession(sb.url);
    await s.call(
      'POST',
      'cart/add-item',
      { id: vase.id, quantity: 2 },
      { Nonce: (await s.call('GET', 'cart')).headers.get('nonce')! },
    );
    await s.call('POST', 'cart/add-item', { id: lamp.id });
    // A REST v3 order (processing) takes one vase and the lamp.
    await api.post('orders', {
      status: 'processing',
      line_items: [
        { product_id: vase.id, quantity: 1 },
        { product_id: lamp.id, quantity: 1 },
      ],
    });
    const refused = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      billing_address: { email: 'b@example.com' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'woocommerce_rest_product_out_of_stock',
      message: '"Lamp" is out of stock and cannot be purchased. Please remove it from your cart.',
      data: { status: 409 },
      additional_errors: [
        {
          code: 'woocommerce_rest_product_partially_out_of_stock',
          message: 'There is not enough "Vase" in stock. Please reduce the quantity in your cart.',
          data: { status: 409 },
        },
      ],
    });
    // Nothing was ordered or reduced by the refused checkout.
    expect((await api.get(`products/${vase.id}`)).data.stock_quantity).toBe(1);
    expect((await s.call('GET', 'cart')).body.items_count).toBe(3);
  });
});

describe('Store API checkout against a coupon used up meanwhile', () => {
  it('removes the coupon and refuses with 409 instead of charging the full price (validate_cart_coupons())', async () => {
    await api.put('payment_gateways/bacs', { enabled: true });
    const jug = (await api.post('products', { name: 'Jug', regular_price: '10' })).data;
    const coupon = (
      await api.post('coupons', { code: 'solo', amount: '2', discount_type: 'fixed_cart', usage_limit: 1 })
    ).data;
    const shopper = async () => {
      const s = new StoreApiSession(sb.url);
      await s.call('GET', 'cart');
      await s.call('POST', 'cart/add-item', { id: jug.id, quantity: 1 });
      expect((await s.call('POST', 'cart/apply-coupon', { code: 'solo' })).status).toBe(200);
      return s;
    };
    const [first, second] = [await shopper(), await shopper()];
    const order = { payment_method: 'bacs', billing_address: { email: 'b@example.com' } };
    expect((await first.call('POST', 'checkout', order)).status).toBe(200);
    const before = (await api.get('orders', { per_page: 100 })).data.length;

    const refused = await second.call('POST', 'checkout', order);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'woocommerce_rest_cart_coupon_error',
      message:
        'The "solo" coupon has been removed from your cart: Usage limit for coupon &quot;solo&quot; has been reached.',
      data: { status: 409 },
    });
    expect((await api.get('orders', { per_page: 100 })).data.length).toBe(before);
    const cart = (await second.call('GET', 'cart')).body;
    expect([cart.coupons, cart.totals.total_price]).toEqual([[], '1000']);
    // Told, the shopper can check out at the price the cart now shows.
    const placed = await second.call('POST', 'checkout', order);
    expect(placed.status).toBe(200);
    expect((await api.get(`orders/${placed.body.order_id}`)).data).toMatchObject({
      total: '10.00',
      coupon_lines: [],
    });
    expect((await api.get(`coupons/${coupon.id}`)).data.usage_count).toBe(1);
  });
});

describe('Store API rate limit', () => {
  it('is off by default', async () => {
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    for (let i = 0; i < 30; i++) {
      const r = await s.call('POST', 'cart/add-item', { id: 999999 });
      expect(r.status).toBe(400);
      expect(r.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('when on, counts requests per client and answers 400 rate_limit_exceeded with RateLimit-* headers', async () => {
    const limited = await startSandbox({
      port: 0,
      store: { rateLimit: false, storeApi: { rateLimit: { limit: 3, seconds: 60 } } },
    });
    try {
      const s = new StoreApiSession(limited.url);
      const get = await s.call('GET', 'cart');
      expect(get.headers.get('ratelimit-limit')).toBe('3');
      const remaining: string[] = [get.headers.get('ratelimit-remaining')!];
      for (let i = 0; i < 2; i++) {
        const r = await s.call('POST', 'cart/add-item', { id: 999999 });
        expect(r.body.code).toBe('woocommerce_rest_cart_invalid_product');
        expect(r.headers.get('ratelimit-limit')).toBe('3');
        remaining.push(r.headers.get('ratelimit-remaining')!);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      // The limit counts every method (Authentication::check_authentication()), reads included.
      const over = await s.call('POST', 'cart/add-item', { id: 999999 });
      expect(over.status).toBe(400);
      expect(over.body).toMatchObject({ code: 'rate_limit_exceeded', data: { status: 400 } });
      expect(over.body.message).toMatch(
        /^Too many requests\. Please wait \d+ seconds before trying again\.$/,
      );
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      const retry = Number(over.headers.get('ratelimit-retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(Number(over.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      const read = await s.call('GET', 'products');
      expect(read.status).toBe(400);
      expect(read.body.code).toBe('rate_limit_exceeded');
    } finally {
      await limited.close();
    }
  });
});
