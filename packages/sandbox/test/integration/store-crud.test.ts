import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basicAuth, storeApi } from '../helpers/http.js';

let sb: Sandbox;

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  storeApi(sb, method, path, body, headers);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
});
afterAll(async () => {
  await sb.close();
});

describe('routing', () => {
  it('serves the namespace index without auth and both URL forms', async () => {
    const index = await fetch(`${sb.url}/wp-json/wc/v3`);
    expect(index.status).toBe(200);
    const body = (await index.json()) as { namespace: string; routes: Record<string, unknown> };
    expect(body.namespace).toBe('wc/v3');
    expect(Object.keys(body.routes)).toContain('/wc/v3/products');

    const created = await api('POST', '/products', { name: 'Both Forms', regular_price: '9.50' });
    const plain = await fetch(`${sb.url}/?rest_route=/wc/v3/products/${created.json.id}`, {
      headers: { Authorization: basicAuth(sb) },
    });
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { name: string }).name).toBe('Both Forms');
  });

  it('answers unknown routes and methods with rest_no_route', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['PUT', '/orders/1/notes/2'],
      ['GET', '/products/abc'],
      ['GET', '/products/..%2F..%2Fetc%2Fpasswd'],
    ] as const) {
      const r = await api(method, path);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('rejects malformed JSON with rest_invalid_json and oversized bodies with 413', async () => {
    const bad = await api('POST', '/products', '{"name": ');
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('rest_invalid_json');
    const small = await startSandbox({ port: 0, store: { maxBodyBytes: 1024 } });
    try {
      const r = await fetch(`${small.url}/wp-json/wc/v3/products`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(5000) }),
      });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { data: { status: number } }).data.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('validates types with rest_invalid_param and data.params', async () => {
    const r = await api('POST', '/products', { name: 'T', regular_price: 10, type: 'bogus' });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('rest_invalid_param');
    expect(Object.keys(r.json.data.params).sort()).toEqual(['regular_price', 'type']);
    expect(r.json.data.details.regular_price.code).toBe('rest_invalid_type');
    const huge = await api('GET', '/products/99999999999999999999999');
    expect(huge.status).toBe(404);
    expect(huge.json.code).toBe('woocommerce_rest_product_invalid_id');
  });

  it('keeps only _fields (plus id)', async () => {
    const r = await api('GET', '/products?_fields=name,price');
    expect(r.status).toBe(200);
    for (const p of r.json) expect(Object.keys(p).sort()).toEqual(['id', 'name', 'price']);
  });
});

