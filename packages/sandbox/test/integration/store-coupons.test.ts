/**
 * /wc/v3/coupons in detail, over real sockets: what WooCommerce does with each field, which coupons a list
 * returns, coupon.* webhooks, the demo seed and persistence. Sources (woocommerce/woocommerce, plugins/woocommerce):
 * Version3/class-wc-rest-coupons-controller.php (prepare_objects_query(): `status ?: 'all'`, `code`),
 * Version2/class-wc-rest-coupons-v2-controller.php (prepare_object_for_database(), get_formatted_item_data()),
 * class-wc-coupon.php (setters), data-stores/class-wc-coupon-data-store-cpt.php (create(), update(),
 * get_ids_by_code()), abstracts/abstract-wc-data.php (set_date_prop()), WordPress WP_Query (post_status, `s`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';

let sb: Sandbox;
const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);
const ids = (res: { json: { id: number }[] }) => res.json.map((c) => c.id);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'none' } });
});
afterAll(async () => {
  await sb?.close();
});

/** Waits until the wall clock enters the next second (WordPress dates have whole seconds). */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));

describe('fields as WooCommerce stores them', () => {
  it('code: entities decoded, tags stripped, trimmed, lower-cased, `&` re-encoded by kses (wc_format_coupon_code())', async () => {
    const res = await api('POST', '/coupons', { code: '  <b>Fall</b> &amp; WINTER ' });
    expect(res.status).toBe(201);
    // woocommerce#44795: wp_filter_kses() stores a bare ampersand as `&amp;`.
    expect(res.json.code).toBe('fall &amp; winter');
    // Either spelling finds it (get_ids_by_code() sanitizes the code it is given the same way).
    const byCode = await api('GET', `/coupons?code=${encodeURIComponent('FALL & Winter')}`);
    expect(byCode.json.map((c: { id: number }) => c.id)).toEqual([res.json.id]);
    const dup = await api('POST', '/coupons', { code: 'fall &amp; winter' });
    expect(dup.json.code).toBe('woocommerce_rest_coupon_code_already_exists');
  });

  it('amount is checked against the discount type the coupon had before this request', async () => {
    // Schema order: `amount` is set before `discount_type`, so a new coupon is still fixed_cart at that point.
    const created = await api('POST', '/coupons', {
      code: 'odd-percent',
      discount_type: 'percent',
      amount: '150',
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ discount_type: 'percent', amount: '150.00' });
    const refused = await api('PUT', `/coupons/${created.json.id}`, { amount: '120' });
    expect(refused.json.code).toBe('coupon_invalid_amount');
    // Switching type and amount in one request still checks 120 against `percent`; in two requests it passes.
    const oneGo = await api('PUT', `/coupons/${created.json.id}`, {
      discount_type: 'fixed_cart',
      amount: '120',
    });
    expect(oneGo.json.code).toBe('coupon_invalid_amount');
    await api('PUT', `/coupons/${created.json.id}`, { discount_type: 'fixed_cart' });
    const switched = await api('PUT', `/coupons/${created.json.id}`, { amount: '120' });
    expect(switched.json).toMatchObject({ discount_type: 'fixed_cart', amount: '120.00' });
    // set_amount(): wc_format_decimal(), then 0 for anything not numeric.
    expect((await api('PUT', `/coupons/${created.json.id}`, { amount: 'ten' })).json.amount).toBe('0.00');
    expect((await api('PUT', `/coupons/${created.json.id}`, { amount: '3,5' })).json.amount).toBe('35.00');
  });

  it('status: empty is publish on create and draft on update; future is published', async () => {
    const a = await api('POST', '/coupons', { code: 'status-a', status: '' });
    expect(a.json.status).toBe('publish');
    expect((await api('PUT', `/coupons/${a.json.id}`, { status: '' })).json.status).toBe('draft');
    expect((await api('PUT', `/coupons/${a.json.id}`, { status: 'future' })).json.status).toBe('publish');
    expect((await api('PUT', `/coupons/${a.json.id}`, { status: 'pending' })).json.status).toBe('pending');
  });

  it('date_expires: offsets, timestamps, plain dates; null changes nothing, "" clears; _gmt is not writable', async () => {
    const c = (await api('POST', '/coupons', { code: 'expiry', date_expires: '2030-05-01T10:00:00+02:00' }))
      .json;
    expect(c).toMatchObject({ date_expires: '2030-05-01T08:00:00', date_expires_gmt: '2030-05-01T08:00:00' });
    const put = async (body: unknown) => (await api('PUT', `/coupons/${c.id}`, body)).json.date_expires;
    expect(await put({ date_expires: null })).toBe('2030-05-01T08:00:00');
    expect(await put({ date_expires_gmt: '2040-01-01T00:00:00' })).toBe('2030-05-01T08:00:00');
    expect(await put({ date_expires: '1893456000' })).toBe('2030-01-01T00:00:00');
    expect(await put({ date_expires: '2031-02-03' })).toBe('2031-02-03T00:00:00');
    expect(await put({ date_expires: '' })).toBeNull();
    await put({ date_expires: '2031-02-03' });
    // strtotime() fails, the epoch is saved as 0 and read back as no date.
    expect(await put({ date_expires: 'next tuesday-ish' })).toBeNull();
  });

  it('ids deduplicated without 0, limits of 0 shown as null, emails sanitized and lower-cased', async () => {
    const c = (
      await api('POST', '/coupons', {
        code: 'lists',
        product_ids: [4, 4, 0, -6],
        product_categories: [0, 9],
        usage_limit: 0,
        limit_usage_to_x_items: 2,
        email_restrictions: ['Bob@Example.COM', 'no-at-sign', 'bo b@exa_mple.com', '*@Shop.test'],
        minimum_amount: '10',
        maximum_amount: '99.999',
      })
    ).json;
    expect(c).toMatchObject({
      product_ids: [4, 6],
      product_categories: [9],
      usage_limit: null,
      limit_usage_to_x_items: 2,
      email_restrictions: ['bob@example.com', 'bob@example.com', '*@shop.test'],
      minimum_amount: '10.00',
      maximum_amount: '100.00',
    });
  });

  it('meta_data: added by key, updated by id or key, removed with a null value', async () => {
    const c = (await api('POST', '/coupons', { code: 'meta', meta_data: [{ key: 'source', value: 'ads' }] }))
      .json;
    const metaId = c.meta_data[0].id;
    const updated = (
      await api('PUT', `/coupons/${c.id}`, {
        meta_data: [
          { id: metaId, key: 'source', value: 'mail' },
          { key: 'batch', value: 7 },
        ],
      })
    ).json;
    expect(updated.meta_data).toEqual([
      { id: metaId, key: 'source', value: 'mail' },
      { id: expect.any(Number), key: 'batch', value: 7 },
    ]);
    const removed = (await api('PUT', `/coupons/${c.id}`, { meta_data: [{ key: 'batch', value: null }] }))
      .json;
    expect(removed.meta_data).toEqual([{ id: metaId, key: 'source', value: 'mail' }]);
  });

  it('date_modified moves when a post field changes (code, description, status), not for post meta', async () => {
    const c = (await api('POST', '/coupons', { code: 'modified' })).json;
    await nextSecond();
    const meta = (await api('PUT', `/coupons/${c.id}`, { amount: '3', free_shipping: true })).json;
    expect(meta.date_modified).toBe(c.date_modified);
    const post = (await api('PUT', `/coupons/${c.id}`, { description: 'now a post change' })).json;
    expect(post.date_modified > c.date_modified).toBe(true);
    expect(post.date_created).toBe(c.date_created);
  });

  it('codes are unique among published coupons only; coupons share the post ids', async () => {
    const draft = (await api('POST', '/coupons', { code: 'shared-code', status: 'draft' })).json;
    const live = await api('POST', '/coupons', { code: 'shared-code' });
    expect(live.status).toBe(201);
    // Publishing the draft now collides with the published one.
    const clash = await api('PUT', `/coupons/${draft.id}`, { code: 'shared-code', status: 'publish' });
    expect(clash.json.code).toBe('woocommerce_rest_coupon_code_already_exists');
    const product = (await api('POST', '/products', { name: 'Not a coupon' })).json;
    expect(product.id).toBe(live.json.id + 1);
    const asCoupon = await api('GET', `/coupons/${product.id}`);
    expect(asCoupon.status).toBe(404);
    expect(asCoupon.json.code).toBe('woocommerce_rest_shop_coupon_invalid_id');
  });
});

