/**
 * Requests whose work grew with a number in the request (a quantity, a date range) or with a receiver's answer,
 * over real sockets: each is answered with WooCommerce's result, or with the fatal error PHP's limits would
 * give it, and the emulator goes on answering.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { RESPONSE_BODY_LIMIT, WebhookDeliverer } from '../../src/store/webhooks/delivery.js';
import { createWebhook } from '../../src/store/webhooks/webhooks.js';
import { storeApi } from '../helpers/http.js';
import { makeStore } from '../helpers/model.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
});
afterAll(async () => {
  await sandbox.close();
});

const api = (method: string, path: string, body?: unknown) => storeApi(sandbox, method, path, body);

describe('apply_coupon_remainder() on huge quantities', () => {
  let productId = 0;
  beforeAll(async () => {
    const product = await api('POST', '/products', { name: 'Probe', regular_price: '1.00' });
    productId = product.json.id;
    await api('POST', '/coupons', { code: 'probe5', discount_type: 'fixed_cart', amount: '5' });
  });

  const order = (quantity: number) =>
    api('POST', '/orders', {
      line_items: [{ product_id: productId, quantity, subtotal: '1.00', total: '1.00' }],
      coupon_lines: [{ code: 'probe5' }],
    });

  it('a fixed cart coupon larger than a 30-million-unit line at 1.00 takes the line’s 1.00, answered', async () => {
    const res = await order(3e7);
    expect(res.status).toBe(201);
    expect(res.json.discount_total).toBe('1.00');
    expect(res.json.total).toBe('0.00');
    expect(res.json.coupon_lines[0].discount).toBe('1.00');
  });

  it('the same for a billion units: the units past the used-up price change nothing', async () => {
    const res = await order(1e9);
    expect(res.status).toBe(201);
    expect(res.json.discount_total).toBe('1.00');
  });

  it('past what WooCommerce’s cent-at-a-time loop runs in 30 s: its fatal error, and the store answers on', async () => {
    const res = await order(5e9);
    expect(res.status).toBe(500);
    expect(res.json.code).toBe('internal_server_error');
    const after = await api('GET', '/coupons?code=probe5');
    expect(after.status).toBe(200);
  });
});

describe('webhook delivery responses', () => {
  const TOTAL = 64 * 1024 * 1024;
  let receiver: Server;
  let sent = 0;
  let hungUp = false;

  beforeAll(async () => {
    // Answers every POST with 64 MB of 'x', a chunk at a time, as long as the store keeps reading.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (sent < TOTAL) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => {
          if (sent < TOTAL) hungUp = true;
        });
        pump();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('a receiver streaming far more than the bound: the delivery completes with a bounded body kept', async () => {
    const store = makeStore();
    const deliverer = new WebhookDeliverer(store);
    store.deliverer = deliverer;
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = createWebhook(store, { topic: 'coupon.created', delivery_url: url });
    deliverer.deliver(hook.id, 'coupon', 'created', { id: 1 });
    await deliverer.idle();
    const response = deliverer.lastResponse(hook.id);
    expect(response?.code).toBe(200);
    expect(response?.body.length).toBe(RESPONSE_BODY_LIMIT);
    expect(response?.body).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
    // The store hung up: the receiver never got to send it all, and the delivery counts as a success.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(sent).toBeLessThan(TOTAL);
    expect(hungUp).toBe(true);
    expect(store.state.webhooks.get(hook.id)?.failure_count).toBe(0);
    deliverer.close();
  });
});

describe('sales report over the longest range the dates allow', () => {
  it('by month from 20 years ago to 9999-12-31, as WooCommerce groups it, with each sign-up in its month', async () => {
    const create = Array.from({ length: 60 }, (_, i) => ({ email: `budget-${i}@example.com` }));
    const batch = await api('POST', '/customers/batch', { create });
    expect(batch.status).toBe(200);
    const product = await api('POST', '/products', { name: 'Report probe', regular_price: '4.00' });
    await api('POST', '/orders', {
      status: 'completed',
      line_items: [{ product_id: product.json.id, quantity: 2 }],
    });

    const res = await api('GET', '/reports/sales?date_max=9999-12-31');
    expect(res.status).toBe(200);
    const [report] = res.json;
    expect(report.totals_grouped_by).toBe('month');
    const keys = Object.keys(report.totals);
    // 20 years back to the end of 9999, one key a month, in order.
    expect(keys.at(-1)).toBe('9999-12');
    expect(keys.length).toBeGreaterThan((9999 - new Date().getUTCFullYear()) * 12);
    expect(keys.length).toBeLessThan((9999 - new Date().getUTCFullYear() + 21) * 12);
    const month = new Date().toISOString().slice(0, 7);
    expect(report.totals[month].customers).toBe(report.total_customers);
    expect(report.total_customers).toBeGreaterThanOrEqual(60);
    expect(report.totals[month].sales).toBe(report.total_sales);
    expect(report.totals['9999-12']).toEqual({
      sales: '0.00',
      orders: 0,
      items: 0,
      tax: '0.00',
      shipping: '0.00',
      discount: '0.00',
      customers: 0,
    });
    // The same report twice is the same body.
    expect((await api('GET', '/reports/sales?date_max=9999-12-31')).text).toBe(res.text);
  });
});
