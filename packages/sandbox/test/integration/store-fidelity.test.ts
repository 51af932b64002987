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

describe('date_created on create and update (WC_REST_Products_Controller::prepare_object_for_database)', () => {
  it('products take date_created (site time, UTC here) and date_created_gmt (offset forced to UTC)', async () => {
    const make = async (body: Record<string, unknown>) =>
      (await api('POST', '/products', { name: 'Old', ...body })).json;
    const local = await make({ date_created: '2020-03-04T05:06:07' });
    expect(local).toMatchObject({
      date_created: '2020-03-04T05:06:07',
      date_created_gmt: '2020-03-04T05:06:07',
      // wp_insert_post(): a new post's post_modified is its post_date.
      date_modified: '2020-03-04T05:06:07',
    });
    expect((await make({ date_created: '2020-03-04T05:06:07+02:00' })).date_created).toBe(
      '2020-03-04T03:06:07',
    );
    expect((await make({ date_created_gmt: '2020-03-04T05:06:07+02:00' })).date_created).toBe(
      '2020-03-04T05:06:07',
    );
    const both = await make({
      date_created: '2019-01-01T00:00:00',
      date_created_gmt: '2018-01-01T00:00:00Z',
    });
    expect(both.date_created).toBe('2018-01-01T00:00:00');
    const ignored = await make({ date_created: 'last tuesday' });
    expect(Date.parse(`${ignored.date_created}Z`)).toBeGreaterThan(Date.parse('2024-01-01T00:00:00Z'));

    const updated = await api('PUT', `/products/${local.id}`, { date_created: '2015-06-07T08:09:10' });
    expect(updated.json.date_created).toBe('2015-06-07T08:09:10');
    expect(Date.parse(`${updated.json.date_modified}Z`)).toBeGreaterThan(Date.parse('2024-01-01T00:00:00Z'));

    const list = await api(
      'GET',
      `/products?before=2020-12-31T00:00:00&include=${[local.id, both.id, ignored.id]}`,
    );
    expect(list.json.map((p: { id: number }) => p.id)).toEqual([both.id, local.id]);
    const byDate = await api(
      'GET',
      `/products?include=${[local.id, both.id, ignored.id]}&orderby=date&order=asc`,
    );
    expect(byDate.json.map((p: { id: number }) => p.id)).toEqual([local.id, both.id, ignored.id]);
    const modified = await api(
      'GET',
      `/products?modified_before=2021-01-01T00:00:00&include=${[both.id, ignored.id]}`,
    );
    expect(modified.json.map((p: { id: number }) => p.id)).toEqual([both.id]);
  });

  it('a published product dated a minute or more ahead is scheduled (wp_insert_post: publish -> future)', async () => {
    const r = await api('POST', '/products', { name: 'Soon', date_created: '2999-01-01T00:00:00' });
    expect(r.json).toMatchObject({ status: 'future', slug: 'soon', date_created: '2999-01-01T00:00:00' });
  });

  it('orders do not take date_created: it is read-only in their schema', async () => {
    const r = await api('POST', '/orders', {
      date_created: '2020-01-01T00:00:00',
      date_created_gmt: '2020-01-01T00:00:00',
    });
    expect(r.status).toBe(201);
    expect(Date.parse(`${r.json.date_created}Z`)).toBeGreaterThan(Date.parse('2024-01-01T00:00:00Z'));
  });
});

