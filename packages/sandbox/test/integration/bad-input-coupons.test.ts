/**
 * Bad input to /wc/v3/coupons over real sockets: each case comes back as the WordPress REST error a real store
 * sends. Sources: WP_REST_Request::has_valid_params() and rest_validate_value_from_schema() (rest_invalid_param,
 * rest_missing_callback_param), WC_REST_Coupons_V2_Controller::register_routes() (required `code`),
 * ::prepare_object_for_database() (woocommerce_rest_empty_coupon_code, woocommerce_rest_coupon_code_already_exists),
 * WC_Coupon::set_amount() / set_email_restrictions() (WC_Data_Exception → 400), WC_REST_CRUD_Controller
 * (create_item(), update_item(), delete_item(), get_collection_params()), WC_REST_Controller::check_batch_limit().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basic, expectWcError, request, storeApi } from '../helpers/http.js';

const API = '/wp-json/wc/v3';

let sandbox: Sandbox;
let percentId: number;
let otherId: number;

const auth = () => basic(sandbox.store.consumerKey, sandbox.store.consumerSecret);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'none' } });
  await storeApi(sandbox, 'POST', '/coupons', { code: 'taken' });
  percentId = (
    await storeApi(sandbox, 'POST', '/coupons', { code: 'half', discount_type: 'percent', amount: '50' })
  ).json.id;
  otherId = (await storeApi(sandbox, 'POST', '/coupons', { code: 'other' })).json.id;
});
afterAll(async () => {
  await sandbox?.close();
});

interface Case {
  name: string;
  method?: string;
  path: string | (() => string);
  body?: unknown;
  authenticated?: boolean;
  status: number;
  code: string;
  message?: string;
  /** Expected `data.params` (rest_invalid_param: name → message; rest_missing_callback_param: names). */
  params?: unknown;
}

