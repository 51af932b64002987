/**
 * Numbers as WooCommerce's PHP handles them, over real sockets: `dp` (absint, no bounds), prices and totals
 * through wc_format_decimal(), integer params through `(int)`, and a variable parent product in a line item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, storeApi } from '../helpers/http.js';

let sb: Sandbox;
const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { seed: 'demo', rateLimit: false } });
});
afterAll(async () => {
  await sb.close();
});

/** A simple product at `price`, and an order of `qty` of it: what WooCommerce stored and totalled. */
async function priceAndTotal(price: string, qty = 2): Promise<{ stored: string; total: string }> {
  const product = await api('POST', '/products', { name: `P ${price}`, regular_price: price });
  expect(product.status).toBe(201);
  const order = await api('POST', '/orders', {
    line_items: [{ product_id: product.json.id, quantity: qty }],
  });
  expect(order.status).toBe(201);
  const again = await api('GET', `/products/${product.json.id}`);
  expect(again.json.regular_price).toBe(product.json.regular_price);
  return { stored: product.json.regular_price, total: order.json.total };
}

describe('dp: absint, no bounds (WC_REST_Orders_V2_Controller)', () => {
  it('GET /orders?dp=101 formats every amount with 101 decimals', async () => {
    const res = await api('GET', '/orders?dp=101&per_page=3');
    expect(res.status).toBe(200);
    expect(res.json.length).toBeGreaterThan(0);
    for (const o of res.json) {
      expect(o.total).toMatch(/^\d+\.\d{101}$/);
      expect(o.line_items[0].total).toMatch(/^\d+\.\d{101}$/);
    }
    const two = await api('GET', `/orders/${res.json[0].id}`);
    expect(res.json[0].total.startsWith(two.json.total)).toBe(true);
  });

  it('a dp whose padded amounts pass PHP memory_limit is the fatal error a real site answers', async () => {
    for (const path of [
      '/orders?dp=1e9',
      `/orders/${(await api('GET', '/orders')).json[0].id}?dp=1000000000`,
    ]) {
      const res = await api('GET', path);
      expectWcError(res, 500, 'internal_server_error');
    }
    // Nothing to format, nothing to exhaust.
    expect((await api('GET', '/orders?dp=1e9&include=999999')).status).toBe(200);
    expect((await api('GET', '/orders?per_page=1')).status).toBe(200);
  });

  it('the list validates dp as an integer (rest_invalid_param), negative ones count as positive', async () => {
    for (const dp of ['abc', '1.5']) {
      const res = await api('GET', `/orders?dp=${dp}`);
      expectWcError(res, 400, 'rest_invalid_param');
      expect(res.json.data.params).toEqual({ dp: 'dp is not of type integer.' });
    }
    const neg = await api('GET', '/orders?dp=-3&per_page=1');
    expect(neg.json[0].total).toMatch(/^\d+\.\d{3}$/);
  });

  it('a single order or refund does not declare dp: absint of anything ("abc" is 0 decimals)', async () => {
    const o = (await api('GET', '/orders?per_page=1')).json[0];
    const res = await api('GET', `/orders/${o.id}?dp=abc`);
    expect(res.status).toBe(200);
    expect(res.json.total).toMatch(/^\d+$/);
    const refund = await api('POST', `/orders/${o.id}/refunds`, { amount: '1', api_refund: false });
    expect(refund.status).toBe(201);
    const got = await api('GET', `/orders/${o.id}/refunds/${refund.json.id}?dp=101`);
    expect(got.json.amount).toBe(`1.${'0'.repeat(101)}`);
    expect((await api('GET', `/orders/${o.id}/refunds?dp=x`)).status).toBe(400);
  });
});