describe('which coupons a list returns', () => {
  let live: number;
  let draft: number;
  let trashed: number;
  let tag: string;

  beforeAll(async () => {
    tag = `lst${Date.now() % 100000}`;
    live = (await api('POST', '/coupons', { code: `${tag}-live`, description: 'Autumn deal' })).json.id;
    draft = (await api('POST', '/coupons', { code: `${tag}-draft`, status: 'draft' })).json.id;
    trashed = (await api('POST', '/coupons', { code: `${tag}-gone` })).json.id;
    await api('DELETE', `/coupons/${trashed}`);
  });

  it('status: none (all) lists the trash too; any leaves it out; lists and unknown values', async () => {
    const q = (extra: string) => api('GET', `/coupons?search=${tag}&orderby=id&order=asc${extra}`);
    expect(ids(await q(''))).toEqual([live, draft, trashed]);
    expect(ids(await q('&status=any'))).toEqual([live, draft]);
    expect(ids(await q('&status=trash'))).toEqual([trashed]);
    expect(ids(await q('&status=draft,trash'))).toEqual([draft, trashed]);
    expect(ids(await q('&status[]=publish&status[]=draft'))).toEqual([live, draft]);
    // WP_Query ignores statuses it does not know: no status clause at all.
    expect(ids(await q('&status=bogus'))).toEqual([live, draft, trashed]);
  });

  it('search: every word in the code or description; a leading - excludes', async () => {
    expect(ids(await api('GET', `/coupons?search=${tag}%20autumn`))).toEqual([live]);
    expect(ids(await api('GET', `/coupons?search=${tag}%20-autumn&orderby=id&order=asc`))).toEqual([
      draft,
      trashed,
    ]);
  });

  it('code is exact and published-only; it overrides include', async () => {
    expect(ids(await api('GET', `/coupons?code=${tag.toUpperCase()}-LIVE`))).toEqual([live]);
    expect(ids(await api('GET', `/coupons?code=${tag}-draft`))).toEqual([]);
    expect(ids(await api('GET', `/coupons?code=${tag}-live&include=${draft}`))).toEqual([live]);
  });

  it('include/exclude, orderby include, offset, dates, and paging headers', async () => {
    const inc = await api('GET', `/coupons?include=${trashed},${live}&orderby=include`);
    expect(ids(inc)).toEqual([trashed, live]);
    expect(ids(await api('GET', `/coupons?search=${tag}&exclude=${draft}&orderby=id`))).toEqual([
      trashed,
      live,
    ]);
    expect(ids(await api('GET', `/coupons?search=${tag}&orderby=id&order=asc&offset=1&per_page=1`))).toEqual([
      draft,
    ]);
    expect((await api('GET', `/coupons?search=${tag}&after=2999-01-01T00:00:00`)).json).toEqual([]);
    const paged = await api('GET', `/coupons?search=${tag}&per_page=1&page=2`);
    expect(paged.headers.get('x-wp-total')).toBe('3');
    expect(paged.headers.get('x-wp-totalpages')).toBe('3');
    expect(paged.headers.get('link')).toMatch(/rel="prev".*rel="next"/);
    // Coupons are not hierarchical: `parent` is not an arg, so it is ignored.
    expect((await api('GET', `/coupons?search=${tag}&parent=99`)).json).toHaveLength(3);
  });
});

