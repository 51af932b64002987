import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basicAuth, storeApi } from '../helpers/http.js';

let sb: Sandbox;

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  storeApi(sb, method, path, body, headers);

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

const CATALOG = 1050;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  for (let start = 0; start < CATALOG; start += 100) {
    const create = [];
    for (let i = start; i < Math.min(start + 100, CATALOG); i++) {
      create.push({
        name: `Item ${String(i).padStart(4, '0')}`,
        sku: `SKU-${i}`,
        regular_price: String(10 + (i % 50)),
        ...(i % 10 === 0 ? { sale_price: '5' } : {}),
        ...(i % 7 === 0 ? { featured: true } : {}),
        ...(i % 3 === 0 ? { status: 'draft' } : {}),
      });
    }
    const r = await api('POST', '/products/batch', { create });
    if (r.status !== 200) throw new Error(`seed failed: ${r.status}`);
  }
}, 120_000);
afterAll(async () => {
  await sb.close();
});

describe('pagination', () => {
  it('pages a 1,050-product catalogue with no duplicates or gaps (all same-second dates, ID tiebreak)', async () => {
    const seen: number[] = [];
    let url: string | undefined = `${sb.url}/wp-json/wc/v3/products?per_page=100&page=1`;
    let pages = 0;
    while (url && pages < 20) {
      const res = await fetch(url, { headers: { Authorization: basicAuth(sb) } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-wp-total')).toBe(String(CATALOG));
      expect(res.headers.get('x-wp-totalpages')).toBe('11');
      const batch = (await res.json()) as { id: number }[];
      seen.push(...batch.map((p) => p.id));
      const l = links(res.headers.get('link'));
      expect(Object.keys(l).every((k) => k === 'prev' || k === 'next')).toBe(true);
      url = l.next;
      pages++;
    }
    expect(pages).toBe(11);
    expect(seen).toHaveLength(CATALOG);
    expect(new Set(seen).size).toBe(CATALOG);
    const sorted = [...seen].sort((a, b) => b - a);
    expect(seen).toEqual(sorted);
  });

  it('emits prev/next Link echoing the query, and 200 [] beyond the last page', async () => {
    const r = await api('GET', '/products?per_page=10&page=3&orderby=id&order=asc');
    const l = links(r.headers.get('link'));
    expect(l.prev).toBe(`${sb.url}/wp-json/wc/v3/products?per_page=10&page=2&orderby=id&order=asc`);
    expect(l.next).toBe(`${sb.url}/wp-json/wc/v3/products?per_page=10&page=4&orderby=id&order=asc`);
    expect(l).not.toHaveProperty('first');
    const beyond = await api('GET', '/products?per_page=100&page=99');
    expect(beyond.status).toBe(200);
    expect(beyond.json).toEqual([]);
    expect(beyond.headers.get('x-wp-total')).toBe(String(CATALOG));
    const offset = await api('GET', '/products?orderby=id&order=asc&offset=5&per_page=2');
    const first = await api('GET', '/products?orderby=id&order=asc&per_page=7');
    expect(offset.json.map((p: { id: number }) => p.id)).toEqual(
      first.json.slice(5, 7).map((p: { id: number }) => p.id),
    );
  });

  it('rejects per_page > 100 with rest_out_of_bounds details', async () => {
    const r = await api('GET', '/products?per_page=101');
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('rest_invalid_param');
    expect(r.json.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
    expect(r.json.data.details.per_page.code).toBe('rest_out_of_bounds');
    expect((await api('GET', '/products?per_page=0')).status).toBe(400);
    expect((await api('GET', '/products?page=abc')).json.data.details.page.code).toBe('rest_invalid_type');
  });
});

describe('product filters', () => {
  it('filters by sku list, status, featured, on_sale, price range, search, include/exclude', async () => {
    const bySku = await api('GET', '/products?sku=SKU-1,SKU-2&status=any');
    expect(bySku.json.map((p: { sku: string }) => p.sku).sort()).toEqual(['SKU-1', 'SKU-2']);
    const drafts = await api('GET', '/products?status=draft&per_page=1');
    expect(drafts.headers.get('x-wp-total')).toBe(String(Math.ceil(CATALOG / 3)));
    const featured = await api('GET', '/products?featured=true&per_page=100');
    expect(featured.json.every((p: { featured: boolean }) => p.featured)).toBe(true);
    expect(featured.headers.get('x-wp-total')).toBe(String(Math.ceil(CATALOG / 7)));
    const onSale = await api('GET', '/products?on_sale=true&per_page=1');
    expect(onSale.headers.get('x-wp-total')).toBe(String(CATALOG / 10));
    const range = await api('GET', '/products?min_price=58&max_price=59&per_page=100');
    expect(range.json.length).toBeGreaterThan(0);
    expect(range.json.every((p: { price: string }) => Number(p.price) >= 58 && Number(p.price) <= 59)).toBe(
      true,
    );
    const search = await api('GET', '/products?search=Item%200042');
    expect(search.json.map((p: { name: string }) => p.name)).toEqual(['Item 0042']);
    const ids = bySku.json.map((p: { id: number }) => p.id) as number[];
    const incl = await api('GET', `/products?include=${ids.join(',')}&orderby=include`);
    expect(incl.json.map((p: { id: number }) => p.id)).toEqual(ids);
    const inclArr = await api('GET', `/products?include[]=${ids[0]}&include[]=${ids[1]}&exclude=${ids[0]}`);
    expect(inclArr.json.map((p: { id: number }) => p.id)).toEqual([ids[1]]);
    const byPrice = await api('GET', '/products?orderby=price&order=asc&per_page=3');
    const prices = byPrice.json.map((p: { price: string }) => Number(p.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const typed = await api('GET', '/products?type=variable');
    expect(typed.json).toEqual([]);
    const badEnum = await api('GET', '/products?stock_status=maybe');
    expect(badEnum.json.data.details.stock_status.code).toBe('rest_not_in_enum');
  });

  it('filters by date (after/before) and modified', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const past = '2000-01-01T00:00:00';
    expect((await api('GET', `/products?after=${future}`)).json).toEqual([]);
    expect((await api('GET', `/products?before=${past}`)).json).toEqual([]);
    expect(
      (await api('GET', `/products?modified_after=${past}&per_page=1`)).headers.get('x-wp-total'),
    ).not.toBe('0');
    expect((await api('GET', '/products?after=yesterday')).json.data.details.after.code).toBe(
      'rest_invalid_date',
    );
  });
});

describe('order and customer filters', () => {
  it('filters orders by status list, customer and product', async () => {
    const c = await api('POST', '/customers', { email: 'filter@example.com' });
    const prods = await api('GET', '/products?per_page=2&orderby=id&order=asc');
    const [p1, p2] = prods.json as { id: number }[];
    const a = await api('POST', '/orders', {
      status: 'processing',
      customer_id: c.json.id,
      line_items: [{ product_id: p1!.id, quantity: 1 }],
    });
    const b = await api('POST', '/orders', {
      status: 'on-hold',
      line_items: [{ product_id: p2!.id, quantity: 1 }],
    });
    const d = await api('POST', '/orders', {
      status: 'completed',
      line_items: [{ product_id: p2!.id, quantity: 1 }],
    });
    const list = await api('GET', '/orders?status=processing,on-hold');
    expect(list.json.map((o: { id: number }) => o.id).sort()).toEqual([a.json.id, b.json.id].sort());
    const arr = await api('GET', '/orders?status[]=completed');
    expect(arr.json.map((o: { id: number }) => o.id)).toEqual([d.json.id]);
    expect((await api('GET', `/orders?customer=${c.json.id}`)).json.map((o: { id: number }) => o.id)).toEqual(
      [a.json.id],
    );
    expect(
      (await api('GET', `/orders?product=${p2!.id}&orderby=id&order=asc`)).json.map(
        (o: { id: number }) => o.id,
      ),
    ).toEqual([b.json.id, d.json.id]);
    await api('DELETE', `/orders/${d.json.id}`);
    expect((await api('GET', '/orders')).json.map((o: { id: number }) => o.id)).not.toContain(d.json.id);
    expect((await api('GET', '/orders?status=trash')).json.map((o: { id: number }) => o.id)).toEqual([
      d.json.id,
    ]);
  });

  it('orders customers by name ascending by default and filters by role/search', async () => {
    await api('POST', '/customers', { email: 'zoe@example.com', first_name: 'Zoe', last_name: 'Zed' });
    await api('POST', '/customers', { email: 'abe@example.com', first_name: 'Abe', last_name: 'Ant' });
    const list = await api('GET', '/customers?search=example.com&per_page=100');
    const names = list.json.map((c: { first_name: string; username: string }) => c.first_name || c.username);
    expect(names[0]).toBe('Abe');
    expect(names[names.length - 1]).toBe('Zoe');
    expect(list.headers.get('x-wp-total')).toBe(String(list.json.length));
    const byId = await api('GET', '/customers?orderby=id&order=desc');
    const ids = byId.json.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    expect((await api('GET', '/customers?role=all&per_page=1')).status).toBe(200);
    expect((await api('GET', '/customers?role=pirate')).status).toBe(400);
  });
});

describe('batch', () => {
  it('enforces the item limit with 413 and reports per-item errors with 200', async () => {
    const tooMany = await api('POST', '/products/batch', {
      create: Array.from({ length: 60 }, (_, i) => ({ name: `c${i}` })),
      delete: Array.from({ length: 41 }, (_, i) => i + 1),
    });
    expect(tooMany.status).toBe(413);
    expect(tooMany.json).toEqual({
      code: 'woocommerce_rest_request_entity_too_large',
      message: 'Unable to accept more than 100 items for this request.',
      data: { status: 413 },
    });
    const existing = await api('GET', '/products?sku=SKU-5&status=any');
    const id = existing.json[0].id as number;
    const mixed = await api('POST', '/products/batch', {
      create: [{ name: 'Batch OK' }, { name: 'Dup', sku: 'SKU-6' }],
      update: [{ id, name: 'Renamed' }, { id: 987654, name: 'nope' }, { name: 'no id' }],
      delete: [987655],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.json.create[0].name).toBe('Batch OK');
    expect(mixed.json.create[1]).toMatchObject({
      id: 0,
      error: { code: 'product_invalid_sku', data: { status: 400 } },
    });
    expect(mixed.json.update[0].name).toBe('Renamed');
    expect(mixed.json.update[1]).toMatchObject({
      id: 987654,
      error: { code: 'woocommerce_rest_product_invalid_id' },
    });
    expect(mixed.json.update[2]).toMatchObject({ id: 0, error: { code: 'woocommerce_rest_invalid_id' } });
    expect(mixed.json.delete[0]).toMatchObject({
      id: 987655,
      error: { code: 'woocommerce_rest_product_invalid_id' },
    });
    const del = await api('POST', '/products/batch', { delete: [id] });
    expect(del.json.delete[0].id).toBe(id);
    expect((await api('GET', `/products/${id}`)).status).toBe(404);
  });

  it('batches customers and orders too', async () => {
    const r = await api('POST', '/customers/batch', {
      create: [{ email: 'b1@example.com' }, { email: 'b1@example.com' }],
    });
    expect(r.json.create[0].email).toBe('b1@example.com');
    expect(r.json.create[1].error.code).toBe('registration-error-email-exists');
    const o = await api('PUT', '/orders/batch', {
      create: [{ status: 'on-hold' }],
      update: [{ id: 1, status: 'completed' }],
    });
    expect(o.json.create[0].status).toBe('on-hold');
    expect(o.json.update[0].error.code).toBe('woocommerce_rest_shop_order_invalid_id');
  });
});