describe('prices through wc_format_decimal() (WC_Product::set_regular_price())', () => {
  it.each([
    ['NaN', '', '0.00'],
    ['Infinity', '', '0.00'],
    ['1e308', '1308', '2616.00'],
    ['5,00', '500', '1000.00'],
    ['1e-7', '1-7', '2.00'],
    ['0x10', '010', '20.00'],
    ['1.2.3', '12.3', '24.60'],
    [' 12.50 ', '12.50', '25.00'],
    ['<h1>7</h1>', '7', '14.00'],
    ['1%2050', '150', '300.00'],
    ['-4', '-4', '-8.00'],
  ])('%j is stored as %j; two of it total %j', async (price, stored, total) => {
    expect(await priceAndTotal(price)).toEqual({ stored, total });
  });

  it('a sale price goes the same way, and is on sale only below the regular price', async () => {
    const p = await api('POST', '/products', { name: 'Sale', regular_price: '20', sale_price: '1,5' });
    expect(p.json).toMatchObject({ regular_price: '20', sale_price: '15', price: '15', on_sale: true });
    const nan = await api('POST', '/products', { name: 'No sale', regular_price: '20', sale_price: 'NaN' });
    expect(nan.json).toMatchObject({ sale_price: '', price: '20', on_sale: false });
  });

  it('line, shipping and fee totals too (WC_Order_Item::set_total())', async () => {
    const p = await api('POST', '/products', { name: 'Line', regular_price: '3' });
    const o = await api('POST', '/orders', {
      line_items: [{ product_id: p.json.id, quantity: 1, subtotal: '5,00', total: '5,00' }],
      shipping_lines: [{ method_id: 'flat_rate', total: '1e3' }],
      fee_lines: [{ name: 'Fee', total: '2.5.0' }],
    });
    expect(o.status).toBe(201);
    expect(o.json.line_items[0]).toMatchObject({ subtotal: '500.00', total: '500.00' });
    expect(o.json.shipping_lines[0].total).toBe('13.00');
    expect(o.json.fee_lines[0].total).toBe('25.00');
    expect(o.json.total).toBe('538.00');
  });

  it('a line total that is not numeric once formatted is 0; one above the subtotal raises it', async () => {
    const p = await api('POST', '/products', { name: 'Raise', regular_price: '3' });
    const o = await api('POST', '/orders', {
      line_items: [
        { product_id: p.json.id, quantity: 1, total: '1e-7' },
        { product_id: p.json.id, quantity: 1, total: '9' },
        { product_id: p.json.id, quantity: 1, total: '9', subtotal: '4' },
      ],
    });
    expect(o.json.line_items.map((l: { subtotal: string; total: string }) => [l.subtotal, l.total])).toEqual([
      ['3.00', '0.00'],
      ['9.00', '9.00'],
      ['4.00', '9.00'],
    ]);
  });
});

describe('integers through (int) (rest_sanitize_value_from_schema())', () => {
  const stock = async (quantity: unknown) => {
    const body = `{"name":"Stock","manage_stock":true,"stock_quantity":${quantity}}`;
    const res = await api('POST', '/products', body);
    expect(res.status).toBe(201);
    expect((await api('GET', `/products/${res.json.id}`)).json.stock_quantity).toBe(res.json.stock_quantity);
    return res.json;
  };

  it('stock_quantity 1e308 is 0 (a float past 64 bits wraps), so the product is out of stock', async () => {
    expect(await stock('1e308')).toMatchObject({ stock_quantity: 0, stock_status: 'outofstock' });
  });

  it('wraps other floats modulo 2^64, reads numeric strings, and takes 1e400 (INF) as 0', async () => {
    expect((await stock('1e19')).stock_quantity).toBe(Number(10n ** 19n - 2n ** 64n));
    expect((await stock('"1e3"')).stock_quantity).toBe(1000);
    expect((await stock('12.0')).stock_quantity).toBe(12);
    expect((await stock('1e400')).stock_quantity).toBe(0);
    const frac = await api('POST', '/products', '{"name":"x","stock_quantity":1.5}');
    expect(frac.json.data.params).toEqual({ stock_quantity: 'stock_quantity is not of type integer.' });
  });
});

describe('a variable parent product in a line item (prepare_line_items() does not refuse it)', () => {
  it('sells at its price, the lowest of its variations (demo product 76, Mug: 9.00)', async () => {
    const mug = await api('GET', '/products/76');
    expect(mug.json).toMatchObject({ type: 'variable', price: '9' });
    const o = await api('POST', '/orders', { line_items: [{ product_id: 76, quantity: 2 }] });
    expect(o.status).toBe(201);
    expect(o.json.line_items[0]).toMatchObject({
      product_id: 76,
      variation_id: 0,
      name: 'Mug',
      quantity: 2,
      subtotal: '18.00',
      total: '18.00',
      price: 9,
    });
    expect(o.json.total).toBe('18.00');
  });

  it("shows the cheapest variation's price as stored, and sells at 0 without one", async () => {
    const v = await api('POST', '/products', { name: 'Lamp', type: 'variable' });
    const empty = await api('POST', '/orders', { line_items: [{ product_id: v.json.id, quantity: 1 }] });
    expect(empty.status).toBe(201);
    expect(empty.json.total).toBe('0.00');
    for (const regular_price of ['12.50', '10.50', '']) {
      await api('POST', `/products/${v.json.id}/variations`, { regular_price });
    }
    expect((await api('GET', `/products/${v.json.id}`)).json.price).toBe('10.50');
    const o = await api('POST', '/orders', { line_items: [{ product_id: v.json.id, quantity: 3 }] });
    expect(o.json.total).toBe('31.50');
  });
});
