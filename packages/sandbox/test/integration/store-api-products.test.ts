/**
 * The Store API's product routes and its CORS over real sockets, against a catalogue built through REST v3:
 * product shape and prices in minor units (StoreApi/Schemas/V1/ProductSchema.php, Routes/V1/Products.php,
 * ProductsById.php) and the Store API's own CORS headers (StoreApi/Authentication.php send_cors_headers()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
let mug: number;
let tee: number;
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  mug = (
    await v3('POST', '/products', {
      name: 'Mug',
      regular_price: '12.50',
      manage_stock: true,
      stock_quantity: 3,
    })
  ).json.id;
  tee = (await v3('POST', '/products', { name: 'Tee', regular_price: '20', sale_price: '15', virtual: true }))
    .json.id;
  await v3('POST', '/products', { name: 'Print', regular_price: '9.99', sold_individually: true });
  await v3('POST', '/products', { name: 'Hidden', regular_price: '1', catalog_visibility: 'hidden' });
  await v3('POST', '/products', { name: 'Draft', regular_price: '1', status: 'draft' });
});
afterAll(async () => {
  await sb?.close();
});

describe('Store API products', () => {
  it('lists the published, visible products with prices in minor units and paging headers', async () => {
    const s = new StoreApiSession(sb.url);
    const all = await s.call('GET', 'products?per_page=2&orderby=title&order=asc');
    expect(all.status).toBe(200);
    expect(all.headers.get('x-wp-total')).toBe('3');
    expect(all.headers.get('x-wp-totalpages')).toBe('2');
    expect(all.body.map((p: { name: string }) => p.name)).toEqual(['Mug', 'Print']);
    const page2 = await s.call('GET', 'products?per_page=2&page=2&orderby=title&order=asc');
    expect(page2.body.map((p: { name: string }) => p.name)).toEqual(['Tee']);
    const one = await s.call('GET', `products/${tee}`);
    expect(one.body).toMatchObject({
      id: tee,
      name: 'Tee',
      type: 'simple',
      on_sale: true,
      is_purchasable: true,
      is_in_stock: true,
      prices: {
        price: '1500',
        regular_price: '2000',
        sale_price: '1500',
        currency_code: 'USD',
        currency_minor_unit: 2,
        currency_prefix: '$',
        currency_suffix: '',
      },
      add_to_cart: { minimum: 1, multiple_of: 1 },
    });
    expect((await s.call('GET', `products/${mug}`)).body.add_to_cart.maximum).toBe(3);
  });

  it('shows a variable product by its variations (lowest prices, a price range) and adds one by its attributes', async () => {
    const parent = (
      await v3('POST', '/products', {
        name: 'Cap',
        type: 'variable',
        attributes: [{ name: 'Size', visible: true, variation: true, options: ['S', 'L'] }],
      })
    ).json;
    const small = (
      await v3('POST', `/products/${parent.id}/variations`, {
        regular_price: '10',
        attributes: [{ name: 'Size', option: 'S' }],
      })
    ).json;
    await v3('POST', `/products/${parent.id}/variations`, {
      regular_price: '14',
      sale_price: '12',
      attributes: [{ name: 'Size', option: 'L' }],
    });
    const s = new StoreApiSession(sb.url);
    const shown = (await s.call('GET', `products/${parent.id}`)).body;
    expect(shown).toMatchObject({
      type: 'variable',
      has_options: true,
      prices: {
        price: '1000',
        regular_price: '1000',
        sale_price: '1000',
        price_range: { min_amount: '1000', max_amount: '1200' },
      },
    });
    expect(shown.variations).toHaveLength(2);
    await s.call('GET', 'cart');
    const cart = (
      await s.call('POST', 'cart/add-item', { id: parent.id, variation: [{ attribute: 'Size', value: 'S' }] })
    ).body;
    expect(cart.items[0]).toMatchObject({
      id: small.id,
      type: 'variation',
      variation: [{ attribute: 'Size', value: 'S' }],
    });
    const none = await s.call('POST', 'cart/add-item', {
      id: parent.id,
      variation: [{ attribute: 'Size', value: 'XL' }],
    });
    expect(none.body.code).toBe('woocommerce_rest_variation_id_from_variation_data');
    await v3('DELETE', `/products/${parent.id}?force=true`);
  });

  it('filters as ProductQuery does: search, include, on_sale, min/max price in minor units, orderby price', async () => {
    const s = new StoreApiSession(sb.url);
    const names = async (q: string) =>
      ((await s.call('GET', `products?${q}`)).body as { name: string }[]).map((p) => p.name);
    expect(await names('search=mu')).toEqual(['Mug']);
    expect(await names(`include=${tee},${mug}&orderby=include`)).toEqual(['Tee', 'Mug']);
    expect(await names('on_sale=true')).toEqual(['Tee']);
    expect(await names('min_price=900&max_price=1300&orderby=price&order=asc')).toEqual(['Print', 'Mug']);
    expect(await names('orderby=price&order=desc')).toEqual(['Tee', 'Mug', 'Print']);
  });

  it('indexes the namespace at GET /wp-json/wc/store/v1, apart from wc/v3', async () => {
    const index = (await (await fetch(`${sb.url}/wp-json/wc/store/v1`)).json()) as {
      namespace: string;
      routes: object;
    };
    expect(index.namespace).toBe('wc/store/v1');
    expect(Object.keys(index.routes)).toEqual(
      expect.arrayContaining([
        '/wc/store/v1/products',
        '/wc/store/v1/cart/add-item',
        '/wc/store/v1/checkout',
      ]),
    );
    const v3 = (await (await fetch(`${sb.url}/wp-json/wc/v3`)).json()) as { routes: object };
    expect(Object.keys(v3.routes).some((r) => r.startsWith('/wc/store'))).toBe(false);
  });

  it('answers 404 woocommerce_rest_product_invalid_id for a draft or unknown product, 400 for a bad per_page', async () => {
    const s = new StoreApiSession(sb.url);
    const missing = await s.call('GET', 'products/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 'woocommerce_rest_product_invalid_id',
      message: 'Invalid product ID.',
      data: { status: 404 },
    });
    const bad = await s.call('GET', 'products?per_page=101');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
  });
});

describe('Store API CORS', () => {
  it("sends the Store API's CORS: the origin only for a preflight, a valid cart token or an allowed origin", async () => {
    const url = `${sb.url}/wp-json/wc/store/v1/cart`;
    const page = 'https://shop.example';
    const pre = await fetch(`${url}/add-item`, {
      method: 'OPTIONS',
      headers: {
        Origin: page,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'cart-token',
      },
    });
    expect(pre.status).toBe(200);
    expect(await pre.text()).toBe('');
    expect(pre.headers.get('access-control-allow-origin')).toBe(page);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-methods')).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(pre.headers.get('access-control-allow-headers')!.split(', ')).toEqual(
      expect.arrayContaining(['Cart-Token', 'Nonce', 'Content-Type']),
    );
    // Without a token, another origin may not read the answer; with the token it was given, it may.
    const first = await fetch(url, { headers: { Origin: page } });
    expect(first.headers.get('access-control-allow-origin')).toBeNull();
    expect(first.headers.get('access-control-expose-headers')!.split(', ')).toContain('Cart-Token');
    const token = first.headers.get('cart-token')!;
    const again = await fetch(url, { headers: { Origin: page, 'Cart-Token': token } });
    expect(again.headers.get('access-control-allow-origin')).toBe(page);
    const own = await fetch(url, { headers: { Origin: new URL(sb.url).origin } });
    expect(own.headers.get('access-control-allow-origin')).toBe(new URL(sb.url).origin);
    // REST v3 keeps WordPress's rest_send_cors_headers(): any origin echoed.
    const v3get = await fetch(`${sb.url}/wp-json/wc/v3`, { headers: { Origin: page } });
    expect(v3get.headers.get('access-control-allow-origin')).toBe(page);
    expect(v3get.headers.get('access-control-expose-headers')).not.toMatch(/Cart-Token/);
  });

  it('lets a configured storefront origin in without a token (allowed_http_origins)', async () => {
    const other = await startSandbox({
      port: 0,
      store: { rateLimit: false, storeApi: { allowedOrigins: ['http://localhost:5173'] } },
    });
    try {
      const ok = await fetch(`${other.url}/wp-json/wc/store/v1/products`, {
        headers: { Origin: 'http://localhost:5173' },
      });
      expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const no = await fetch(`${other.url}/wp-json/wc/store/v1/products`, {
        headers: { Origin: 'http://evil.example' },
      });
      expect(no.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await other.close();
    }
  });
});
