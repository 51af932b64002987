/**
 * `GET /wc/store/v1/checkout` over real sockets (StoreApi/Routes/V1/Checkout.php get_route_response() with
 * Utilities/DraftOrderTrait.php and OrderController::create_order_from_cart()): the cart becomes one
 * `checkout-draft` order that REST v3 serves and `order.created` announces, cart updates rewrite it, and
 * `POST checkout` places that same order.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let receiver: Server;
let vase: number;
let bowl: number;
const deliveries: { topic: string; body: any }[] = [];
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

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
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await v3('POST', '/webhooks', { topic: 'order.created', delivery_url: url, secret: 's' });
  await v3('POST', '/webhooks', { topic: 'order.updated', delivery_url: url, secret: 's' });
  vase = (
    await v3('POST', '/products', { name: 'Vase', regular_price: '8', manage_stock: true, stock_quantity: 9 })
  ).json.id;
  bowl = (await v3('POST', '/products', { name: 'Bowl', regular_price: '5' })).json.id;
  await v3('PUT', '/payment_gateways/bacs', { enabled: true });
});
afterAll(async () => {
  await sb?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function delivered(topic: string, match: (body: any) => boolean): Promise<{ topic: string; body: any }> {
  return new Promise((resolve) => {
    const look = () => {
      const d = deliveries.find((x) => x.topic === topic && match(x.body));
      if (d) resolve(d);
      else setTimeout(look, 20);
    };
    look();
  });
}

describe('Store API GET checkout', () => {
  it('needs the nonce (or a Cart-Token), and a cart to make an order from', async () => {
    const guest = new StoreApiSession(sb.url, false);
    const noNonce = await guest.call('GET', 'checkout');
    expect([noNonce.status, noNonce.body.code]).toEqual([401, 'woocommerce_rest_missing_nonce']);
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    const empty = await s.call('GET', 'checkout');
    expect(empty.body).toEqual({
      code: 'woocommerce_rest_cart_empty',
      message: 'Cannot create order from empty cart.',
      data: { status: 400 },
    });
  });

  it('makes the cart one checkout-draft order, keeps it in step with the cart, and places that order', async () => {
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    await s.call('POST', 'cart/add-item', { id: vase, quantity: 2 });
    const before = (await v3('GET', '/orders?per_page=100')).json.length;

    const draft = await s.call('GET', 'checkout');
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({
      status: 'checkout-draft',
      payment_method: 'bacs',
      payment_result: { payment_status: '', payment_details: [], redirect_url: '' },
    });
    const id = draft.body.order_id as number;
    expect((await v3('GET', `/orders/${id}`)).json).toMatchObject({
      status: 'checkout-draft',
      created_via: 'store-api',
      total: '16.00',
      line_items: [{ product_id: vase, quantity: 2 }],
    });
    // A draft reserves nothing in stock here and counts no sale.
    expect((await v3('GET', `/products/${vase}`)).json.stock_quantity).toBe(9);
    const created = await delivered('order.created', (b) => b.id === id);
    expect(created.body.status).toBe('checkout-draft');

    // The same draft again, not a second order.
    expect((await s.call('GET', 'checkout')).body.order_id).toBe(id);
    expect((await v3('GET', '/orders?per_page=100')).json.length).toBe(before + 1);

    // A cart update rewrites the draft (cart_updated()).
    await s.call('POST', 'cart/add-item', { id: bowl, quantity: 1 });
    const updated = (await v3('GET', `/orders/${id}`)).json;
    expect(updated.total).toBe('21.00');
    expect(updated.line_items.map((l: { product_id: number }) => l.product_id).sort()).toEqual(
      [vase, bowl].sort(),
    );
    await delivered('order.updated', (b) => b.id === id && b.total === '21.00');

    // POST checkout places the draft itself.
    const placed = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      billing_address: { first_name: 'Ana', email: 'ana@example.fr', country: 'FR' },
    });
    expect(placed.body).toMatchObject({
      order_id: id,
      status: 'on-hold',
      payment_result: { payment_status: 'success' },
    });
    expect((await v3('GET', `/orders/${id}`)).json).toMatchObject({ status: 'on-hold', total: '21.00' });
    expect((await v3('GET', `/products/${vase}`)).json.stock_quantity).toBe(7);
    expect((await v3('GET', '/orders?per_page=100')).json.length).toBe(before + 1);

    // Placed, it is no draft any more: the emptied cart makes none.
    expect((await s.call('GET', 'checkout')).body.code).toBe('woocommerce_rest_cart_empty');
  });

  it('places a cart without GET checkout through a draft as well: order.created then order.updated, each once, as placed', async () => {
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    await s.call('POST', 'cart/add-item', { id: bowl, quantity: 3 });
    const placed = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      billing_address: { first_name: 'Ana', email: 'ana@example.fr', country: 'FR' },
    });
    expect(placed.body.status).toBe('on-hold');
    const id = placed.body.order_id as number;
    // A later update of the order marks the end: one webhook's deliveries go out in order.
    await v3('PUT', `/orders/${id}`, { customer_note: 'end' });
    await delivered('order.updated', (b) => b.id === id && b.customer_note === 'end');
    await delivered('order.created', (b) => b.id === id);
    // Checkout::create_or_update_draft_order() saves a new checkout-draft order (woocommerce_new_order), which
    // the request saves again (woocommerce_update_order: checkout-draft is not a draft status to the data store);
    // each webhook queues the order once per request and builds its payload when it delivers, after it.
    const ours = deliveries.filter((d) => d.body.id === id && d.body.customer_note !== 'end');
    // Two webhooks, two queues: their deliveries may interleave either way.
    expect(ours.map((d) => [d.topic, d.body.status, d.body.total]).sort()).toEqual([
      ['order.created', 'on-hold', '15.00'],
      ['order.updated', 'on-hold', '15.00'],
    ]);
  });

  it('counts a coupon when the order is placed, not for its draft: a single-use coupon survives GET checkout', async () => {
    const jug = (await v3('POST', '/products', { name: 'Jug', regular_price: '10' })).json.id;
    const coupon = (
      await v3('POST', '/coupons', { code: 'once', amount: '2', discount_type: 'fixed_cart', usage_limit: 1 })
    ).json;
    const usage = async () => (await v3('GET', `/coupons/${coupon.id}`)).json.usage_count;
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    await s.call('POST', 'cart/add-item', { id: jug, quantity: 1 });
    await s.call('POST', 'cart/apply-coupon', { code: 'once' });
    const id = (await s.call('GET', 'checkout')).body.order_id as number;
    expect((await v3('GET', `/orders/${id}`)).json.coupon_lines).toMatchObject([{ code: 'once' }]);
    // OrderController::update_line_items_from_cart() writes coupon lines (create_order_coupon_lines()), which
    // counts nothing; wc_update_coupon_usage_counts() runs on the placed order's status.
    expect(await usage()).toBe(0);
    await s.call('POST', 'cart/add-item', { id: jug, quantity: 1 });
    expect((await v3('GET', `/orders/${id}`)).json.total).toBe('18.00');
    expect(await usage()).toBe(0);

    const placed = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      billing_address: { first_name: 'Ana', email: 'ana@example.fr', country: 'FR' },
    });
    expect([placed.status, placed.body.order_id]).toEqual([200, id]);
    expect((await v3('GET', `/orders/${id}`)).json).toMatchObject({ total: '18.00', discount_total: '2.00' });
    expect(await usage()).toBe(1);
  });

  it('places a draft that was held then made pending without counting its coupon or sales a second time', async () => {
    const cup = (
      await v3('POST', '/products', {
        name: 'Cup',
        regular_price: '6',
        manage_stock: true,
        stock_quantity: 9,
      })
    ).json.id;
    const coupon = (await v3('POST', '/coupons', { code: 'cup1', amount: '1', discount_type: 'fixed_cart' }))
      .json;
    const address = {
      first_name: 'Ana',
      last_name: 'Lima',
      address_1: '1 rue Haute',
      city: 'Lyon',
      country: 'FR',
      email: 'ana@example.fr',
    };
    const s = new StoreApiSession(sb.url);
    await s.call('GET', 'cart');
    await s.call('POST', 'cart/add-item', { id: cup, quantity: 2 });
    await s.call('POST', 'cart/apply-coupon', { code: 'cup1' });
    await s.call('POST', 'cart/update-customer', { billing_address: address, shipping_address: address });
    const id = (await s.call('GET', 'checkout')).body.order_id as number;
    // On hold (stock taken, coupon and sales counted), then pending again (stock back): the draft is still the
    // session's (DraftOrderTrait::is_valid_draft_order(): pending, a total, the same cart).
    expect((await v3('PUT', `/orders/${id}`, { status: 'on-hold' })).json.status).toBe('on-hold');
    expect((await v3('PUT', `/orders/${id}`, { status: 'pending' })).json.status).toBe('pending');
    expect((await v3('GET', `/coupons/${coupon.id}`)).json.usage_count).toBe(1);

    const placed = await s.call('POST', 'checkout', {
      payment_method: 'bacs',
      billing_address: address,
      shipping_address: address,
    });
    expect(placed.body).toMatchObject({ order_id: id, status: 'on-hold' });
    // The order's _recorded_coupon_usage_counts and _recorded_sales stay set through the rewrite; its stock,
    // given back on pending, is taken once more.
    expect((await v3('GET', `/coupons/${coupon.id}`)).json.usage_count).toBe(1);
    const product = (await v3('GET', `/products/${cup}`)).json;
    expect([product.stock_quantity, product.total_sales]).toEqual([7, 2]);
  });
});
