/**
 * Bad input against the settings, payment gateway and data routes, over real sockets, answered with the
 * status, code and message a WooCommerce store sends. Sources (woocommerce/woocommerce, plugins/woocommerce/):
 * - permission callbacks: WC_REST_Settings_V2_Controller / WC_REST_Setting_Options_V2_Controller
 *   get_items_permissions_check() ("Sorry, you cannot list resources.") and update_items_permissions_check()
 *   ("Sorry, you cannot edit this resource."), WC_REST_Payment_Gateways_V2_Controller (view / "not allowed to
 *   edit"), WC_REST_Data_Controller get_items_permissions_check() / get_item_permissions_check();
 * - route patterns: settings `(?P<group_id>[\w-]+)/(?P<id>[\w-]+)`, currencies `(?P<currency>[\w-]{3})`
 *   (anything else is WordPress's rest_no_route);
 * - the payment gateway schema's writable args (title, description: string; order: integer; enabled: boolean;
 *   settings: object), validated by WordPress before the permission check (rest_invalid_param);
 * - WC_REST_Controller::validate_setting_*_field(), check_batch_limit() (413) and WP_REST_Controller's
 *   unimplemented create_item()/delete_item() ("invalid-method", 405) for settings batches;
 * - PHP 8: array_key_exists() with an array key throws a TypeError, WordPress's critical error (500).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basic, expectWcError, request } from '../helpers/http.js';

const API = '/wp-json/wc/v3';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
});
afterAll(async () => {
  await sandbox?.close();
});

interface Case {
  name: string;
  method?: string;
  path: string;
  body?: unknown;
  /** Send the key with Basic auth (default true). */
  authenticated?: boolean;
  status: number;
  code: string;
  message?: string;
  check?: (json: any) => void;
}

const call = (c: { method?: string; path: string; body?: unknown; authenticated?: boolean }) =>
  request(`${sandbox.url}${API}${c.path}`, {
    method: c.method ?? 'GET',
    headers: {
      ...(c.authenticated === false
        ? {}
        : { authorization: basic(sandbox.store.consumerKey, sandbox.store.consumerSecret) }),
      ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(c.body !== undefined ? { body: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) } : {}),
  });

const LIST = 'Sorry, you cannot list resources.';
const VIEW = 'Sorry, you cannot view this resource.';

