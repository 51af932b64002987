/**
 * The Store API's order routes over real sockets: `GET order/{id}` (StoreApi/Routes/V1/Order.php, OrderSchema) and
 * order-pay, `POST checkout/{id}` (Routes/V1/CheckoutOrder.php), both behind OrderAuthorizationTrait (order key and
 * billing email). The order is the one REST v3 made and serves: paying it shows in `wc/v3/orders/{id}` (status,
 * payment method, date paid, stock) and fires `order.updated`, as any order update does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let receiver: Server;
let lamp: number;
const deliveries: { topic: string; body: any }[] = [];
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);
const billing = {
  first_name: 'Ana',
  last_name: 'Lima',
  address_1: '1 rue Haute',
  city: 'Lyon',
  country: 'FR',
};

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const topic = String(req.headers['x-wc-webhook-topic'] ?? '');
      if (topic) deliveries.push({ topic, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  lamp = (
    await v3('POST', '/products', {
      name: 'Lamp',
      regular_price: '40',
      manage_stock: true,
      stock_quantity: 5,
    })
  ).json.id;
  await v3('PUT', '/payment_gateways/cod', { enabled: true });
  await v3('PUT', '/payment_gateways/bacs', { enabled: true });
});
afterAll(async () => {
  await sb?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A guest's pending order made through REST v3. */
async function pendingOrder(email = 'ana@example.fr'): Promise<{ id: number; key: string }> {
  const o = (
    await v3('POST', '/orders', {
      status: 'pending',
      billing: { ...billing, email },
      line_items: [{ product_id: lamp, quantity: 2 }],
    })
  ).json;
  return { id: o.id, key: o.order_key };
}

function until<T>(find: () => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const look = () => {
      const found = find();
      if (found !== undefined) resolve(found);
      else setTimeout(look, 20);
    };
    look();
  });
}

describe('Store API GET order/{id}', () => {
  it('shows the order to whoever has its key and billing email, and refuses everyone else', async () => {
    const { id, key } = await pendingOrder();
    const s = new StoreApiSession(sb.url, false);
    const ok = await s.call('GET', `order/${id}?key=${key}&billing_email=ana@example.fr`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      id,
      status: 'pending',
      items: [
        { key, name: 'Lamp', quantity: 2, quantity_limits: { minimum: 2, maximum: 2, editable: false } },
      ],
      totals: { total_items: '8000', total_price: '8000', currency_code: 'USD' },
      billing_address: { email: 'ana@example.fr', first_name: 'Ana', country: 'FR' },
      needs_payment: true,
      payment_requirements: ['products'],
      errors: [],
    });
    // Not a cart route: no session is loaded, no session headers sent.
    expect(ok.headers.get('cart-token')).toBeNull();
    expect(ok.headers.get('nonce')).toBeNull();

    const refusals = [
      [`order/${id}?key=wc_order_nope&billing_email=ana@example.fr`, 401, 'woocommerce_rest_invalid_order'],
      [`order/${id}?billing_email=ana@example.fr`, 401, 'woocommerce_rest_invalid_order'],
      [`order/${id}?key=${key}`, 401, 'woocommerce_rest_invalid_billing_email'],
      [`order/${id}?key=${key}&billing_email=ANA@example.fr`, 401, 'woocommerce_rest_invalid_billing_email'],
      [`order/999999?key=${key}&billing_email=ana@example.fr`, 403, 'woocommerce_rest_invalid_user'],
      [
        `order/18446744073709551616?key=${key}&billing_email=ana@example.fr`,
        403,
        'woocommerce_rest_invalid_user',
      ],
      // Order 0: pay_for_order holds without an order id; the key check then finds no order.
      [`order/0?key=${key}&billing_email=ana@example.fr`, 401, 'woocommerce_rest_invalid_order'],
    ] as const;
    for (const [route, status, code] of refusals) {
      const r = await s.call('GET', route);
      expect([route, r.status, r.body.code]).toEqual([route, status, code]);
      expect(r.body.data).toEqual({ status });
    }
    // An order that belongs to a customer is not a guest's to see (pay_for_order).
    const customer = (await v3('POST', '/customers', { email: 'c@example.com', username: 'c' })).json;
    const theirs = (
      await v3('POST', '/orders', { customer_id: customer.id, billing: { email: 'c@example.com' } })
    ).json;
    const r = await s.call('GET', `order/${theirs.id}?key=${theirs.order_key}&billing_email=c@example.com`);
    expect(r.body).toEqual({
      code: 'woocommerce_rest_invalid_user',
      message: 'This order belongs to a different customer.',
      data: { status: 403 },
    });
  });
});

