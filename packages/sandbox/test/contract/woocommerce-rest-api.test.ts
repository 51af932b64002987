/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2, used as its README shows, must
 * work against the store emulator exactly as it works against a real WooCommerce store (REST API v3).
 *
 * Expected behaviour comes from the WooCommerce plugin code (woocommerce/woocommerce,
 * plugins/woocommerce/includes/rest-api/Controllers/*, class-wc-rest-authentication.php) and WordPress core
 * (WP_REST_Server, WP_REST_Request, rest_validate_value_from_schema); see /work/shared/protocols/store.md.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basic, expectWcError, request } from '../helpers/http.js';
import {
  failure,
  makeClient,
  parseLink,
  storeWithOfficialClient,
  type WooCommerceRestApi,
} from '../helpers/woo-client.js';

const tag = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

const transports = [
  { name: 'HTTPS with Basic auth', https: true, queryStringAuth: false },
  { name: 'HTTPS with query-string auth', https: true, queryStringAuth: true },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false, queryStringAuth: false },
] as const;

describe.each(transports)('official client over $name', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({
      https: transport.https,
      queryStringAuth: transport.queryStringAuth,
    }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const newProduct = async (fields: Record<string, unknown> = {}) => {
    const res = await api.post('products', { name: tag('Product'), regular_price: '19.99', ...fields });
    expect(res.status).toBe(201);
    return res.data as { id: number; name: string; [k: string]: any };
  };

  it('serves the scheme it was asked for (TLS verified against the sandbox certificate)', async () => {
    expect(sandbox.url.startsWith(transport.https ? 'https://' : 'http://')).toBe(true);
    expect(sandbox.https).toBe(transport.https);
    if (transport.https) expect(sandbox.certificate).toMatch(/-----BEGIN CERTIFICATE-----/);
    const res = await api.get('products');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.data)).toBe(true);
  });

  it('products: create (201 + Location) → get → update → trash → 410 → force delete → 404', async () => {
    const sku = tag('MUG');
    const created = await api.post('products', {
      name: 'Contract Mug',
      type: 'simple',
      regular_price: '19.99',
      sku,
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(typeof id).toBe('number');
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/products/${id}$`));
    expect(created.data).toMatchObject({
      id,
      name: 'Contract Mug',
      type: 'simple',
      status: 'publish',
      sku,
      regular_price: '19.99',
      price: '19.99',
      sale_price: '',
    });

    const got = await api.get(`products/${id}`);
    expect(got.status).toBe(200);
    expect(got.data).toMatchObject({ id, name: 'Contract Mug', sku });

    const dupSku = await failure(api.post('products', { name: 'Second mug', sku }));
    expect(dupSku.status).toBe(400);
    expect(dupSku.data).toMatchObject({
      code: 'product_invalid_sku',
      message: 'Invalid or duplicated SKU.',
      data: { status: 400, resource_id: id },
    });

    const fields = await api.get(`products/${id}`, { _fields: 'name,sku' });
    expect(fields.data).toEqual({ id, name: 'Contract Mug', sku });

    const updated = await api.put(`products/${id}`, { name: 'Contract Mug v2', sale_price: '14.99' });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({
      id,
      name: 'Contract Mug v2',
      regular_price: '19.99',
      sale_price: '14.99',
      price: '14.99',
      on_sale: true,
    });

    const trashed = await api.delete(`products/${id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.data.id).toBe(id);
    expect((await api.get(`products/${id}`)).data.status).toBe('trash');

    const again = await failure(api.delete(`products/${id}`));
    expect(again.status).toBe(410);
    expect(again.data).toMatchObject({ code: 'woocommerce_rest_already_trashed', data: { status: 410 } });

    const forced = await api.delete(`products/${id}`, { force: true });
    expect(forced.status).toBe(200);
    expect(forced.data.id).toBe(id);

    const gone = await failure(api.get(`products/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({
      code: 'woocommerce_rest_product_invalid_id',
      message: 'Invalid ID.',
      data: { status: 404 },
    });
  });

  it('products list: per_page, page, search, status, orderby/order, include + X-WP-Total, X-WP-TotalPages, Link', async () => {
    const token = tag('lst');
    const charlie = await newProduct({ name: `${token} Charlie` });
    const alpha = await newProduct({ name: `${token} Alpha` });
    const bravo = await newProduct({ name: `${token} Bravo` });
    const delta = await newProduct({ name: `${token} Delta`, status: 'draft' });

    const page1 = await api.get('products', {
      search: token,
      per_page: 2,
      page: 1,
      orderby: 'title',
      order: 'asc',
    });
    expect(page1.status).toBe(200);
    expect(page1.data.map((p: any) => p.name)).toEqual([`${token} Alpha`, `${token} Bravo`]);
    expect(page1.headers['x-wp-total']).toBe('4');
    expect(page1.headers['x-wp-totalpages']).toBe('2');
    const links1 = parseLink(page1.headers.link);
    expect(links1.prev).toBeUndefined();
    expect(links1.next).toBeDefined();
    const next = new URL(links1.next!);
    expect(next.pathname).toBe('/wp-json/wc/v3/products');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('per_page')).toBe('2');
    expect(next.searchParams.get('search')).toBe(token);

    const page2 = await api.get('products', {
      search: token,
      per_page: 2,
      page: 2,
      orderby: 'title',
      order: 'asc',
    });
    expect(page2.data.map((p: any) => p.name)).toEqual([`${token} Charlie`, `${token} Delta`]);
    const links2 = parseLink(page2.headers.link);
    expect(links2.next).toBeUndefined();
    expect(new URL(links2.prev!).searchParams.get('page')).toBe('1');

    // Out-of-range pages are an empty 200, not an error.
    const page9 = await api.get('products', { search: token, per_page: 2, page: 9 });
    expect(page9.status).toBe(200);
    expect(page9.data).toEqual([]);
    expect(page9.headers['x-wp-total']).toBe('4');

    const drafts = await api.get('products', { search: token, status: 'draft' });
    expect(drafts.data.map((p: any) => p.id)).toEqual([delta.id]);
    expect(drafts.headers['x-wp-total']).toBe('1');

    const included = await api.get('products', {
      include: [charlie.id, bravo.id],
      orderby: 'id',
      order: 'asc',
    });
    expect(included.data.map((p: any) => p.id)).toEqual([charlie.id, bravo.id].sort((a, b) => a - b));

    const byIdDesc = await api.get('products', { search: token, orderby: 'id', order: 'desc', per_page: 10 });
    expect(byIdDesc.data.map((p: any) => p.id)).toEqual(
      [alpha.id, bravo.id, charlie.id, delta.id].sort((a, b) => b - a),
    );
  });

  it('orders: create with line items (money as strings, line price as number) → status updates → trash → force', async () => {
    const product = await newProduct({ regular_price: '19.99' });
    const created = await api.post('orders', {
      payment_method: 'bacs',
      payment_method_title: 'Direct bank transfer',
      billing: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' },
      line_items: [{ product_id: product.id, quantity: 2 }],
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/orders/${id}$`));
    expect(created.data).toMatchObject({
      id,
      status: 'pending',
      created_via: 'rest-api',
      total: '39.98',
      date_paid: null,
      billing: { first_name: 'Ada', email: 'ada@example.com' },
    });
    expect(typeof created.data.number).toBe('string');
    expect(created.data.line_items).toHaveLength(1);
    expect(created.data.line_items[0]).toMatchObject({
      product_id: product.id,
      quantity: 2,
      subtotal: '39.98',
      total: '39.98',
      price: 19.99,
    });

    // dp = decimal places for money in the response (wc_format_decimal → number_format).
    expect((await api.get(`orders/${id}`, { dp: 1 })).data.total).toBe('40.0');

    const processing = await api.put(`orders/${id}`, { status: 'processing' });
    expect(processing.data.status).toBe('processing');
    expect(processing.data.date_paid).not.toBeNull();

    const completed = await api.put(`orders/${id}`, { status: 'completed' });
    expect(completed.data.status).toBe('completed');
    expect(completed.data.date_completed).not.toBeNull();

    const listed = await api.get('orders', { status: ['completed'], include: [id] });
    expect(listed.data.map((o: any) => o.id)).toEqual([id]);
    expect(listed.headers['x-wp-total']).toBe('1');

    const noCustomer = await failure(api.put(`orders/${id}`, { customer_id: 99999999 }));
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.data).toMatchObject({
      code: 'woocommerce_rest_invalid_customer_id',
      data: { status: 400 },
    });

    const badStatus = await failure(api.put(`orders/${id}`, { status: 'shipped' }));
    expect(badStatus.status).toBe(400);
    expect(badStatus.data).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });

    expect((await api.delete(`orders/${id}`)).status).toBe(200);
    expect((await api.get(`orders/${id}`)).data.status).toBe('trash');
    const again = await failure(api.delete(`orders/${id}`));
    expect(again.status).toBe(410);
    expect(again.data.code).toBe('woocommerce_rest_already_trashed');
    expect((await api.delete(`orders/${id}`, { force: true })).data.id).toBe(id);
    const gone = await failure(api.get(`orders/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({
      code: 'woocommerce_rest_shop_order_invalid_id',
      data: { status: 404 },
    });
  });

  it('customers: create → duplicate email → update → email/username rules → no trash → force delete → 404', async () => {
    const email = `${tag('ada')}@example.com`;
    const username = tag('ada');
    const created = await api.post('customers', {
      email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      username,
      billing: { first_name: 'Ada', city: 'London', email },
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/customers/${id}$`));
    expect(created.data).toMatchObject({ id, email, username, role: 'customer', first_name: 'Ada' });
    expect(created.data).not.toHaveProperty('password');

    const duplicate = await failure(api.post('customers', { email }));
    expect(duplicate.status).toBe(400);
    expect(duplicate.data).toMatchObject({ code: 'registration-error-email-exists', data: { status: 400 } });

    // email_exists() goes through MySQL's case-insensitive collation.
    const shouting = await failure(api.post('customers', { email: email.toUpperCase() }));
    expect(shouting.status).toBe(400);
    expect(shouting.data.code).toBe('registration-error-email-exists');

    const other = await api.post('customers', { email: `${tag('bob')}@example.com` });
    expect(other.status).toBe(201);

    const updated = await api.put(`customers/${id}`, { first_name: 'Augusta' });
    expect(updated.data).toMatchObject({ id, first_name: 'Augusta', email });

    const taken = await failure(api.put(`customers/${id}`, { email: other.data.email }));
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({
      code: 'woocommerce_rest_customer_invalid_email',
      data: { status: 400 },
    });

    const rename = await failure(api.put(`customers/${id}`, { username: tag('new') }));
    expect(rename.status).toBe(400);
    expect(rename.data.code).toBe('woocommerce_rest_customer_invalid_argument');

    const byEmail = await api.get('customers', { email });
    expect(byEmail.data.map((c: any) => c.id)).toEqual([id]);
    expect(byEmail.headers['x-wp-total']).toBe('1');

    const noTrash = await failure(api.delete(`customers/${id}`));
    expect(noTrash.status).toBe(501);
    expect(noTrash.data).toMatchObject({
      code: 'woocommerce_rest_trash_not_supported',
      data: { status: 501 },
    });

    const deleted = await api.delete(`customers/${id}`, { force: true });
    expect(deleted.status).toBe(200);
    expect(deleted.data.id).toBe(id);

    const gone = await failure(api.get(`customers/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({ code: 'wc_user_invalid_id', message: 'Invalid user ID.' });
  });

  it('products/batch: create + update + delete in one call, per-item errors with HTTP 200', async () => {
    const keep = await newProduct();
    const drop = await newProduct();
    const res = await api.post('products/batch', {
      create: [{ name: tag('Batch A'), regular_price: '1.00' }, { name: tag('Batch B') }],
      update: [
        { id: keep.id, name: 'Batch renamed' },
        { id: 99999999, name: 'nobody' },
      ],
      delete: [drop.id],
    });
    expect(res.status).toBe(200);
    expect(res.data.create).toHaveLength(2);
    for (const item of res.data.create) expect(typeof item.id).toBe('number');
    expect(res.data.update[0]).toMatchObject({ id: keep.id, name: 'Batch renamed' });
    expect(res.data.update[1]).toEqual({
      id: 99999999,
      error: { code: 'woocommerce_rest_product_invalid_id', message: 'Invalid ID.', data: { status: 400 } },
    });
    expect(res.data.delete).toHaveLength(1);
    expect(res.data.delete[0].id).toBe(drop.id);
    // Deletes inside a batch are always force deletes.
    expect((await failure(api.get(`products/${drop.id}`))).status).toBe(404);
    expect((await api.get(`products/${res.data.create[0].id}`)).data.regular_price).toBe('1.00');
  });

  it('orders/batch and customers/batch', async () => {
    const product = await newProduct({ regular_price: '3.50' });
    const orders = await api.post('orders/batch', {
      create: [
        { line_items: [{ product_id: product.id, quantity: 1 }] },
        { line_items: [{ product_id: product.id, quantity: 3 }] },
      ],
    });
    expect(orders.status).toBe(200);
    expect(orders.data.create.map((o: any) => o.total)).toEqual(['3.50', '10.50']);
    const [first, second] = orders.data.create;
    const orders2 = await api.post('orders/batch', {
      update: [{ id: first.id, status: 'on-hold' }],
      delete: [second.id],
    });
    expect(orders2.data.update[0]).toMatchObject({ id: first.id, status: 'on-hold' });
    expect(orders2.data.delete[0].id).toBe(second.id);
    expect((await failure(api.get(`orders/${second.id}`))).status).toBe(404);

    const email = `${tag('batch')}@example.com`;
    const customers = await api.post('customers/batch', {
      create: [{ email }, { email }],
    });
    expect(customers.status).toBe(200);
    expect(customers.data.create[0]).toMatchObject({ email });
    expect(customers.data.create[1]).toMatchObject({
      id: 0,
      error: { code: 'registration-error-email-exists', data: { status: 400 } },
    });
    const customerId = customers.data.create[0].id;
    const customers2 = await api.post('customers/batch', {
      update: [{ id: customerId, last_name: 'Batched' }],
      delete: [customerId],
    });
    expect(customers2.data.update[0]).toMatchObject({ id: customerId, last_name: 'Batched' });
    expect(customers2.data.delete[0].id).toBe(customerId);
    expect((await failure(api.get(`customers/${customerId}`))).status).toBe(404);
  });

  it('batch over 100 items → 413 woocommerce_rest_request_entity_too_large', async () => {
    const create = Array.from({ length: 60 }, (_, i) => ({ name: `too many ${i}` }));
    const del = Array.from({ length: 41 }, (_, i) => i + 1);
    const res = await failure(api.post('products/batch', { create, delete: del }));
    expect(res.status).toBe(413);
    expect(res.data).toEqual({
      code: 'woocommerce_rest_request_entity_too_large',
      message: 'Unable to accept more than 100 items for this request.',
      data: { status: 413 },
    });
  });

  it('order notes: create, list (type filter), get, no trash, force delete', async () => {
    const order = (await api.post('orders', { status: 'processing' })).data;
    const note = await api.post(`orders/${order.id}/notes`, {
      note: 'Packed and ready',
      customer_note: true,
    });
    expect(note.status).toBe(201);
    expect(note.data).toMatchObject({ note: 'Packed and ready', customer_note: true });
    const internal = await api.post(`orders/${order.id}/notes`, { note: 'Internal remark' });
    expect(internal.data.customer_note).toBe(false);

    const all = await api.get(`orders/${order.id}/notes`);
    const allIds = all.data.map((n: any) => n.id);
    expect(allIds).toEqual(expect.arrayContaining([note.data.id, internal.data.id]));
    const customerOnly = await api.get(`orders/${order.id}/notes`, { type: 'customer' });
    expect(customerOnly.data.map((n: any) => n.id)).toContain(note.data.id);
    expect(customerOnly.data.map((n: any) => n.id)).not.toContain(internal.data.id);

    const got = await api.get(`orders/${order.id}/notes/${note.data.id}`);
    expect(got.data).toMatchObject({ id: note.data.id, note: 'Packed and ready' });

    // comment_content is TEXT (65,535 bytes): one byte more and WooCommerce answers 500, storing nothing.
    const longest = await api.post(`orders/${order.id}/notes`, { note: 'a'.repeat(65_535) });
    expect(longest.data.note).toHaveLength(65_535);
    const tooLong = await failure(api.post(`orders/${order.id}/notes`, { note: 'é'.repeat(32_768) }));
    expect(tooLong.status).toBe(500);
    expect(tooLong.data.code).toBe('woocommerce_api_cannot_create_order_note');
    const afterTooLong = await api.get(`orders/${order.id}/notes`);
    expect(afterTooLong.data).toHaveLength(allIds.length + 1);

    const missing = await failure(api.post(`orders/${order.id}/notes`, {}));
    expect(missing.status).toBe(400);
    expect(missing.data.code).toBe('rest_missing_callback_param');

    const noTrash = await failure(api.delete(`orders/${order.id}/notes/${note.data.id}`));
    expect(noTrash.status).toBe(501);
    expect(noTrash.data.code).toBe('woocommerce_rest_trash_not_supported');

    const deleted = await api.delete(`orders/${order.id}/notes/${note.data.id}`, { force: true });
    expect(deleted.data.id).toBe(note.data.id);
    const gone = await failure(api.get(`orders/${order.id}/notes/${note.data.id}`));
    expect(gone.status).toBe(404);
  });

  it('refunds: manual refund with api_refund:false, gateway refund and over-refund fail with data: 500, full refund → refunded, DELETE defaults to force', async () => {
    const product = await newProduct({ regular_price: '20.00' });
    const order = (
      await api.post('orders', {
        payment_method: 'bacs',
        set_paid: true,
        line_items: [{ product_id: product.id, quantity: 2 }],
      })
    ).data;
    expect(order.total).toBe('40.00');
    expect(order.status).toBe('processing');

    const refund = await api.post(`orders/${order.id}/refunds`, {
      amount: '5.00',
      reason: 'Chipped',
      api_refund: false,
    });
    expect(refund.status).toBe(201);
    expect(refund.data).toMatchObject({ amount: '5.00', reason: 'Chipped' });

    const withRefund = await api.get(`orders/${order.id}`);
    expect(withRefund.data.refunds).toEqual([
      expect.objectContaining({ id: refund.data.id, total: '-5.00' }),
    ]);

    const listed = await api.get(`orders/${order.id}/refunds`);
    expect(listed.data.map((r: any) => r.id)).toEqual([refund.data.id]);
    expect((await api.get(`orders/${order.id}/refunds/${refund.data.id}`)).data).toMatchObject({
      amount: '5.00',
      refunded_payment: false,
    });

    // api_refund defaults to true: BACS cannot refund automatically → 500 with data as a bare number.
    const gateway = await failure(api.post(`orders/${order.id}/refunds`, { amount: '1.00' }));
    expect(gateway.status).toBe(500);
    expect(gateway.data).toMatchObject({ code: 'woocommerce_rest_cannot_create_order_refund', data: 500 });
    expect(gateway.data.message).toMatch(/payment gateway/i);

    const tooMuch = await failure(
      api.post(`orders/${order.id}/refunds`, { amount: '100.00', api_refund: false }),
    );
    expect(tooMuch.status).toBe(500);
    expect(tooMuch.data).toEqual({
      code: 'woocommerce_rest_cannot_create_order_refund',
      message: 'Invalid refund amount.',
      data: 500,
    });

    await api.post(`orders/${order.id}/refunds`, { amount: '35.00', api_refund: false });
    expect((await api.get(`orders/${order.id}`)).data.status).toBe('refunded');

    // The refund DELETE route declares force with default true (WC_REST_Order_Refunds_V2_Controller), so a
    // plain DELETE removes the refund for good.
    const deleted = await api.delete(`orders/${order.id}/refunds/${refund.data.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.data.id).toBe(refund.data.id);
    const gone = await failure(api.get(`orders/${order.id}/refunds/${refund.data.id}`));
    expect(gone.status).toBe(404);
  });

  it('errors arrive as AxiosError with response.status and the WooCommerce body', async () => {
    const missing = await failure(api.get('products/99999999'));
    expect(missing.name).toBe('AxiosError');
    expect(missing.status).toBe(404);
    expect(missing.data).toEqual({
      code: 'woocommerce_rest_product_invalid_id',
      message: 'Invalid ID.',
      data: { status: 404 },
    });

    const tooMany = await failure(api.get('products', { per_page: 101 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.data).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: { status: 400, params: { per_page: expect.any(String) } },
    });

    const putMissing = await failure(api.put('products/99999999', { name: 'x' }));
    expect(putMissing.status).toBe(400);
    expect(putMissing.data).toMatchObject({
      code: 'woocommerce_rest_product_invalid_id',
      data: { status: 400 },
    });

    const noRoute = await failure(api.get('no-such-thing'));
    expect(noRoute.status).toBe(404);
    expect(noRoute.data).toMatchObject({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });

    const badEmail = await failure(api.post('customers', { email: 'not-an-email' }));
    expect(badEmail.status).toBe(400);
    expect(badEmail.data).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
  });
});

describe('authentication failures seen through the official client', () => {
  let httpSandbox: Sandbox;
  let httpsSandbox: Sandbox;

  beforeAll(async () => {
    httpSandbox = await startSandbox({ store: { rateLimit: false } });
    httpsSandbox = await startSandbox({ https: true, store: { rateLimit: false } });
  });

  afterAll(async () => {
    await httpSandbox?.close();
    await httpsSandbox?.close();
  });

  it('OAuth over HTTP with the wrong secret → 401 woocommerce_rest_authentication_error', async () => {
    const api = makeClient({
      url: httpSandbox.url,
      consumerKey: httpSandbox.store.consumerKey,
      consumerSecret: `${httpSandbox.store.consumerSecret}x`,
    });
    const res = await failure(api.get('products'));
    expect(res.status).toBe(401);
    expect(res.data).toEqual({
      code: 'woocommerce_rest_authentication_error',
      message: 'Invalid signature - provided signature does not match.',
      data: { status: 401 },
    });
  });

  it('OAuth over HTTP with an unknown key → 401 "Consumer key is invalid."', async () => {
    const api = makeClient({
      url: httpSandbox.url,
      consumerKey: `ck_${'0'.repeat(40)}`,
      consumerSecret: `cs_${'0'.repeat(40)}`,
    });
    const res = await failure(api.get('products'));
    expect(res.status).toBe(401);
    expect(res.data).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      message: 'Consumer key is invalid.',
    });
  });

  it('HTTPS Basic with the wrong secret → 401 "Consumer secret is invalid."', async () => {
    const api = makeClient({
      url: httpsSandbox.url,
      consumerKey: httpsSandbox.store.consumerKey,
      consumerSecret: `${httpsSandbox.store.consumerSecret}x`,
      certificate: httpsSandbox.certificate,
    });
    const res = await failure(api.get('products'));
    expect(res.status).toBe(401);
    expect(res.data).toEqual({
      code: 'woocommerce_rest_authentication_error',
      message: 'Consumer secret is invalid.',
      data: { status: 401 },
    });
    // authenticate() always falls through to perform_oauth_authentication(), which sets auth_method to
    // 'oauth1', so send_unauthorized_headers() (basic_auth only) never adds WWW-Authenticate.
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('HTTPS Basic with an unknown key runs anonymous → 401 woocommerce_rest_cannot_view', async () => {
    const api = makeClient({
      url: httpsSandbox.url,
      consumerKey: `ck_${'1'.repeat(40)}`,
      consumerSecret: `cs_${'1'.repeat(40)}`,
      certificate: httpsSandbox.certificate,
    });
    const res = await failure(api.get('products'));
    expect(res.status).toBe(401);
    expect(res.data).toEqual({
      code: 'woocommerce_rest_cannot_view',
      message: 'Sorry, you cannot list resources.',
      data: { status: 401 },
    });
  });

  it('key permissions: read key cannot write, write key cannot read', async () => {
    const { read, write } = httpsSandbox.store.keys;
    expect(read.permissions).toBe('read');
    expect(write.permissions).toBe('write');
    const reader = makeClient({ url: httpsSandbox.url, ...read, certificate: httpsSandbox.certificate });
    const writer = makeClient({ url: httpsSandbox.url, ...write, certificate: httpsSandbox.certificate });

    expect((await reader.get('products')).status).toBe(200);
    const cannotWrite = await failure(reader.post('products', { name: 'nope' }));
    expect(cannotWrite.status).toBe(401);
    expect(cannotWrite.data).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      message: 'The API key provided does not have write permissions.',
    });

    expect((await writer.post('products', { name: tag('written') })).status).toBe(201);
    const cannotRead = await failure(writer.get('products'));
    expect(cannotRead.status).toBe(401);
    expect(cannotRead.data).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      message: 'The API key provided does not have read permissions.',
    });
  });
});

describe('strictHttps: Basic auth over plain HTTP is ignored like on a real store', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ store: { strictHttps: true, rateLimit: false } });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('plain-HTTP Basic → anonymous → 401 woocommerce_rest_cannot_view (not an auth error)', async () => {
    const res = await request(`${sandbox.url}/wp-json/wc/v3/products`, {
      headers: {
        authorization: basic(sandbox.store.consumerKey, sandbox.store.consumerSecret),
        accept: 'application/json',
      },
    });
    expectWcError(res, 401, 'woocommerce_rest_cannot_view');
    expect(res.json.message).toBe('Sorry, you cannot list resources.');
  });

  it('plain-HTTP query-string keys → anonymous → 401 woocommerce_rest_cannot_view', async () => {
    const qs = `consumer_key=${sandbox.store.consumerKey}&consumer_secret=${sandbox.store.consumerSecret}`;
    const res = await request(`${sandbox.url}/wp-json/wc/v3/products?${qs}`);
    expectWcError(res, 401, 'woocommerce_rest_cannot_view');
  });

  it('the official client (OAuth on http:) still works', async () => {
    const api = makeClient({
      url: sandbox.url,
      consumerKey: sandbox.store.consumerKey,
      consumerSecret: sandbox.store.consumerSecret,
    });
    const res = await api.get('products', { per_page: 5 });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.data)).toBe(true);
  });
});

describe('WordPress REST extras honoured on wc/v3 routes (plain HTTP, Basic accepted by the emulator)', () => {
  let sandbox: Sandbox;
  const API = '/wp-json/wc/v3';

  beforeAll(async () => {
    sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const auth = () => ({ authorization: basic(sandbox.store.consumerKey, sandbox.store.consumerSecret) });

  it('GET /wp-json/wc/v3 is the namespace index and needs no key', async () => {
    const res = await request(`${sandbox.url}${API}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ namespace: 'wc/v3' });
    expect(Object.keys(res.json.routes)).toEqual(
      expect.arrayContaining(['/wc/v3/products', '/wc/v3/orders']),
    );
  });

  it('the plain-permalink form ?rest_route=/wc/v3/... serves the same API', async () => {
    const created = await request(`${sandbox.url}/?rest_route=/wc/v3/products`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Plain permalink product' }),
    });
    expect(created.status).toBe(201);
    const got = await request(`${sandbox.url}/?rest_route=/wc/v3/products/${created.json.id}`, {
      headers: auth(),
    });
    expect(got.status).toBe(200);
    expect(got.json.name).toBe('Plain permalink product');
  });

  it('POST with ?_method=DELETE and X-HTTP-Method-Override: PUT act as those methods', async () => {
    const created = await request(`${sandbox.url}${API}/products`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Override me' }),
    });
    const id = created.json.id;
    const put = await request(`${sandbox.url}${API}/products/${id}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'x-http-method-override': 'PUT' },
      body: JSON.stringify({ name: 'Overridden' }),
    });
    expect(put.status).toBe(200);
    expect(put.json.name).toBe('Overridden');
    const del = await request(`${sandbox.url}${API}/products/${id}?_method=DELETE&force=true`, {
      method: 'POST',
      headers: auth(),
    });
    expect(del.status).toBe(200);
    expect(del.json.id).toBe(id);
    const gone = await request(`${sandbox.url}${API}/products/${id}`, { headers: auth() });
    expectWcError(gone, 404, 'woocommerce_rest_product_invalid_id');
  });
});
