/**
 * "Get help with this cart", end to end over real sockets: a customer's cart built with the StorefrontClient
 * against the sandbox (items, a coupon the admin client created, an address and a shipping rate), its token
 * traded for a support code, the code typed into a call, and the call then shows what the Store API says of
 * that cart (items, quantities, coupons, totals, shipping), announced to other tabs, refreshed after the
 * customer changes it, with the order after a checkout, and still there after the desk restarts. Wrong,
 * used, expired and unknown codes are clear 4xx answers; the cart token is in no answer and no log line.
 */
import { type Cart, MemoryCartTokenStore, StorefrontClient } from '@x/store/storefront';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readOrderRest } from '../../src/server/storefront/order-rest.js';
import type {
  CallDetail,
  CallView,
  LiveCallStart,
  StorefrontCart,
  StorefrontHelpCode,
  StorefrontSnapshot,
} from '../../src/shared/api.js';
import { type Desk, startDesk } from '../helpers/desk.js';
import { listen } from '../helpers/listener.js';

let desk: Desk;
/** Every body the desk answered in this file, to search for secrets at the end. */
const answered: string[] = [];

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${desk.server.url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  answered.push(text);
  return { status: res.status, body: JSON.parse(text) as T };
}

type Linked = { call: CallView; cart: StorefrontSnapshot };
type Failure = { error: { status: number; code: string; message: string } };

/** The desk's cart view of the Store API's cart: what the panel must show, field by field. */
function expected(cart: Cart): Omit<StorefrontCart, 'currency' | 'errors'> {
  const selected = cart.shipping_rates.flatMap((p) => p.shipping_rates).find((r) => r.selected);
  return {
    items: cart.items.map((i) => ({
      key: i.key,
      id: i.id,
      name: i.name,
      sku: i.sku ?? '',
      quantity: i.quantity,
      price: i.prices.price,
      line_subtotal: i.totals.line_subtotal,
      line_total: i.totals.line_total,
    })),
    lines: cart.items.length,
    items_count: cart.items_count,
    coupons: cart.coupons.map((c) => ({ code: c.code, total_discount: c.totals.total_discount })),
    totals: {
      total_items: cart.totals.total_items,
      total_discount: cart.totals.total_discount,
      total_shipping: cart.totals.total_shipping,
      total_tax: cart.totals.total_tax,
      total_price: cart.totals.total_price,
    },
    shipping_rate: selected
      ? { rate_id: selected.rate_id, name: selected.name, price: selected.price }
      : null,
  };
}

async function helpCode(cartToken: string, order: unknown = null): Promise<string> {
  const { status, body } = await call<StorefrontHelpCode>('POST', '/api/storefront/help', {
    cart_token: cartToken,
    order,
  });
  expect(status).toBe(201);
  expect(body.code).toMatch(/^\d{6}$/);
  expect(body.expires_in_seconds).toBe(7200);
  return body.code;
}

const tokens = new MemoryCartTokenStore();
/** Every Cart-Token the customer's client held: none may reach the desk's answers or log. */
const seenTokens = new Set<string>();
let customer: StorefrontClient;
let callId: string;
let liveKey: string;
let code: string;
const billing = {
  first_name: 'Ana',
  last_name: 'Lima',
  address_1: '1 Main St',
  city: 'Portland',
  state: 'OR',
  postcode: '97201',
  country: 'US',
  email: 'ana.lima@example.com',
};

beforeAll(async () => {
  desk = await startDesk({ staticDir: undefined });
  customer = new StorefrontClient({
    url: desk.sandbox.store.url,
    cartTokenStore: {
      get: () => tokens.get(),
      set: (token) => {
        seenTokens.add(token);
        tokens.set(token);
      },
    },
  });
  const live = await call<LiveCallStart>('POST', '/api/live-calls', { name: 'Cart question' });
  expect(live.status).toBe(201);
  callId = live.body.call.id;
  liveKey = live.body.key;
});
afterAll(() => desk?.close());