describe('Store API order-pay, POST checkout/{id}', () => {
  it('refuses a wrong key or email with WooCommerce’s codes, before the nonce or the order is touched', async () => {
    const { id, key } = await pendingOrder();
    const s = new StoreApiSession(sb.url, false);
    const body = { billing_address: { ...billing, email: 'ana@example.fr' }, payment_method: 'cod' };
    const wrongKey = await s.call('POST', `checkout/${id}?key=x&billing_email=ana@example.fr`, body);
    expect([wrongKey.status, wrongKey.body.code]).toEqual([401, 'woocommerce_rest_invalid_order']);
    const wrongEmail = await s.call('POST', `checkout/${id}`, {
      ...body,
      key,
      billing_email: 'bob@example.fr',
    });
    expect([wrongEmail.status, wrongEmail.body.code]).toEqual([
      401,
      'woocommerce_rest_invalid_billing_email',
    ]);
    // The arguments are checked before the permission callback.
    const noBilling = await s.call('POST', `checkout/${id}?key=x`, { payment_method: 'cod' });
    expect(noBilling.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['billing_address'] },
    });
    // Authorised, it is a cart route: a nonce without a Cart-Token.
    const auth = `?key=${key}&billing_email=ana%40example.fr`;
    const noNonce = await s.call('POST', `checkout/${id}${auth}`, body);
    expect([noNonce.status, noNonce.body.code]).toEqual([401, 'woocommerce_rest_missing_nonce']);
    expect((await v3('GET', `/orders/${id}`)).json).toMatchObject({ status: 'pending', payment_method: '' });
  });

  it('pays a pending order: status, payment method and date paid in wc/v3, stock reduced, order.updated fired', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await v3('POST', '/webhooks', { topic: 'order.updated', delivery_url: url, secret: 's' });
    const { id, key } = await pendingOrder();
    const stockBefore = (await v3('GET', `/products/${lamp}`)).json.stock_quantity;
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    const auth = `?key=${key}&billing_email=ana%40example.fr`;
    const address = { ...billing, email: 'ana@example.fr', phone: '0102030405' };

    const noMethod = await s.call('POST', `checkout/${id}${auth}`, { billing_address: address });
    expect(noMethod.body).toMatchObject({
      code: 'woocommerce_rest_checkout_missing_payment_method',
      data: { status: 400 },
    });
    const disabled = await s.call('POST', `checkout/${id}${auth}`, {
      billing_address: address,
      payment_method: 'cheque',
    });
    expect(disabled.body).toEqual({
      code: 'woocommerce_rest_checkout_payment_method_disabled',
      message: 'The cheque payment gateway is not available.',
      data: { status: 400 },
    });
    const badEmail = await s.call('POST', `checkout/${id}${auth}`, {
      billing_address: { ...address, email: 'not-an-email' },
      payment_method: 'cod',
    });
    expect(badEmail.body.code).toBe('woocommerce_rest_invalid_email_address');
    const noName = await s.call('POST', `checkout/${id}${auth}`, {
      billing_address: { ...address, first_name: '' },
      payment_method: 'cod',
    });
    expect(noName.body).toMatchObject({
      code: 'woocommerce_rest_invalid_address',
      message: 'There was a problem with the provided billing address: First name is required',
      data: { status: 400, errors: { billing: ['First name is required'] } },
    });
    // Nothing was written by a refused request.
    expect((await v3('GET', `/orders/${id}`)).json).toMatchObject({ status: 'pending', payment_method: '' });

    const paid = await s.call('POST', `checkout/${id}${auth}`, {
      billing_address: address,
      payment_method: 'cod',
      customer_note: 'merci',
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      order_id: id,
      order_key: key,
      status: 'processing',
      payment_method: 'cod',
      customer_note: 'merci',
      billing_address: { phone: '0102030405' },
      payment_result: { payment_status: 'success' },
    });
    expect(paid.headers.get('cart-token')).toBe(s.token);
    const order = (await v3('GET', `/orders/${id}`)).json;
    expect(order).toMatchObject({
      status: 'processing',
      payment_method: 'cod',
      payment_method_title: 'Cash on delivery',
      customer_note: 'merci',
      billing: { phone: '0102030405', email: 'ana@example.fr' },
      total: '80.00',
    });
    expect(order.date_paid).toEqual(expect.any(String));
    expect((await v3('GET', `/products/${lamp}`)).json.stock_quantity).toBe(stockBefore - 2);
    const hook = await until(() =>
      deliveries.find((d) => d.body.id === id && d.body.status === 'processing'),
    );
    expect(hook.topic).toBe('order.updated');
    expect(hook.body).toMatchObject({ payment_method: 'cod', date_paid: order.date_paid });

    // Paid, it needs no payment: a WP_Error without a status, which WordPress answers as a 500.
    const again = await s.call('POST', `checkout/${id}${auth}`, {
      billing_address: address,
      payment_method: 'cod',
    });
    expect(again.status).toBe(500);
    expect(again.body).toEqual({
      code: 'invalid_order_update_status',
      message: 'This order cannot be paid for.',
      data: null,
    });
    const shown = await s.call('GET', `order/${id}${auth}`);
    expect(shown.body).toMatchObject({ status: 'processing', needs_payment: false });
  });

  it('puts a bank-transfer payment on hold, unpaid, and works inside a batch', async () => {
    const { id, key } = await pendingOrder('b@example.com');
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    const res = await s.call('POST', 'batch', {
      requests: [
        {
          path: `/wc/store/v1/checkout/${id}?key=${key}&billing_email=b@example.com`,
          body: { billing_address: { ...billing, email: 'b@example.com' }, payment_method: 'bacs' },
          headers: { 'Cart-Token': s.token },
        },
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.responses[0]).toMatchObject({ status: 200, body: { order_id: id, status: 'on-hold' } });
    const order = (await v3('GET', `/orders/${id}`)).json;
    expect(order).toMatchObject({ status: 'on-hold', payment_method: 'bacs', date_paid: null });
  });
});