describe('slugs of unpublished products (wp_insert_post post_name, get_permalink)', () => {
  it('drafts and pending products have no slug and a plain permalink until published', async () => {
    const draft = (await api('POST', '/products', { name: 'Draft Mug', status: 'draft' })).json;
    expect(draft.slug).toBe('');
    expect(draft.permalink).toBe(`${sb.url}/?post_type=product&p=${draft.id}`);
    const pending = (await api('POST', '/products', { name: 'Pending Mug', status: 'pending' })).json;
    expect(pending.slug).toBe('');
    const renamed = await api('PUT', `/products/${draft.id}`, { name: 'Draft Mug 2' });
    expect(renamed.json.slug).toBe('');
    const published = await api('PUT', `/products/${draft.id}`, { status: 'publish' });
    expect(published.json.slug).toBe('draft-mug-2');
    expect(published.json.permalink).toBe(`${sb.url}/product/draft-mug-2/`);
    const priv = (await api('POST', '/products', { name: 'Private Mug', status: 'private' })).json;
    expect(priv.slug).toBe('private-mug');
  });

  it('a draft keeps a given slug even when taken; it is made unique when the draft is published', async () => {
    const live = (await api('POST', '/products', { name: 'Teapot' })).json;
    expect(live.slug).toBe('teapot');
    const draft = (await api('POST', '/products', { name: 'Teapot again', slug: 'teapot', status: 'draft' }))
      .json;
    expect(draft.slug).toBe('teapot');
    // A change that touches no post field leaves the published product's slug alone.
    expect((await api('PUT', `/products/${live.id}`, { regular_price: '9' })).json.slug).toBe('teapot');
    expect((await api('PUT', `/products/${draft.id}`, { status: 'publish' })).json.slug).toBe('teapot-2');
  });

  it('a product created without a name is titled "Product" (WC_Product_Data_Store_CPT::create)', async () => {
    const r = await api('POST', '/products', { regular_price: '1' });
    expect(r.json).toMatchObject({ name: 'Product', slug: 'product' });
  });
});

describe('JSON null parameters (WP_REST_Request::has_valid_params / sanitize_params)', () => {
  it('are not validated but sanitized: an order created with status null stays pending', async () => {
    const r = await api('POST', '/orders', {
      status: null,
      currency: null,
      customer_id: null,
      set_paid: null,
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ status: 'pending', currency: 'USD', customer_id: 0, date_paid: null });
    const u = await api('PUT', `/orders/${r.json.id}`, { status: 'on-hold' });
    const again = await api('PUT', `/orders/${r.json.id}`, {
      status: null,
      customer_note: null,
      billing: null,
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ status: 'on-hold', customer_note: '' });
    expect(again.json.billing).toEqual(u.json.billing);
  });

  it('products: status null is a draft, type null simple, stock_quantity null 0, sale dates unchanged', async () => {
    const r = await api('POST', '/products', {
      name: 'Nulls',
      status: null,
      type: null,
      tax_status: null,
      manage_stock: true,
      stock_quantity: null,
      date_on_sale_from: '2030-01-01T00:00:00',
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      status: 'draft',
      slug: '',
      type: 'simple',
      tax_status: 'taxable',
      stock_quantity: 0,
      date_on_sale_from: '2030-01-01T00:00:00',
    });
    const u = await api('PUT', `/products/${r.json.id}`, { date_on_sale_from: null, stock_status: null });
    expect(u.json).toMatchObject({ date_on_sale_from: '2030-01-01T00:00:00', stock_status: 'outofstock' });
  });

  it('an empty catalog_visibility fails in WC_Product::set_catalog_visibility()', async () => {
    const r = await api('POST', '/products', { name: 'Hidden?', catalog_visibility: null });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      code: 'product_invalid_catalog_visibility',
      message: 'Invalid catalog visibility option.',
      data: { status: 400 },
    });
  });

  it('webhook updates skip empty values (update_item checks ! empty())', async () => {
    const w = (
      await api('POST', '/webhooks', {
        name: 'Hook',
        topic: 'order.created',
        delivery_url: 'http://127.0.0.1:9/hook',
        status: 'paused',
      })
    ).json;
    const r = await api('PUT', `/webhooks/${w.id}`, {
      name: null,
      topic: null,
      status: null,
      delivery_url: '',
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'Hook', topic: 'order.created', status: 'paused' });
  });

  it('a category display null is stored empty and read back as default (update_term_meta_fields)', async () => {
    const c = (await api('POST', '/products/categories', { name: 'Shown', display: 'products' })).json;
    expect((await api('PUT', `/products/categories/${c.id}`, { display: null })).json.display).toBe(
      'default',
    );
  });

  it('values that are not null are still validated, and a required null is still missing', async () => {
    const bad = await api('POST', '/orders', { status: 5 });
    expect(bad.json.data.params.status).toBe('status is not of type string.');
    const date = await api('POST', '/products', { date_created: 5 });
    expect(date.json.data.params.date_created).toBe('date_created is not of type null,string.');
    const missing = await api('POST', '/webhooks', { topic: null, delivery_url: 'http://127.0.0.1:9/' });
    expect(missing.json.code).toBe('rest_missing_callback_param');
  });
});