describe('a call linked to the customer’s cart by a support code', () => {
  let products: number[];
  let cart: Cart;

  it('shows the cart the Store API computes, and tells every open page', async () => {
    const page = await customer.products.list({ per_page: 20, type: 'simple' });
    products = page.data
      .filter((p) => p.is_purchasable && p.is_in_stock && Number(p.prices.price) > 0)
      .map((p) => p.id)
      .slice(0, 2);
    expect(products).toHaveLength(2);
    await customer.cart.addItem({ id: products[0]!, quantity: 2 });
    await customer.cart.addItem({ id: products[1]!, quantity: 1 });
    const coupon = await desk.store.coupons.create({
      code: 'helpdesk10',
      discount_type: 'percent',
      amount: '10',
    });
    await customer.cart.applyCoupon(coupon.code);
    cart = await customer.cart.updateCustomer({ billing_address: billing, shipping_address: billing });
    const rate = cart.shipping_rates[0]?.shipping_rates.at(-1);
    if (rate) cart = await customer.cart.selectShippingRate({ rate_id: rate.rate_id, package_id: 0 });
    expect(cart.coupons.map((c) => c.code)).toEqual(['helpdesk10']);

    const tab = await listen(desk);
    try {
      code = await helpCode(tokens.get()!);
      const linked = await call<Linked>('POST', `/api/calls/${callId}/storefront`, {
        code: `${code.slice(0, 3)} ${code.slice(3)}`,
      });
      expect(linked.status).toBe(200);
      const snapshot = linked.body.cart;
      cart = await customer.cart.get();
      expect(snapshot.cart).toMatchObject(expected(cart));
      expect(snapshot.cart!.items.map((i) => [i.id, i.quantity])).toEqual([
        [products[0], 2],
        [products[1], 1],
      ]);
      expect(Number(snapshot.cart!.totals.total_discount)).toBeGreaterThan(0);
      expect(snapshot.cart!.currency).toMatchObject({
        currency_code: cart.totals.currency_code,
        currency_minor_unit: cart.totals.currency_minor_unit,
      });
      expect(snapshot.order).toBeNull();
      expect(linked.body.call.storefront).toMatchObject({
        readAt: snapshot.readAt,
        items_count: 3,
        total_price: cart.totals.total_price,
      });
      // Another tab hears the call's update, whose summary points at this read.
      for (
        let i = 0;
        i < 100 && !tab.of('call-status').some((c) => c.storefront?.readAt === snapshot.readAt);
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      const heard = tab.of('call-status').filter((c: CallView) => c.id === callId);
      expect(heard.at(-1)?.storefront?.readAt).toBe(snapshot.readAt);
      // The call's detail carries the same snapshot.
      const detail = await call<CallDetail>('GET', `/api/calls/${callId}`);
      expect(detail.body.cart).toEqual(snapshot);
      // The live call's own copy of the call, made before the link, ends it: what it stores and
      // announces still has the link.
      const res = await fetch(`${desk.server.url}/api/live-calls/${callId}/end`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': liveKey },
        body: '{}',
      });
      const ended = (await res.json()) as { call: CallView };
      answered.push(JSON.stringify(ended));
      expect(res.status).toBe(202);
      expect(ended.call.storefront?.readAt).toBe(snapshot.readAt);
      const after = await call<CallDetail>('GET', `/api/calls/${callId}`);
      expect(after.body.storefront?.readAt).toBe(snapshot.readAt);
    } finally {
      tab.close();
    }
  });

  it('refuses the used, unknown, malformed and expired codes with clear 4xx answers', async () => {
    const link = (body: unknown) => call<Failure>('POST', `/api/calls/${callId}/storefront`, body);
    const used = await link({ code });
    expect([used.status, used.body.error.code]).toEqual([409, 'code_used']);
    const fresh = await helpCode(tokens.get()!);
    const unknown = String((Number(fresh) + 1) % 1_000_000).padStart(6, '0');
    const missing = await link({ code: unknown });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'unknown_code']);
    for (const bad of [
      { code: '12a456' },
      { code: '12345' },
      { code: 123456 },
      {},
      { code: '123456', x: 1 },
    ]) {
      const refused = await link(bad);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('invalid_input');
    }
    const noCall = await call<Failure>('POST', '/api/calls/00000000-0000-4000-8000-000000000000/storefront', {
      code: fresh,
    });
    expect(noCall.status).toBe(404);
    // Two hours and a second later, the code has expired (Date.now is the desk's clock: it runs here).
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now + 2 * 3600_000 + 1000);
    try {
      const expired = await link({ code: fresh });
      expect([expired.status, expired.body.error.code]).toEqual([410, 'code_expired']);
    } finally {
      clock.mockRestore();
    }
    for (const bad of [
      { cart_token: '' },
      { cart_token: 'a b' },
      { cart_token: 'x', order: { id: 1 } },
      [],
    ]) {
      const refused = await call<Failure>('POST', '/api/storefront/help', bad);
      expect(refused.status).toBe(400);
    }
    const notJson = await fetch(`${desk.server.url}/api/storefront/help`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    const huge = await call<Failure>('POST', '/api/storefront/help', { cart_token: 'x'.repeat(10_000) });
    expect(huge.status).toBe(413);
  });

  it('shows the customer’s change after a refresh', async () => {
    const before = await customer.cart.get();
    await customer.cart.updateItem(before.items[0]!.key, 5);
    cart = await customer.cart.removeItem(before.items[1]!.key);
    const refreshed = await call<Linked>('POST', `/api/calls/${callId}/storefront/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.cart.cart).toMatchObject(expected(await customer.cart.get()));
    expect(refreshed.body.cart.cart!.items.map((i) => [i.id, i.quantity])).toEqual([[products[0], 5]]);
  });

  it('shows the last order after a checkout, as the store has it', async () => {
    // The demo store takes no payment until a gateway is on: bank transfer, as a shop owner would.
    await desk.store.paymentGateways.update('bacs', { enabled: true });
    const placed = await customer.checkout.place({ billing_address: billing, payment_method: 'bacs' });
    const order = { id: placed.order_id, key: placed.order_key, billing_email: billing.email };
    const again = await helpCode(tokens.get()!, order);
    const linked = await call<Linked>('POST', `/api/calls/${callId}/storefront`, { code: again });
    expect(linked.status).toBe(200);
    const snapshot = linked.body.cart;
    expect(snapshot.cart?.items).toEqual([]);
    // What the Store API says of the order to its customer, and what the REST API says to the shop.
    const query = new URLSearchParams({ key: order.key, billing_email: order.billing_email });
    const res = await fetch(`${desk.sandbox.store.url}/wp-json/wc/store/v1/order/${order.id}?${query}`);
    expect(res.status).toBe(200);
    const storeApi = (await res.json()) as { status: string; totals: Record<string, string> };
    const rest = await desk.store.orders.get(placed.order_id);
    expect(snapshot.order).toMatchObject({ id: placed.order_id, status: storeApi.status, via: 'store-api' });
    expect(snapshot.order!.totals).toEqual({
      total_items: storeApi.totals.total_items,
      total_discount: storeApi.totals.total_discount,
      total_shipping: storeApi.totals.total_shipping,
      total_tax: storeApi.totals.total_tax,
      total_price: storeApi.totals.total_price,
    });
    const unit = snapshot.order!.currency.currency_minor_unit;
    expect(Number(snapshot.order!.totals.total_price)).toBe(Math.round(Number(rest.total) * 10 ** unit));
    expect(snapshot.order!.items.map((i) => [i.id, i.name, i.quantity])).toEqual(
      rest.line_items.map((li) => [li.id, li.name, li.quantity]),
    );
    expect(snapshot.order!.items.map((i) => i.quantity)).toEqual([5]);
    expect(snapshot.order!.coupons.map((c) => c.code)).toEqual(['helpdesk10']);
    expect(linked.body.call.storefront?.orderId).toBe(placed.order_id);
    // A WooCommerce without the Store API's order route: the REST API's order reads the same.
    const viaRest = await readOrderRest(desk.store, order, snapshot.cart!.currency);
    expect({ ...viaRest, via: 'store-api' }).toEqual(snapshot.order);
    await expect(readOrderRest(desk.store, { ...order, key: 'wc_order_other' }, null)).rejects.toMatchObject({
      status: 404,
    });

    // A wrong key or email shows no order, and says so.
    const wrong = await helpCode(tokens.get()!, { ...order, billing_email: 'someone@example.com' });
    const refused = await call<Linked>('POST', `/api/calls/${callId}/storefront`, { code: wrong });
    expect(refused.body.cart.order).toBeNull();
    expect(refused.body.cart.orderError).toMatch(/not found with the key and email/);
    const right = await helpCode(tokens.get()!, order);
    expect((await call<Linked>('POST', `/api/calls/${callId}/storefront`, { code: right })).status).toBe(200);
  });

  it('keeps the link through a restart of the desk, and refreshes from it', async () => {
    const before = (await call<CallDetail>('GET', `/api/calls/${callId}`)).body;
    await desk.restart();
    const after = await call<CallDetail>('GET', `/api/calls/${callId}`);
    expect(after.body.cart).toEqual(before.cart);
    expect(
      (await call<{ calls: CallView[] }>('GET', '/api/calls')).body.calls.find((c) => c.id === callId)
        ?.storefront,
    ).toEqual(before.storefront);
    const product = products[1]!;
    cart = await customer.cart.addItem({ id: product, quantity: 1 });
    const refreshed = await call<Linked>('POST', `/api/calls/${callId}/storefront/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.cart.cart).toMatchObject(expected(cart));
    expect(refreshed.body.cart.order?.id).toBe(before.cart?.order?.id);
  });

  it('says so when the token no longer finds the customer’s cart, instead of showing an empty one', async () => {
    // A token the store did not sign (as an expired one): the Store API answers with a new, empty cart.
    const real = tokens.get()!;
    const forged = `${real.slice(0, -4)}${real.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    seenTokens.add(forged);
    const linked = await call<Linked>('POST', `/api/calls/${callId}/storefront`, {
      code: await helpCode(forged),
    });
    expect(linked.status).toBe(200);
    expect(linked.body.cart.cart).toBeNull();
    expect(linked.body.cart.cartError).toMatch(/cart has expired/);
    expect(linked.body.call.storefront).toMatchObject({ items_count: null, total_price: null });
  });

  it('never shows the cart token or the order key in an answer or a log line', () => {
    expect(seenTokens.size).toBeGreaterThan(0);
    const everything = [...answered, ...desk.logs].join('\n');
    for (const token of seenTokens) expect(everything).not.toContain(token);
    expect(everything).not.toMatch(/wc_order_\w+/);
  });
});

describe('a store the desk cannot reach', () => {
  it('answers 502 without the token, and the code stays good for when the store is back', async () => {
    // A port nothing listens on: a refused connection, as a store that is down.
    const down = await startDesk((base) => ({
      staticDir: undefined,
      store: { ...base.store, url: 'http://127.0.0.1:9', registerWebhooks: false },
    }));
    try {
      const at = (path: string, body: unknown) =>
        fetch(`${down.server.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const token = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF9zZWNyZXQifQ.c2lnbmF0dXJlLXNlY3JldA';
      const { code } = (await (
        await at('/api/storefront/help', { cart_token: token, order: null })
      ).json()) as {
        code: string;
      };
      const live = (await (await at('/api/live-calls', { name: 'Store down' })).json()) as { call: CallView };
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await at(`/api/calls/${live.call.id}/storefront`, { code });
        const text = await res.text();
        expect(res.status).toBe(502);
        expect(JSON.parse(text).error.message).toMatch(/^the store’s cart could not be read/);
        expect(text).not.toContain(token);
      }
      expect(down.logs.join('\n')).not.toContain(token);
    } finally {
      await down.close();
    }
  });
});
