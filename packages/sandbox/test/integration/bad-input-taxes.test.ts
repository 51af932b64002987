/**
 * Bad input to `/taxes` and `/taxes/classes` over raw HTTP: each answer is the status, code and message a real
 * store sends. Sources: rest_validate_value_from_schema() and WP_REST_Request::has_valid_params() (args checked
 * before the permission callback), WC_REST_Taxes_V1_Controller (create_item, get_item, update_item,
 * delete_item), WC_REST_Tax_Classes_V1_Controller / V2 (create_item, delete_item), WC_Tax::create_tax_class()
 * and delete_tax_class_by(), WC_REST_Controller::check_batch_limit().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, storeApi } from '../helpers/http.js';

let sb: Sandbox;
let rateId: number;
const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'none' } });
  rateId = (await api('POST', '/taxes', { country: 'US', rate: '5' })).json.id;
});
afterAll(async () => {
  await sb.close();
});

interface Case {
  name: string;
  method: string;
  path: string | (() => string);
  body?: unknown;
  status: number;
  code: string;
  message: string;
  /** `data.params` of a rest_invalid_param. */
  params?: Record<string, string>;
}

const cases: Case[] = [
  {
    name: 'a JSON number as the rate (the schema says string)',
    method: 'POST',
    path: '/taxes',
    body: { rate: 20 },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): rate',
    params: { rate: 'rate is not of type string.' },
  },
  {
    name: 'several bad fields at once, all reported',
    method: 'POST',
    path: '/taxes',
    body: { priority: 'high', compound: 'maybe', postcodes: { a: '1' } },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): priority, compound, postcodes',
    params: {
      priority: 'priority is not of type integer.',
      compound: 'compound is not of type boolean.',
      postcodes: 'postcodes is not of type array.',
    },
  },
  {
    name: 'a class that does not exist',
    method: 'PUT',
    path: () => `/taxes/${rateId}`,
    body: { class: 'Reduced rate' },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): class',
    params: { class: 'class is not one of standard, reduced-rate, and zero-rate.' },
  },
  {
    name: 'an `id` on create',
    method: 'POST',
    path: '/taxes',
    body: { id: 5, rate: '1' },
    status: 400,
    code: 'woocommerce_rest_tax_exists',
    message: 'Cannot create existing resource.',
  },
  {
    name: 'get of a missing rate',
    method: 'GET',
    path: '/taxes/999999',
    status: 404,
    code: 'woocommerce_rest_invalid_id',
    message: 'Invalid resource ID.',
  },
  {
    name: 'update of a missing rate',
    method: 'PUT',
    path: '/taxes/999999',
    body: { rate: '1' },
    status: 404,
    code: 'woocommerce_rest_invalid_id',
    message: 'Invalid resource ID.',
  },
  {
    name: 'forced delete of a missing rate (400, unlike get)',
    method: 'DELETE',
    path: '/taxes/999999?force=true',
    status: 400,
    code: 'woocommerce_rest_invalid_id',
    message: 'Invalid resource ID.',
  },
  {
    name: 'delete without force, before the id is looked up',
    method: 'DELETE',
    path: '/taxes/999999',
    status: 501,
    code: 'woocommerce_rest_trash_not_supported',
    message: 'Taxes do not support trashing.',
  },
  {
    name: 'a non-numeric id',
    method: 'GET',
    path: '/taxes/abc',
    status: 404,
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
  },
  {
    name: 'per_page over 100',
    method: 'GET',
    path: '/taxes?per_page=101',
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): per_page',
    params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
  },
  {
    name: 'an orderby the controller does not offer',
    method: 'GET',
    path: '/taxes?orderby=name',
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): orderby',
    params: { orderby: 'orderby is not one of id, order, and priority.' },
  },
  {
    name: 'a tax class without a name',
    method: 'POST',
    path: '/taxes/classes',
    body: {},
    status: 400,
    code: 'rest_missing_callback_param',
    message: 'Missing parameter(s): name',
  },
  {
    name: 'a tax class whose name sanitizes to nothing',
    method: 'POST',
    path: '/taxes/classes',
    body: { name: '<b></b> ' },
    status: 400,
    code: 'woocommerce_rest_tax_class_invalid_name',
    message: 'Tax class requires a valid name',
  },
  {
    name: 'a tax class name without a slug',
    method: 'POST',
    path: '/taxes/classes',
    body: { name: '!!!' },
    status: 400,
    code: 'woocommerce_rest_tax_class_slug_invalid',
    message: 'Tax class slug is invalid',
  },
  {
    name: 'a tax class name that is not a string',
    method: 'POST',
    path: '/taxes/classes',
    body: { name: 12 },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): name',
    params: { name: 'name is not of type string.' },
  },
  {
    name: 'deleting a tax class without force',
    method: 'DELETE',
    path: '/taxes/classes/zero-rate',
    status: 501,
    code: 'woocommerce_rest_trash_not_supported',
    message: 'Taxes do not support trashing.',
  },
  {
    name: 'deleting a tax class that does not exist',
    method: 'DELETE',
    path: '/taxes/classes/nope?force=true',
    status: 400,
    code: 'woocommerce_rest_invalid_tax_class',
    message: 'Invalid tax class',
  },
  {
    name: 'updating a tax class (there is no such route)',
    method: 'PUT',
    path: '/taxes/classes/zero-rate',
    body: { name: 'Nil' },
    status: 404,
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
  },
  {
    name: 'a slug the route pattern does not match',
    method: 'GET',
    path: '/taxes/classes/-zero',
    status: 404,
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
  },
  {
    name: 'a batch of 101 items',
    method: 'POST',
    path: '/taxes/batch',
    body: { create: Array.from({ length: 101 }, () => ({ rate: '1' })) },
    status: 413,
    code: 'woocommerce_rest_request_entity_too_large',
    message: 'Unable to accept more than 100 items for this request.',
  },
];

describe('bad input to /taxes and /taxes/classes', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const path = typeof c.path === 'function' ? c.path() : c.path;
    const res = await api(c.method, path, c.body);
    expectWcError(res, c.status, c.code);
    expect(res.json.message).toBe(c.message);
    if (c.params) expect(res.json.data.params).toEqual(c.params);
  });

  it('anonymous requests fail on the capability (401), after the args are checked', async () => {
    const anon = async (method: string, path: string) => {
      const r = await fetch(`${sb.url}/wp-json/wc/v3${path}`, { method });
      return { status: r.status, json: (await r.json()) as any };
    };
    expectWcError(await anon('GET', '/taxes/classes'), 401, 'woocommerce_rest_cannot_view');
    expectWcError(
      await anon('DELETE', '/taxes/classes/zero-rate?force=true'),
      401,
      'woocommerce_rest_cannot_delete',
    );
    expectWcError(await anon('POST', '/taxes/batch'), 401, 'woocommerce_rest_cannot_batch');
    expectWcError(await anon('GET', '/taxes?per_page=0'), 400, 'rest_invalid_param');
  });

  it('nothing was written by the refused requests', async () => {
    const rates = await api('GET', '/taxes?per_page=100');
    expect(rates.json.map((t: { id: number }) => t.id)).toEqual([rateId]);
    const classes = await api('GET', '/taxes/classes');
    expect(classes.json.map((c: { slug: string }) => c.slug)).toEqual([
      'standard',
      'reduced-rate',
      'zero-rate',
    ]);
  });
});