describe('coupon webhooks', () => {
  let receiver: Server;
  const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
  const waiters: (() => void)[] = [];
  const waitFor = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`got ${deliveries.length} of ${n} deliveries`)),
        10_000,
      );
      const check = () => {
        if (deliveries.length >= n) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        // The creation ping is form-encoded and unsigned; only topic deliveries are kept.
        if (req.headers['x-wc-webhook-topic']) deliveries.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
        for (const w of waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('coupon.created, updated, deleted (trash), restored, each with the GET body (deleted: the id)', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    for (const event of ['created', 'updated', 'deleted', 'restored']) {
      const hook = await api('POST', '/webhooks', { topic: `coupon.${event}`, delivery_url: url });
      expect(hook.status).toBe(201);
    }
    const c = (await api('POST', '/coupons', { code: 'hooked', amount: '2' })).json;
    await waitFor(1);
    await api('PUT', `/coupons/${c.id}`, { amount: '3' });
    await waitFor(2);
    await api('DELETE', `/coupons/${c.id}`);
    await waitFor(3);
    await api('PUT', `/coupons/${c.id}`, { status: 'publish' });
    await waitFor(5);
    const topics = deliveries.map((d) => d.headers['x-wc-webhook-topic']);
    expect(topics.slice(0, 3)).toEqual(['coupon.created', 'coupon.updated', 'coupon.deleted']);
    expect(topics.slice(3).sort()).toEqual(['coupon.restored', 'coupon.updated']);
    expect(deliveries.every((d) => d.headers['x-wc-webhook-resource'] === 'coupon')).toBe(true);
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({ id: c.id, code: 'hooked', amount: '2.00' });
    expect(JSON.parse(deliveries[1]!.body)).toMatchObject({ id: c.id, amount: '3.00' });
    expect(JSON.parse(deliveries[2]!.body)).toEqual({ id: c.id });
  });
});

describe('demo seed and persistence', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'x-sandbox-coupons-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the demo store has three published coupons, one of each discount type', async () => {
    const demo = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'demo' } });
    try {
      const res = await storeApi(demo, 'GET', '/coupons?orderby=id&order=asc');
      expect(
        res.json.map((c: { code: string; discount_type: string; status: string }) => [
          c.code,
          c.discount_type,
          c.status,
        ]),
      ).toEqual([
        ['welcome10', 'percent', 'publish'],
        ['save5', 'fixed_cart', 'publish'],
        ['music2', 'fixed_product', 'publish'],
      ]);
      expect(res.json[1].minimum_amount).toBe('25.00');
    } finally {
      await demo.close();
    }
  });

  it('coupons survive a restart on the same data file', async () => {
    const file = join(dir, 'store.json');
    const first = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
    const c = (await storeApi(first, 'POST', '/coupons', { code: 'durable', amount: '7' })).json;
    await storeApi(first, 'PUT', `/coupons/${c.id}`, { usage_limit: 5 });
    await first.close();
    const second = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
    try {
      const got = await storeApi(second, 'GET', `/coupons/${c.id}`);
      expect(got.json).toMatchObject({ code: 'durable', amount: '7.00', usage_limit: 5 });
      const next = await storeApi(second, 'POST', '/coupons', { code: 'after-restart' });
      expect(next.json.id).toBeGreaterThan(c.id);
    } finally {
      await second.close();
    }
  });
});
