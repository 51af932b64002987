/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2 against the emulator's /wc/v3/coupons,
 * as it works against a real store. Expected behaviour comes from WooCommerce's code:
 * WC_REST_Coupons_Controller (Version3) over WC_REST_Coupons_V2_Controller and WC_REST_CRUD_Controller, WC_Coupon's
 * setters, and WC_Coupon_Data_Store_CPT (create(), update(), get_ids_by_code()).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import {
  failure,
  parseLink,
  storeWithOfficialClient,
  type WooCommerceRestApi,
} from '../helpers/woo-client.js';

const code = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

const transports = [
  { name: 'HTTPS with Basic auth', https: true, queryStringAuth: false },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false, queryStringAuth: false },
] as const;

describe.each(transports)('coupons through the official client over $name', (transport) => {
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

  it('create (201 + Location) with WooCommerce defaults → get → update → trash → 410 → force delete → 404', async () => {
    const wanted = code('Summer');
    const created = await api.post('coupons', { code: wanted, amount: '10', discount_type: 'percent' });
    expect(created.status).toBe(201);
    const id = created.data.id as number;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/coupons/${id}$`));
    // WC_REST_Coupons_V2_Controller::get_formatted_item_data(): wc_format_coupon_code() lower-cases the code,
    // amounts are wc_format_decimal($v, 2) ("0.00" for an unset minimum), limits of 0 are null.
    expect(created.data).toMatchObject({
      id,
      code: wanted.toLowerCase(),
      amount: '10.00',
      status: 'publish',
      discount_type: 'percent',
      description: '',
      date_expires: null,
      date_expires_gmt: null,
      usage_count: 0,
      individual_use: false,
      product_ids: [],
      excluded_product_ids: [],
      usage_limit: null,
      usage_limit_per_user: null,
      limit_usage_to_x_items: null,
      free_shipping: false,
      product_categories: [],
      excluded_product_categories: [],
      exclude_sale_items: false,
      minimum_amount: '0.00',
      maximum_amount: '0.00',
      email_restrictions: [],
      used_by: [],
      meta_data: [],
    });
    expect(created.data.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(created.data.date_created_gmt).toBe(created.data.date_created);
    expect(created.data._links.self[0].href).toMatch(new RegExp(`/wp-json/wc/v3/coupons/${id}$`));
    expect(created.data._links.collection[0].href).toMatch(/\/wp-json\/wc\/v3\/coupons$/);

    const got = await api.get(`coupons/${id}`);
    expect(got.data).toEqual(created.data);

    const updated = await api.put(`coupons/${id}`, {
      amount: '12.5',
      minimum_amount: '50',
      usage_limit: 3,
      date_expires: '2031-06-30T23:59:59',
      email_restrictions: ['Buyer@Example.com'],
      product_ids: [7, 7, 9],
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({
      amount: '12.50',
      minimum_amount: '50.00',
      usage_limit: 3,
      date_expires: '2031-06-30T23:59:59',
      date_expires_gmt: '2031-06-30T23:59:59',
      email_restrictions: ['buyer@example.com'],
      product_ids: [7, 9],
    });

    // Coupons are posts: DELETE without force trashes (answering with the coupon as it was), twice is a 410.
    const trashed = await api.delete(`coupons/${id}`);
    expect(trashed.data).toMatchObject({ id, status: 'publish' });
    expect((await api.get(`coupons/${id}`)).data.status).toBe('trash');
    const again = await failure(api.delete(`coupons/${id}`));
    expect(again.status).toBe(410);
    expect(again.data).toEqual({
      code: 'woocommerce_rest_already_trashed',
      message: 'The shop_coupon has already been deleted.',
      data: { status: 410 },
    });

    const deleted = await api.delete(`coupons/${id}`, { force: true });
    expect(deleted.data).toMatchObject({ id, status: 'trash' });
    const gone = await failure(api.get(`coupons/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({
      code: 'woocommerce_rest_shop_coupon_invalid_id',
      message: 'Invalid ID.',
      data: { status: 404 },
    });
  });

  it('refuses a code a published coupon already has, on create and on update (any case)', async () => {
    const taken = code('taken');
    await api.post('coupons', { code: taken, amount: '5' });
    // WC_REST_Coupons_V2_Controller::prepare_object_for_database(): wc_get_coupon_id_by_code($code, $id).
    const dup = await failure(api.post('coupons', { code: taken.toUpperCase(), amount: '5' }));
    expect(dup.status).toBe(400);
    expect(dup.data).toEqual({
      code: 'woocommerce_rest_coupon_code_already_exists',
      message: 'The coupon code already exists',
      data: { status: 400 },
    });
    const other = await api.post('coupons', { code: code('other') });
    const renamed = await failure(api.put(`coupons/${other.data.id}`, { code: taken }));
    expect(renamed.status).toBe(400);
    expect(renamed.data.code).toBe('woocommerce_rest_coupon_code_already_exists');
    // Its own code is no conflict.
    const same = await api.put(`coupons/${other.data.id}`, { code: other.data.code, description: 'kept' });
    expect(same.data).toMatchObject({ code: other.data.code, description: 'kept' });
  });

  it('answers WooCommerce validation errors: missing code, unknown discount type, bad id', async () => {
    const missing = await failure(api.post('coupons', { amount: '5' }));
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): code',
      data: { status: 400, params: ['code'] },
    });

    const badType = await failure(api.post('coupons', { code: code('t'), discount_type: 'bogus' }));
    expect(badType.status).toBe(400);
    expect(badType.data.code).toBe('rest_invalid_param');
    expect(badType.data.message).toBe('Invalid parameter(s): discount_type');
    expect(badType.data.data.params.discount_type).toBe(
      'discount_type is not one of percent, fixed_cart, and fixed_product.',
    );

    const update = await failure(api.put('coupons/987654', { amount: '1' }));
    expect(update.status).toBe(400);
    expect(update.data.code).toBe('woocommerce_rest_shop_coupon_invalid_id');
    const del = await failure(api.delete('coupons/987654', { force: true }));
    expect(del.status).toBe(404);
    expect(del.data.code).toBe('woocommerce_rest_shop_coupon_invalid_id');
  });

  it('lists with paging headers, code, search, status and ordering', async () => {
    const prefix = code('list');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post('coupons', {
        code: `${prefix}-${i}`,
        description: i === 1 ? 'Black Friday special' : 'plain',
        status: i === 2 ? 'draft' : 'publish',
      });
      ids.push(res.data.id);
    }
    const page = await api.get('coupons', { search: prefix, per_page: 2, orderby: 'id', order: 'asc' });
    expect(page.headers['x-wp-total']).toBe('3');
    expect(page.headers['x-wp-totalpages']).toBe('2');
    expect(page.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 2));
    expect(parseLink(page.headers.link).next).toMatch(/page=2/);

    // `code` is exact (wc_get_coupon_id_by_code()) and finds published coupons only.
    const byCode = await api.get('coupons', { code: `${prefix}-0` });
    expect(byCode.data.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    expect((await api.get('coupons', { code: `${prefix}-2` })).data).toEqual([]);

    const searched = await api.get('coupons', { search: 'black friday' });
    expect(searched.data.map((c: { id: number }) => c.id)).toEqual([ids[1]]);

    const drafts = await api.get('coupons', { status: 'draft', search: prefix });
    expect(drafts.data.map((c: { id: number }) => c.id)).toEqual([ids[2]]);

    const byTitle = await api.get('coupons', { search: prefix, orderby: 'title', order: 'desc' });
    expect(byTitle.data.map((c: { code: string }) => c.code)).toEqual([2, 1, 0].map((i) => `${prefix}-${i}`));
  });

  it('batch: creates, updates and deletes with per-item errors', async () => {
    const first = await api.post('coupons', { code: code('batch') });
    const res = await api.post('coupons/batch', {
      create: [
        { code: code('batch-new'), amount: '3', discount_type: 'fixed_product' },
        { code: first.data.code },
      ],
      update: [{ id: first.data.id, free_shipping: true }],
      delete: [first.data.id],
    });
    expect(res.status).toBe(200);
    expect(res.data.create[0]).toMatchObject({ amount: '3.00', discount_type: 'fixed_product' });
    expect(res.data.create[1]).toEqual({
      id: 0,
      error: {
        code: 'woocommerce_rest_coupon_code_already_exists',
        message: 'The coupon code already exists',
        data: { status: 400 },
      },
    });
    expect(res.data.update[0]).toMatchObject({ id: first.data.id, free_shipping: true });
    expect(res.data.delete[0]).toMatchObject({ id: first.data.id });
    expect((await failure(api.get(`coupons/${first.data.id}`))).status).toBe(404);
  });
});