const cases: Case[] = [
  // --- anonymous: 401 (rest_authorization_required_code()), each controller's own message
  {
    name: 'anonymous settings groups',
    path: '/settings',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: LIST,
  },
  {
    name: 'anonymous single setting (read with the list check)',
    path: '/settings/general/woocommerce_currency',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: LIST,
  },
  {
    name: 'anonymous setting update',
    method: 'PUT',
    path: '/settings/general/woocommerce_currency',
    body: { value: 'EUR' },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_edit',
    message: 'Sorry, you cannot edit this resource.',
  },
  {
    name: 'anonymous settings batch',
    method: 'POST',
    path: '/settings/batch',
    body: { update: [] },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_edit',
  },
  {
    name: 'anonymous gateway',
    path: '/payment_gateways/bacs',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: VIEW,
  },
  {
    name: 'anonymous gateway update',
    method: 'PUT',
    path: '/payment_gateways/bacs',
    body: { enabled: true },
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_edit',
    message: 'Sorry, you are not allowed to edit this resource.',
  },
  {
    name: 'anonymous countries',
    path: '/data/countries',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: LIST,
  },
  {
    name: 'anonymous currency',
    path: '/data/currencies/usd',
    authenticated: false,
    status: 401,
    code: 'woocommerce_rest_cannot_view',
    message: VIEW,
  },
  {
    name: 'anonymous gateway update with a bad arg: args are validated first',
    method: 'PUT',
    path: '/payment_gateways/bacs',
    body: { enabled: 'maybe' },
    authenticated: false,
    status: 400,
    code: 'rest_invalid_param',
  },

  // --- payment gateway args
  {
    name: 'gateway enabled not a boolean',
    method: 'PUT',
    path: '/payment_gateways/bacs',
    body: { enabled: 'maybe' },
    status: 400,
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): enabled',
    check: (json) => expect(json.data.params).toEqual({ enabled: 'enabled is not of type boolean.' }),
  },
  {
    name: 'gateway order not an integer',
    method: 'PUT',
    path: '/payment_gateways/bacs',
    body: { order: 'first' },
    status: 400,
    code: 'rest_invalid_param',
    check: (json) => expect(json.data.params.order).toBe('order is not of type integer.'),
  },
  {
    name: 'gateway settings not an object, title not a string: reported together',
    method: 'PUT',
    path: '/payment_gateways/cod',
    body: { settings: 'x', title: 5 },
    status: 400,
    code: 'rest_invalid_param',
    check: (json) =>
      expect(json.data.params).toEqual({
        settings: 'settings is not of type object.',
        title: 'title is not of type string.',
      }),
  },
  {
    name: 'gateway list with a bad context',
    path: '/payment_gateways?context=everything',
    status: 400,
    code: 'rest_invalid_param',
    check: (json) => expect(json.data.params.context).toBe('context is not one of view and edit.'),
  },
  {
    name: 'unknown gateway',
    method: 'PUT',
    path: '/payment_gateways/stripe',
    body: { enabled: true },
    status: 404,
    code: 'woocommerce_rest_payment_gateway_invalid',
    message: 'Resource does not exist.',
  },

  // --- routes that do not exist
  {
    name: 'create a gateway',
    method: 'POST',
    path: '/payment_gateways',
    body: {},
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'delete a gateway',
    method: 'DELETE',
    path: '/payment_gateways/bacs',
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'delete a setting',
    method: 'DELETE',
    path: '/settings/general/woocommerce_currency',
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'a setting id with a dot',
    path: '/settings/general/woocommerce.currency',
    status: 404,
    code: 'rest_no_route',
  },
  {
    name: 'a 4-letter currency code',
    path: '/data/currencies/EURO',
    status: 404,
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
  },

  // --- settings lookups and values
  {
    name: 'GET /settings/batch reads a group named "batch"',
    path: '/settings/batch',
    status: 404,
    code: 'rest_setting_setting_group_invalid',
    message: 'Invalid setting group.',
  },
  {
    name: 'setting id "0" is empty() in PHP',
    path: '/settings/general/0',
    status: 404,
    code: 'rest_setting_setting_invalid',
    message: 'Invalid setting.',
  },
  {
    name: 'checkbox given 1 (PHP 8: 1 == "yes" is false, and 1 is not empty)',
    method: 'PUT',
    path: '/settings/general/woocommerce_calc_taxes',
    body: { value: 1 },
    status: 400,
    code: 'rest_setting_value_invalid',
    message: 'An invalid setting value was passed.',
  },
  {
    name: 'select given an object: array_key_exists() TypeError, a critical error',
    method: 'PUT',
    path: '/settings/general/woocommerce_currency',
    body: { value: { code: 'EUR' } },
    status: 500,
    code: 'internal_server_error',
  },
  {
    name: 'malformed JSON body',
    method: 'PUT',
    path: '/settings/general/woocommerce_currency',
    body: '{"value":',
    status: 400,
    code: 'rest_invalid_json',
  },
  {
    name: 'batch over the limit',
    method: 'POST',
    path: '/settings/general/batch',
    body: { update: Array.from({ length: 101 }, () => ({ id: 'woocommerce_store_city', value: 'x' })) },
    status: 413,
    code: 'woocommerce_rest_request_entity_too_large',
    message: 'Unable to accept more than 100 items for this request.',
  },

  // --- data lookups
  {
    name: 'unknown continent',
    path: '/data/continents/zz',
    status: 404,
    code: 'woocommerce_rest_data_invalid_location',
    message: 'There are no locations matching these parameters.',
  },
  {
    name: 'unknown currency',
    path: '/data/currencies/zzz',
    status: 404,
    code: 'woocommerce_rest_data_invalid_currency',
    message: 'There are no currencies matching these parameters.',
  },
];

describe('settings, gateways and data: bad input', () => {
  it.each(cases)('$name → $status $code', async (c) => {
    const res = await call(c);
    expectWcError(res, c.status, c.code);
    if (c.message !== undefined) expect(res.json.message).toBe(c.message);
    c.check?.(res.json);
  });

  it('a settings batch of only creates and deletes: invalid-method (405) per item, still 200', async () => {
    const res = await call({
      method: 'POST',
      path: '/settings/general/batch',
      body: { create: [{ id: 'x' }], delete: [0, 7] },
    });
    expect(res.status).toBe(200);
    const notImplemented = (method: string) => ({
      code: 'invalid-method',
      message: `Method 'WC_REST_Setting_Options_Controller::${method}' not implemented. Must be overridden in subclass.`,
      data: { status: 405 },
    });
    expect(res.json).toEqual({
      create: [{ id: 0, error: notImplemented('create_item') }],
      delete: [{ id: 7, error: notImplemented('delete_item') }],
    });
    // With any update in it, the group batch sends only the updates on (WC_REST_Setting_Options_V2_Controller::batch_items()).
    const mixed = await call({
      method: 'POST',
      path: '/settings/general/batch',
      body: { create: [{}], update: [{ id: 'woocommerce_store_city', value: 'Porto' }] },
    });
    expect(Object.keys(mixed.json)).toEqual(['update']);
  });

  it('the store is unchanged by the refused calls', async () => {
    const currency = await call({ path: '/settings/general/woocommerce_currency' });
    expect(currency.json.value).toBe('USD');
    const bacs = await call({ path: '/payment_gateways/bacs' });
    expect(bacs.json).toMatchObject({ enabled: false, order: '' });
  });
});
