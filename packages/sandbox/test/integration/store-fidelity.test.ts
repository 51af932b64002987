/**
 * Behaviour that used to differ from WooCommerce/WordPress (issue 7, section 2), over real sockets. Each test
 * names the WooCommerce or WordPress function whose behaviour it pins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';

let sb: Sandbox;

const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
});
afterAll(async () => {
  await sb.close();
});

describe('line items naming no existing product (WC_REST_Orders_V2_Controller::prepare_line_items)', () => {
  it('are accepted as lines without a product: product_id 0, no name, zero totals, sku null', async () => {
    const mug = (await api('POST', '/products', { name: 'Mug', regular_price: '8.00' })).json;
    const r = await api('POST', '/orders', {
      line_items: [
        { product_id: 999_999, quantity: 2 },
        { product_id: mug.id, quantity: 1 },
        { product_id: 999_998, name: 'Gift wrap', total: '4.50' },
        { product_id: mug.id, variation_id: 999_997 },
      ],
    });
    expect(r.status).toBe(201);
    const [unknown, linked, named, badVariation] = r.json.line_items;
    expect(unknown).toMatchObject({
      name: '',
      product_id: 0,
      variation_id: 0,
      quantity: 2,
      subtotal: '0.00',
      total: '0.00',
      sku: null,
      price: 0,
      image: { id: 0, src: '' },
      parent_name: null,
    });
    expect(linked).toMatchObject({ name: 'Mug', product_id: mug.id, total: '8.00' });
    expect(named).toMatchObject({ name: 'Gift wrap', product_id: 0, quantity: 1, total: '4.50', price: 4.5 });
    expect(badVariation).toMatchObject({ name: '', product_id: 0, variation_id: 0, total: '0.00' });
    expect(r.json.total).toBe('12.50');
  });

  it('on update, an unknown product_id leaves the line on its product and applies the other fields', async () => {
    const mug = (await api('POST', '/products', { name: 'Cup', regular_price: '3.00' })).json;
    const o = (await api('POST', '/orders', { line_items: [{ product_id: mug.id }] })).json;
    const line = o.line_items[0];
    const r = await api('PUT', `/orders/${o.id}`, {
      line_items: [{ id: line.id, product_id: 999_999, name: 'Renamed' }],
    });
    expect(r.status).toBe(200);
    expect(r.json.line_items).toHaveLength(1);
    expect(r.json.line_items[0]).toMatchObject({ id: line.id, product_id: mug.id, name: 'Renamed' });
  });
});

describe('category filter (WC_REST_Products_Controller::prepare_objects_query, WP_Tax_Query include_children)', () => {
  it('lists products of the category and of every category below it', async () => {
    const cat = async (name: string, parent = 0) =>
      (await api('POST', '/products/categories', { name, parent })).json.id as number;
    const clothing = await cat('Clothing');
    const shirts = await cat('Shirts', clothing);
    const polos = await cat('Polos', shirts);
    const toys = await cat('Toys');
    const make = async (name: string, category: number) =>
      (await api('POST', '/products', { name, categories: [{ id: category }] })).json.id as number;
    const coat = await make('Coat', clothing);
    const tee = await make('Tee', shirts);
    const polo = await make('Polo', polos);
    const ball = await make('Ball', toys);
    const ids = async (query: string) =>
      ((await api('GET', `/products?${query}&orderby=id&order=asc`)).json as { id: number }[]).map(
        (p) => p.id,
      );
    expect(await ids(`category=${clothing}`)).toEqual([coat, tee, polo]);
    expect(await ids(`category=${shirts}`)).toEqual([tee, polo]);
    expect(await ids(`category=${polos}`)).toEqual([polo]);
    expect(await ids(`category=${polos},${toys}`)).toEqual([polo, ball]);
  });
});

describe('orderby=price (WC_Query::order_by_price_{asc,desc}_post_clauses on wc_product_meta_lookup)', () => {
  it('ascending sorts on the lowest price, descending on the highest; variable and grouped take their range', async () => {
    const make = async (body: Record<string, unknown>) =>
      (await api('POST', '/products', body)).json.id as number;
    const a = await make({ name: 'A', regular_price: '10' });
    const b = await make({ name: 'B', regular_price: '20', sale_price: '5' });
    const v = await make({ name: 'V', type: 'variable' });
    for (const [price, status] of [
      ['3', 'publish'],
      ['30', 'publish'],
      ['1', 'private'],
    ] as const) {
      await api('POST', `/products/${v}/variations`, { regular_price: price, status });
    }
    const g = await make({ name: 'G', type: 'grouped', grouped_products: [a, b] });
    const none = await make({ name: 'N' });
    const ids = async (order: string) =>
      (
        (await api('GET', `/products?include=${[a, b, v, g, none].join(',')}&orderby=price&order=${order}`))
          .json as { id: number }[]
      ).map((p) => p.id);
    // min_price: N 0, V 3, B 5, G 5 (its cheapest child), A 10; ties on product_id ASC.
    expect(await ids('asc')).toEqual([none, v, b, g, a]);
    // max_price: V 30, G 10 and A 10 (product_id DESC), B 5, N 0.
    expect(await ids('desc')).toEqual([v, g, a, b, none]);
  });

  it('popularity sorts by total sales, most sold first, whatever the order', async () => {
    const p1 = (await api('POST', '/products', { name: 'Seller 1', regular_price: '1' })).json.id;
    const p2 = (await api('POST', '/products', { name: 'Seller 2', regular_price: '1' })).json.id;
    await api('POST', '/orders', { status: 'processing', line_items: [{ product_id: p1, quantity: 5 }] });
    await api('POST', '/orders', { status: 'processing', line_items: [{ product_id: p2, quantity: 1 }] });
    for (const order of ['asc', 'desc']) {
      const r = await api('GET', `/products?include=${p1},${p2}&orderby=popularity&order=${order}`);
      expect(r.json.map((p: { id: number }) => p.id)).toEqual([p1, p2]);
    }
  });
});
