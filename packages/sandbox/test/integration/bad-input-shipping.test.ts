/**
 * Malformed input to the shipping, system status and reports routes over real sockets, answered as a real
 * WooCommerce store would: rest_invalid_param / rest_missing_callback_param from the route args
 * (WP_REST_Request::has_valid_params(), validated before the permission callbacks), the controllers' own
 * errors (WC_REST_Shipping_Zone_Methods_V2_Controller::update_fields(), get_zone(), the tools controller's
 * get_item()), wc_rest_validate_reports_request_arg() for report dates, and rest_no_route for methods a
 * route does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, storeApi } from '../helpers/http.js';

let sb: Sandbox;
let zoneId: number;
let flatId: number;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  zoneId = (await storeApi(sb, 'POST', '/shipping/zones', { name: 'Bad input' })).json.id;
  flatId = (await storeApi(sb, 'POST', `/shipping/zones/${zoneId}/methods`, { method_id: 'flat_rate' })).json
    .id;
});
afterAll(() => sb?.close());

interface Case {
  name: string;
  method: string;
  path: string | (() => string);
  body?: unknown;
  status: number;
  code: string;
  message?: string;
  params?: Record<string, string>;
}

const cases: Case[] = [
  {
    name: 'zone create without a name',
    method: 'POST',
    path: '/shipping/zones',
    body: { order: 1 },
    status: 400,
    code: 'rest_missing_callback_param',
    message: 'Missing parameter(s): name',
  },
  {
    name: 'zone order that is not an integer',
    method: 'POST',
    path: '/shipping/zones',
    body: { name: 'x', order: 'first' },
    status: 400,
    code: 'rest_invalid_param',
    params: { order: 'order is not of type integer.' },
  },
  {
    name: 'zone name that is not a string',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}`,
    body: { name: ['a'] },
    status: 400,
    code: 'rest_invalid_param',
    params: { name: 'name is not of type string.' },
  },
  {
    name: 'unknown zone',
    method: 'GET',
    path: '/shipping/zones/999999',
    status: 404,
    code: 'woocommerce_rest_shipping_zone_invalid',
    message: 'Resource does not exist.',
  },
  {
    name: 'methods of an unknown zone',
    method: 'POST',
    path: '/shipping/zones/999999/methods',
    body: { method_id: 'flat_rate' },
    status: 404,
    code: 'woocommerce_rest_shipping_zone_invalid',
  },
  {
    name: 'method create without method_id',
    method: 'POST',
    path: () => `/shipping/zones/${zoneId}/methods`,
    body: { enabled: true },
    status: 400,
    code: 'rest_missing_callback_param',
    message: 'Missing parameter(s): method_id',
  },
  {
    name: 'method settings that are not an object',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}/methods/${flatId}`,
    body: { settings: 'cheap' },
    status: 400,
    code: 'rest_invalid_param',
    params: { settings: 'settings is not of type object.' },
  },
  {
    name: 'method enabled that is not a boolean',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}/methods/${flatId}`,
    body: { enabled: 'sometimes' },
    status: 400,
    code: 'rest_invalid_param',
    params: { enabled: 'enabled is not of type boolean.' },
  },
  {
    name: 'a select setting outside its options',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}/methods/${flatId}`,
    body: { settings: { tax_status: 'maybe' } },
    status: 400,
    code: 'rest_setting_value_invalid',
    message: 'An invalid setting value was passed.',
  },
  {
    name: 'unknown method instance',
    method: 'GET',
    path: () => `/shipping/zones/${zoneId}/methods/999999`,
    status: 404,
    code: 'woocommerce_rest_shipping_zone_method_invalid',
  },
  {
    name: 'location type outside the enum (as a top-level arg)',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}/locations`,
    body: { code: 'US', type: 'planet' },
    status: 400,
    code: 'rest_invalid_param',
    params: { type: 'type is not one of postcode, state, country, and continent.' },
  },
  {
    name: 'invalid JSON for locations',
    method: 'PUT',
    path: () => `/shipping/zones/${zoneId}/locations`,
    body: '[{"code":',
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'locations cannot be deleted',
    method: 'DELETE',
    path: () => `/shipping/zones/${zoneId}/locations`,
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'shipping methods are read-only',
    method: 'POST',
    path: '/shipping_methods',
    body: { id: 'ups' },
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'shipping methods context edit',
    method: 'GET',
    path: '/shipping_methods?context=edit',
    status: 400,
    code: 'rest_invalid_param',
    params: { context: 'context is not view.' },
  },
  {
    name: 'unknown tool',
    method: 'GET',
    path: '/system_status/tools/format_disk',
    status: 404,
    code: 'woocommerce_rest_system_status_tool_invalid_id',
    message: 'Invalid tool ID.',
  },
  {
    name: 'tool run with a success that is not a boolean',
    method: 'PUT',
    path: '/system_status/tools/clear_transients',
    body: { success: 'yes please' },
    status: 400,
    code: 'rest_invalid_param',
    params: { success: 'success is not of type boolean.' },
  },
  {
    name: 'sales report period outside the enum',
    method: 'GET',
    path: '/reports/sales?period=fortnight',
    status: 400,
    code: 'rest_invalid_param',
    params: { period: 'period is not one of week, month, last_month, and year.' },
  },
  {
    name: 'top sellers date that is not YYYY-MM-DD',
    method: 'GET',
    path: '/reports/top_sellers?date_max=2024-1-5',
    status: 400,
    code: 'rest_invalid_param',
    params: { date_max: 'The date you provided is invalid.' },
  },
  {
    name: 'a totals report WooCommerce lists but does not serve',
    method: 'GET',
    path: '/reports/categories/totals',
    status: 404,
    code: 'rest_no_route',
  },
];

describe('bad input to shipping, system status and reports', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const path = typeof c.path === 'function' ? c.path() : c.path;
    const res = await storeApi(sb, c.method, path, c.body);
    expectWcError(res, c.status, c.code);
    if (c.message) expect(res.json.message).toBe(c.message);
    if (c.params) expect(res.json.data.params).toEqual(c.params);
  });

  it('a refused method delete still saves the fields it was sent (update_fields() runs first)', async () => {
    const res = await storeApi(sb, 'DELETE', `/shipping/zones/${zoneId}/methods/${flatId}`, {
      settings: { cost: '9.99' },
    });
    expectWcError(res, 501, 'rest_trash_not_supported');
    const after = await storeApi(sb, 'GET', `/shipping/zones/${zoneId}/methods/${flatId}`);
    expect(after.json.settings.cost.value).toBe('9.99');
  });
});