describe('products', () => {
  it('creates (201 + Location), reads, updates by PUT/PATCH/POST, trashes and force-deletes', async () => {
    const c = await api('POST', '/products', {
      name: 'Blue Mug',
      regular_price: '12.5',
      sku: 'MUG-B',
      manage_stock: true,
      stock_quantity: 3,
    });
    expect(c.status).toBe(201);
    expect(c.headers.get('location')).toBe(`${sb.url}/wp-json/wc/v3/products/${c.json.id}`);
    expect(c.json).toMatchObject({
      name: 'Blue Mug',
      slug: 'blue-mug',
      price: '12.5',
      stock_status: 'instock',
      type: 'simple',
      status: 'publish',
    });
    expect(c.json.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(c.json.categories).toEqual([{ id: 15, name: 'Uncategorized', slug: 'uncategorized' }]);
    expect(c.json._links.self[0].href).toBe(`${sb.url}/wp-json/wc/v3/products/${c.json.id}`);

    const id = c.json.id as number;
    for (const [method, price] of [
      ['PUT', '13'],
      ['PATCH', '14'],
      ['POST', '15'],
    ] as const) {
      const u = await api(method, `/products/${id}`, { sale_price: '', regular_price: price });
      expect(u.status).toBe(200);
      expect(u.json.price).toBe(price);
    }
    const dup = await api('POST', '/products', { name: 'Other', sku: 'MUG-B' });
    expect(dup.status).toBe(400);
    expect(dup.json.code).toBe('product_invalid_sku');
    expect(dup.json.data.resource_id).toBe(id);

    const missingUpdate = await api('PUT', '/products/999999', { name: 'x' });
    expect(missingUpdate.status).toBe(400);
    expect(missingUpdate.json.code).toBe('woocommerce_rest_product_invalid_id');

    const trash = await api('DELETE', `/products/${id}`);
    expect(trash.status).toBe(200);
    expect((await api('GET', `/products/${id}`)).json.status).toBe('trash');
    const again = await api('DELETE', `/products/${id}`);
    expect(again.status).toBe(410);
    expect(again.json.code).toBe('woocommerce_rest_already_trashed');
    const gone = await api('DELETE', `/products/${id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.json.id).toBe(id);
    const missing = await api('GET', `/products/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      code: 'woocommerce_rest_product_invalid_id',
      message: 'Invalid ID.',
      data: { status: 404 },
    });
  });

  it('manages variable products and variations', async () => {
    const parent = await api('POST', '/products', {
      name: 'Tee',
      type: 'variable',
      attributes: [{ name: 'Size', variation: true, visible: true, options: ['S', 'M'] }],
    });
    expect(parent.status).toBe(201);
    const pid = parent.json.id;
    const v1 = await api('POST', `/products/${pid}/variations`, {
      regular_price: '20',
      attributes: [{ name: 'Size', option: 'S' }],
    });
    const v2 = await api('POST', `/products/${pid}/variations`, {
      regular_price: '18',
      attributes: [{ name: 'Size', option: 'M' }],
    });
    expect(v1.status).toBe(201);
    expect(v1.json._links.up[0].href).toBe(`${sb.url}/wp-json/wc/v3/products/${pid}`);
    expect(v1.json.name).toBe('Tee - S');
    const got = await api('GET', `/products/${pid}`);
    expect(got.json.variations.sort()).toEqual([v1.json.id, v2.json.id].sort());
    expect(got.json.price).toBe('18');
    const list = await api('GET', `/products/${pid}/variations`);
    expect(list.headers.get('x-wp-total')).toBe('2');
    const upd = await api('PUT', `/products/${pid}/variations/${v1.json.id}`, { sale_price: '10' });
    expect(upd.json.on_sale).toBe(true);
    expect((await api('GET', `/products/${pid}`)).json.price).toBe('10');
    const wrongParent = await api('GET', `/products/${pid + 1000}/variations/${v1.json.id}`);
    expect(wrongParent.json.code).toBe('woocommerce_rest_product_variation_invalid_id');
    const del = await api('DELETE', `/products/${pid}/variations/${v2.json.id}?force=true`);
    expect(del.status).toBe(200);
    expect((await api('GET', `/products/${pid}`)).json.variations).toEqual([v1.json.id]);
  });

  it('does categories and tags CRUD', async () => {
    const cat = await api('POST', '/products/categories', { name: 'Mugs & Cups' });
    expect(cat.status).toBe(201);
    expect(cat.json.slug).toBe('mugs-cups');
    const dup = await api('POST', '/products/categories', { name: 'Mugs & Cups' });
    expect(dup.json.code).toBe('term_exists');
    const tag = await api('POST', '/products/tags', { name: 'ceramic' });
    const prod = await api('POST', '/products', {
      name: 'Cup',
      categories: [{ id: cat.json.id }],
      tags: [{ id: tag.json.id }],
    });
    expect(prod.json.categories[0].name).toBe('Mugs & Cups');
    expect((await api('GET', `/products/categories/${cat.json.id}`)).json.count).toBe(1);
    const filtered = await api('GET', `/products?category=${cat.json.id}`);
    expect(filtered.json.map((p: { id: number }) => p.id)).toEqual([prod.json.id]);
    const noForce = await api('DELETE', `/products/tags/${tag.json.id}`);
    expect(noForce.status).toBe(501);
    expect((await api('DELETE', `/products/tags/${tag.json.id}?force=true`)).status).toBe(200);
    expect((await api('GET', `/products/tags/${tag.json.id}`)).json.code).toBe(
      'woocommerce_rest_term_invalid',
    );
  });
});

describe('orders', () => {
  it('prices line items from products and computes totals', async () => {
    const p = await api('POST', '/products', { name: 'Lamp', regular_price: '19.99' });
    const o = await api('POST', '/orders', {
      line_items: [{ product_id: p.json.id, quantity: 3 }],
      shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat', total: '4.50' }],
      billing: { first_name: 'Ada', email: 'ada@example.com' },
    });
    expect(o.status).toBe(201);
    expect(o.json.status).toBe('pending');
    expect(o.json.created_via).toBe('rest-api');
    expect(o.json.line_items[0]).toMatchObject({
      name: 'Lamp',
      quantity: 3,
      subtotal: '59.97',
      total: '59.97',
      price: 19.99,
    });
    expect(o.json.total).toBe('64.47');
    expect(o.json.shipping_total).toBe('4.50');
    expect(o.json.number).toBe(String(o.json.id));
    const dp = await api('GET', `/orders/${o.json.id}?dp=3`);
    expect(dp.json.total).toBe('64.470');

    const noRef = await api('POST', '/orders', { line_items: [{ quantity: 1 }] });
    expect(noRef.json.code).toBe('woocommerce_rest_required_product_reference');
    const badCustomer = await api('POST', '/orders', { customer_id: 424242 });
    expect(badCustomer.status).toBe(400);
    expect(badCustomer.json.code).toBe('woocommerce_rest_invalid_customer_id');
    const badStatus = await api('PUT', `/orders/${o.json.id}`, { status: 'shipped' });
    expect(badStatus.json.code).toBe('rest_invalid_param');

    const paid = await api('PUT', `/orders/${o.json.id}`, { status: 'completed' });
    expect(paid.json.date_paid).not.toBeNull();
    expect(paid.json.date_completed).not.toBeNull();
    expect(paid.json._links.collection[0].href).toBe(`${sb.url}/wp-json/wc/v3/orders`);

    const trash = await api('DELETE', `/orders/${o.json.id}`);
    expect(trash.status).toBe(200);
    expect((await api('DELETE', `/orders/${o.json.id}`)).status).toBe(410);
    const forced = await api('DELETE', `/orders/${o.json.id}?force=true`);
    expect(forced.status).toBe(200);
    expect((await api('GET', `/orders/${o.json.id}`)).json.code).toBe(
      'woocommerce_rest_shop_order_invalid_id',
    );
  });

  it('handles order notes', async () => {
    const o = await api('POST', '/orders', {});
    const n = await api('POST', `/orders/${o.json.id}/notes`, { note: 'Hello', customer_note: true });
    expect(n.status).toBe(201);
    expect(n.json).toMatchObject({ note: 'Hello', customer_note: true, author: 'WooCommerce' });
    expect(n.json._links.up[0].href).toBe(`${sb.url}/wp-json/wc/v3/orders/${o.json.id}`);
    const missing = await api('POST', `/orders/${o.json.id}/notes`, {});
    expect(missing.json.code).toBe('rest_missing_callback_param');
    const list = await api('GET', `/orders/${o.json.id}/notes?type=customer`);
    expect(list.json.map((x: { id: number }) => x.id)).toEqual([n.json.id]);
    expect((await api('DELETE', `/orders/${o.json.id}/notes/${n.json.id}`)).status).toBe(501);
    expect((await api('DELETE', `/orders/${o.json.id}/notes/${n.json.id}?force=true`)).status).toBe(200);
    expect((await api('GET', `/orders/${o.json.id}/notes/${n.json.id}`)).status).toBe(404);
  });
});