const cases: Case[] = [
  {
    name: 'create without code',
    method: 'POST',
    path: '/coupons',
    body: { amount: '5' },
    status: 400,
    code: 'rest_missing_callback_param',
    message: 'Missing parameter(s): code',
    params: ['code'],
  },
  {
    name: 'create with a null code (a required arg that is null is missing)',
    method: 'POST',
    path: '/coupons',
    body: { code: null },
    status: 400,
    code: 'rest_missing_callback_param',
    params: ['code'],
  },
  {
    name: 'create with an empty code',
    method: 'POST',
    path: '/coupons',
    body: { code: '' },
    status: 400,
    code: 'woocommerce_rest_empty_coupon_code',
    message: 'The coupon code cannot be empty.',
  },
  {
    name: 'create with code "0" (PHP empty())',
    method: 'POST',
    path: '/coupons',
    body: { code: '0' },
    status: 400,
    code: 'woocommerce_rest_empty_coupon_code',
  },
  {
    name: 'create with a numeric code',
    method: 'POST',
    path: '/coupons',
    body: { code: 123 },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): code',
    params: { code: 'code is not of type string.' },
  },
  {
    name: 'amount as a JSON number',
    method: 'POST',
    path: '/coupons',
    body: { code: 'num', amount: 10 },
    status: 400,
    code: 'rest_invalid_param',
    params: { amount: 'amount is not of type string.' },
  },
  {
    name: 'unknown discount_type',
    method: 'POST',
    path: '/coupons',
    body: { code: 'kind', discount_type: 'percent_cart' },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): discount_type',
    params: { discount_type: 'discount_type is not one of percent, fixed_cart, and fixed_product.' },
  },
  {
    name: 'several invalid args are reported together',
    method: 'POST',
    path: '/coupons',
    body: { code: 'many', usage_limit: 'lots', individual_use: 'maybe', product_ids: [1, 'two'] },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): individual_use, product_ids, usage_limit',
    params: {
      individual_use: 'individual_use is not of type boolean.',
      product_ids: 'product_ids[1] is not of type integer.',
      usage_limit: 'usage_limit is not of type integer.',
    },
  },
  {
    name: 'email_restrictions with a non-string item',
    method: 'POST',
    path: '/coupons',
    body: { code: 'mail', email_restrictions: [5] },
    status: 400,
    code: 'rest_invalid_param',
    params: { email_restrictions: 'email_restrictions[0] is not of type string.' },
  },
  {
    name: 'an email restriction sanitize_email() leaves invalid (is_email() refuses it)',
    method: 'POST',
    path: '/coupons',
    body: { code: 'mail2', email_restrictions: ['a@_-b.com'] },
    status: 400,
    code: 'coupon_invalid_email_address',
    message: 'Invalid email address restriction.',
  },
  {
    name: 'a negative amount (WC_Coupon::set_amount())',
    method: 'POST',
    path: '/coupons',
    body: { code: 'neg', amount: '-5' },
    status: 400,
    code: 'coupon_invalid_amount',
    message: 'Invalid discount amount.',
  },
  {
    name: 'more than 100 percent on a percent coupon',
    method: 'PUT',
    path: () => `/coupons/${percentId}`,
    body: { amount: '100.01' },
    status: 400,
    code: 'coupon_invalid_amount',
  },
  {
    name: 'a code another published coupon has (any case)',
    method: 'POST',
    path: '/coupons',
    body: { code: ' TAKEN ' },
    status: 400,
    code: 'woocommerce_rest_coupon_code_already_exists',
    message: 'The coupon code already exists',
  },
  {
    name: 'renaming to a taken code',
    method: 'PUT',
    path: () => `/coupons/${otherId}`,
    body: { code: 'Taken' },
    status: 400,
    code: 'woocommerce_rest_coupon_code_already_exists',
  },
  {
    name: 'create naming an id',
    method: 'POST',
    path: '/coupons',
    body: { id: 5, code: 'with-id' },
    status: 400,
    code: 'woocommerce_rest_shop_coupon_exists',
    message: 'Cannot create existing shop_coupon.',
  },
  {
    name: 'get a missing coupon',
    path: '/coupons/999999',
    status: 404,
    code: 'woocommerce_rest_shop_coupon_invalid_id',
    message: 'Invalid ID.',
  },
  {
    name: 'update a missing coupon',
    method: 'PUT',
    path: '/coupons/999999',
    body: {},
    status: 400,
    code: 'woocommerce_rest_shop_coupon_invalid_id',
  },
  {
    name: 'delete a missing coupon',
    method: 'DELETE',
    path: '/coupons/999999?force=true',
    status: 404,
    code: 'woocommerce_rest_shop_coupon_invalid_id',
  },
  {
    name: 'a non-numeric id matches no route',
    path: '/coupons/summer',
    status: 404,
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
  },
  {
    name: 'per_page above 100',
    path: '/coupons?per_page=101',
    status: 400,
    code: 'rest_invalid_param',
    params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
  },
  {
    name: 'an orderby coupons do not have',
    path: '/coupons?orderby=price',
    status: 400,
    code: 'rest_invalid_param',
    params: { orderby: 'orderby is not one of date, id, include, title, slug, and modified.' },
  },
  {
    name: 'a date filter that is not a date',
    path: '/coupons?modified_after=yesterday',
    status: 400,
    code: 'rest_invalid_param',
    params: { modified_after: 'Invalid date.' },
  },
  {
    name: 'force that is not a boolean',
    method: 'DELETE',
    path: () => `/coupons/${otherId}?force=perhaps`,
    status: 400,
    code: 'rest_invalid_param',
    params: { force: 'force is not of type boolean.' },
  },
  {
    name: 'list without credentials',
    path: '/coupons',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: 'Sorry, you cannot list resources.',
  },
  {
    name: 'create without credentials (args valid)',
    method: 'POST',
    path: '/coupons',
    body: { code: 'anon' },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_create',
  },
  {
    name: 'get an existing coupon without credentials',
    path: () => `/coupons/${otherId}`,
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: 'Sorry, you cannot view this resource.',
  },
  {
    name: 'a batch over 100 items',
    method: 'POST',
    path: '/coupons/batch',
    body: { delete: Array.from({ length: 101 }, (_, i) => i + 1) },
    status: 413,
    code: 'woocommerce_rest_request_entity_too_large',
    message: 'Unable to accept more than 100 items for this request.',
  },
];

const resolve = <T>(v: T | (() => T)): T => (typeof v === 'function' ? (v as () => T)() : v);

describe('coupons: bad input answered as WooCommerce answers it', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (c.authenticated !== false) headers.authorization = auth();
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(`${sandbox.url}${API}${resolve(c.path)}`, {
      method: c.method ?? 'GET',
      headers,
      body: c.body === undefined ? undefined : JSON.stringify(c.body),
    });
    expectWcError(res, c.status, c.code);
    if (c.message !== undefined) expect(res.json.message).toBe(c.message);
    if (c.params !== undefined) expect(res.json.data.params).toEqual(c.params);
  });

  it('a refused create or update changes nothing and uses no id', async () => {
    const before = await storeApi(sandbox, 'GET', '/coupons?per_page=100&orderby=id');
    await storeApi(sandbox, 'PUT', `/coupons/${percentId}`, { description: 'changed?', amount: '500' });
    await storeApi(sandbox, 'POST', '/coupons', { code: 'late-error', email_restrictions: ['a@_-b.com'] });
    const after = await storeApi(sandbox, 'GET', '/coupons?per_page=100&orderby=id');
    expect(after.json).toEqual(before.json);
    const next = await storeApi(sandbox, 'POST', '/coupons', { code: 'next' });
    expect(next.json.id).toBe(Math.max(...before.json.map((c: { id: number }) => c.id)) + 1);
  });
});