describe('customers', () => {
  it('enforces unique email, non-editable username, forced delete, wc_user_invalid_id', async () => {
    const c = await api('POST', '/customers', { email: 'zed@example.com', first_name: 'Zed' });
    expect(c.status).toBe(201);
    expect(c.json).toMatchObject({
      email: 'zed@example.com',
      username: 'zed',
      role: 'customer',
      is_paying_customer: false,
    });
    const dup = await api('POST', '/customers', { email: 'zed@example.com' });
    expect(dup.status).toBe(400);
    expect(dup.json.code).toBe('registration-error-email-exists');
    const other = await api('POST', '/customers', { email: 'amy@example.com' });
    const taken = await api('PUT', `/customers/${other.json.id}`, { email: 'zed@example.com' });
    expect(taken.json.code).toBe('woocommerce_rest_customer_invalid_email');
    const rename = await api('PUT', `/customers/${c.json.id}`, { username: 'zedd' });
    expect(rename.json.code).toBe('woocommerce_rest_customer_invalid_argument');
    const missingEmail = await api('POST', '/customers', { first_name: 'x' });
    expect(missingEmail.json.code).toBe('rest_missing_callback_param');
    const zero = await api('GET', '/customers/0');
    expect(zero.status).toBe(404);
    expect(zero.json).toEqual({
      code: 'wc_user_invalid_id',
      message: 'Invalid user ID.',
      data: { status: 404 },
    });
    const byEmail = await api('GET', '/customers?email=amy@example.com');
    expect(byEmail.json.map((x: { id: number }) => x.id)).toEqual([other.json.id]);
    expect((await api('GET', '/customers?role=administrator')).json).toEqual([]);
    const noForce = await api('DELETE', `/customers/${c.json.id}`);
    expect(noForce.status).toBe(501);
    expect(noForce.json.code).toBe('woocommerce_rest_trash_not_supported');
    expect((await api('DELETE', `/customers/${c.json.id}?force=true`)).status).toBe(200);
  });
});

describe('webhooks resource', () => {
  it('creates, lists by status, updates and deletes with force', async () => {
    const w = await api('POST', '/webhooks', {
      name: 'W',
      topic: 'order.created',
      delivery_url: 'http://127.0.0.1:9/hook',
      secret: 's',
      status: 'paused',
    });
    expect(w.status).toBe(201);
    expect(w.json).toMatchObject({
      topic: 'order.created',
      resource: 'order',
      event: 'created',
      status: 'paused',
    });
    expect(w.json).not.toHaveProperty('secret');
    const bad = await api('POST', '/webhooks', { topic: 'order.exploded', delivery_url: 'http://x.test' });
    expect(bad.json.code).toBe('woocommerce_rest_webhook_invalid_topic');
    expect((await api('GET', '/webhooks?status=paused')).json.map((x: { id: number }) => x.id)).toContain(
      w.json.id,
    );
    expect((await api('PUT', `/webhooks/${w.json.id}`, { status: 'disabled' })).json.status).toBe('disabled');
    expect((await api('DELETE', `/webhooks/${w.json.id}`)).status).toBe(501);
    expect((await api('DELETE', `/webhooks/${w.json.id}?force=true`)).status).toBe(200);
  });
});
