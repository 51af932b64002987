/**
 * Settings, payment gateways and data over raw HTTP: the details a client sees beyond the contract suite.
 * Sources (woocommerce/woocommerce, plugins/woocommerce/includes/):
 * - WC_REST_Setting_Options_V2_Controller::get_group_settings(), update_item(), filter_setting(), and the v3
 *   subclass's get_setting() (group_id) and single_select_page/country conversions;
 * - WC_REST_Controller::validate_setting_checkbox_field() / validate_setting_multiselect_field() and
 *   WC_Admin_Settings::save_fields() (what update_option() then stores);
 * - views/settings-tax.php (the shipping tax class field exists only while wc_shipping_enabled());
 * - WC_REST_Payment_Gateways_V2_Controller::update_item() (woocommerce_<id>_settings, woocommerce_gateway_order),
 *   WC_Payment_Gateways::init() (saved positions first, the rest from 999 on).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { currencySymbol, currencySymbolHtml } from '../../src/store/data/options.js';
import { storeApi } from '../helpers/http.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
});
afterAll(async () => {
  await sandbox?.close();
});

const api = (method: string, path: string, body?: unknown) => storeApi(sandbox, method, path, body);

describe('setting options', () => {
  it('answers in the controller’s key order, with group_id only on single settings', async () => {
    const one = await api('GET', '/settings/general/woocommerce_currency_pos');
    expect(Object.keys(one.json)).toEqual([
      'id',
      'label',
      'description',
      'type',
      'default',
      'options',
      'tip',
      'value',
      'group_id',
      '_links',
    ]);
    expect(one.json._links).toEqual({
      self: [{ href: `${sandbox.url}/wp-json/wc/v3/settings/general/woocommerce_currency_pos` }],
      collection: [{ href: `${sandbox.url}/wp-json/wc/v3/settings/general` }],
    });
    const list = await api('GET', '/settings/general');
    expect(list.json.every((s: any) => !('group_id' in s))).toBe(true);
  });

  it('PUT, POST and PATCH all update (WP_REST_Server::EDITABLE)', async () => {
    for (const [method, value] of [
      ['PUT', 'Street 1'],
      ['POST', 'Street 2'],
      ['PATCH', 'Street 3'],
    ] as const) {
      const res = await api(method, '/settings/general/woocommerce_store_address', { value });
      expect(res.status).toBe(200);
      expect(res.json.value).toBe(value);
    }
    expect((await api('GET', '/settings/general/woocommerce_store_address')).json.value).toBe('Street 3');
  });

  it('checkbox: true passes validation (a loose in_array match) but save_fields() stores "no"', async () => {
    const res = await api('PUT', '/settings/products/woocommerce_manage_stock', { value: true });
    expect(res.status).toBe(200);
    expect(res.json.value).toBe(true);
    expect((await api('GET', '/settings/products/woocommerce_manage_stock')).json.value).toBe('no');
    await api('PUT', '/settings/products/woocommerce_manage_stock', { value: 'yes' });
  });

  it('multiselect: unknown countries are dropped, an empty value clears the list', async () => {
    const res = await api('PUT', '/settings/general/woocommerce_specific_allowed_countries', {
      value: ['PT', 'XX', 'ES'],
    });
    expect(res.json.value).toEqual(['PT', 'ES']);
    expect((await api('GET', '/settings/general/woocommerce_specific_allowed_countries')).json.value).toEqual(
      ['PT', 'ES'],
    );
    const cleared = await api('PUT', '/settings/general/woocommerce_specific_allowed_countries', {
      value: '',
    });
    expect(cleared.json.value).toEqual([]);
    const notList = await api('PUT', '/settings/general/woocommerce_specific_allowed_countries', {
      value: 'PT',
    });
    expect([notList.status, notList.json.code]).toEqual([400, 'rest_setting_value_invalid']);
  });

  it('a missing value sets a text setting to "" (validate_setting_text_field() takes null as "")', async () => {
    await api('PUT', '/settings/tax/woocommerce_price_display_suffix', { value: 'incl. VAT' });
    const res = await api('PUT', '/settings/tax/woocommerce_price_display_suffix', {});
    expect(res.json.value).toBe('');
  });

  it('the shop page picker is a select with no options on a site without pages', async () => {
    const res = await api('GET', '/settings/products/woocommerce_shop_page_id');
    expect(res.json).toMatchObject({ type: 'select', value: '' });
    expect(res.json).not.toHaveProperty('options');
    const set = await api('PUT', '/settings/products/woocommerce_shop_page_id', { value: '5' });
    expect([set.status, set.json.code]).toEqual([400, 'rest_setting_value_invalid']);
  });

  it('disabling shipping removes the shipping tax class field from the tax group', async () => {
    const before = await api('GET', '/settings/tax');
    expect(before.json.some((s: any) => s.id === 'woocommerce_shipping_tax_class')).toBe(true);
    await api('PUT', '/settings/general/woocommerce_ship_to_countries', { value: 'disabled' });
    const after = await api('GET', '/settings/tax');
    expect(after.json.some((s: any) => s.id === 'woocommerce_shipping_tax_class')).toBe(false);
    const gone = await api('GET', '/settings/tax/woocommerce_shipping_tax_class');
    expect([gone.status, gone.json.code]).toEqual([404, 'rest_setting_setting_invalid']);
    await api('PUT', '/settings/general/woocommerce_ship_to_countries', { value: '' });
  });

  it('groups list every settings page; pages without emulated fields answer group_invalid', async () => {
    const groups = await api('GET', '/settings');
    expect(groups.json.map((g: any) => g.id)).toEqual([
      'general',
      'products',
      'tax',
      'shipping',
      'checkout',
      'account',
      'email',
      'integration',
      'site-visibility',
      'advanced',
    ]);
    const advanced = await api('GET', '/settings/advanced');
    expect([advanced.status, advanced.json.code]).toEqual([404, 'rest_setting_setting_group_invalid']);
  });

  it('shipping: the options section registered twice (default section and "options"), updates hit both', async () => {
    const list = await api('GET', '/settings/shipping');
    expect(list.json.map((s: any) => s.id)).toEqual([
      'woocommerce_enable_shipping_calc',
      'woocommerce_shipping_cost_requires_address',
      'woocommerce_ship_to_destination',
      'woocommerce_shipping_debug_mode',
      'woocommerce_enable_shipping_calc',
      'woocommerce_shipping_cost_requires_address',
      'woocommerce_ship_to_destination',
      'woocommerce_shipping_debug_mode',
    ]);
    const set = await api('PUT', '/settings/shipping/woocommerce_ship_to_destination', {
      value: 'billing_only',
    });
    expect(set.json).toMatchObject({ type: 'radio', default: 'billing', value: 'billing_only' });
    const again = await api('GET', '/settings/shipping');
    expect(
      again.json.filter((s: any) => s.id === 'woocommerce_ship_to_destination').map((s: any) => s.value),
    ).toEqual(['billing_only', 'billing_only']);
  });
});

describe('account group', () => {
  it('serves the checkout and privacy fields; relative date selectors are registered but never served', async () => {
    const list = await api('GET', '/settings/account');
    const ids = list.json.map((s: any) => s.id);
    expect(ids).toContain('woocommerce_enable_guest_checkout');
    expect(ids).toContain('woocommerce_checkout_privacy_policy_text');
    // The block checkout (a new store's default) drops the username option.
    expect(ids).not.toContain('woocommerce_registration_generate_username');
    expect(ids).not.toContain('woocommerce_trash_pending_orders');
    const erasure = list.json.find((s: any) => s.id === 'woocommerce_erasure_request_removes_order_data');
    expect(erasure.tip).toContain(`${sandbox.url}/wp-admin/erase-personal-data.php`);
    const retention = await api('GET', '/settings/account/woocommerce_trash_pending_orders');
    expect([retention.status, retention.json.code]).toEqual([404, 'rest_setting_setting_invalid']);
    const guest = await api('PUT', '/settings/account/woocommerce_enable_guest_checkout', { value: 'no' });
    expect(guest.json).toMatchObject({ value: 'no', default: 'yes', group_id: 'account' });
  });
});

describe('payment gateways', () => {
  it('order: absint() of the request, saved positions sort before gateways without one', async () => {
    const res = await api('PUT', '/payment_gateways/cod', { order: -2 });
    expect(res.json.order).toBe(2);
    const ids = (await api('GET', '/payment_gateways')).json.map((g: any) => g.id);
    expect(ids).toEqual(['cod', 'bacs', 'cheque']);
  });

  it('settings: only form fields are read; the answer shows title/description/enabled as they were', async () => {
    const res = await api('PUT', '/payment_gateways/bacs', {
      settings: {
        description: 'Pay us by wire.',
        enabled: 'yes',
        nonsense: 'ignored',
        instructions: ' IBAN below ',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.settings.instructions.value).toBe('IBAN below');
    expect(res.json.settings).not.toHaveProperty('nonsense');
    // update_item() sets $gateway->description / ->enabled only for the top-level fields, so this response
    // still shows the gateway as it was built; the saved settings show from the next request on.
    expect(res.json).toMatchObject({
      enabled: false,
      description: expect.stringMatching(/^Make your payment/),
    });
    const again = await api('GET', '/payment_gateways/bacs');
    expect(again.json).toMatchObject({ description: 'Pay us by wire.', enabled: true });
  });

  it('a failed setting saves nothing from the same request', async () => {
    const bad = await api('PUT', '/payment_gateways/cod', {
      title: 'COD!',
      settings: { instructions: 'Cash please', enable_for_virtual: 'x' },
    });
    expect([bad.status, bad.json.code]).toEqual([400, 'rest_setting_value_invalid']);
    const cod = await api('GET', '/payment_gateways/cod');
    expect(cod.json.title).toBe('Cash on delivery');
    expect(cod.json.settings.instructions.value).toBe('Pay with cash upon delivery.');
  });
});

describe('data', () => {
  it('continent countries carry locale defaults; countries without locale info keep their name', async () => {
    const an = await api('GET', '/data/continents/AN');
    expect(an.json.countries.find((c: any) => c.code === 'AQ')).toEqual({
      code: 'AQ',
      name: 'Antarctica',
      states: [],
    });
    const eu = await api('GET', '/data/continents/eu');
    const de = eu.json.countries.find((c: any) => c.code === 'DE');
    expect(de).toMatchObject({
      currency_code: 'EUR',
      decimal_sep: ',',
      weight_unit: 'kg',
      dimension_unit: 'cm',
    });
    expect(eu.json._links.self[0].href).toBe(`${sandbox.url}/wp-json/wc/v3/data/continents/eu`);
  });

  it('a currency without a symbol answers an empty symbol', async () => {
    const chw = await api('GET', '/data/currencies/chw');
    expect(chw.json).toMatchObject({ code: 'CHW', name: 'WIR franc', symbol: '' });
  });
});

describe('currency helpers for orders', () => {
  // WC_REST_Orders_Controller sends html_entity_decode( get_woocommerce_currency_symbol() ) as currency_symbol.
  it('currencySymbol() decodes get_woocommerce_currency_symbol(); currencySymbolHtml() keeps the entities', () => {
    expect(currencySymbol('USD')).toBe('$');
    expect(currencySymbol('EUR')).toBe('€');
    expect(currencySymbol('AED')).toBe('د.إ');
    expect(currencySymbol('BDT')).toBe('৳\u00a0');
    expect(currencySymbol('CHW')).toBe('');
    expect(currencySymbolHtml('USD')).toBe('&#36;');
  });
});

describe('persistence', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'x-sandbox-settings-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('settings and gateway settings survive a restart from the data file', async () => {
    const file = join(dir, 'store.json');
    const first = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
    await storeApi(first, 'PUT', '/settings/general/woocommerce_currency', { value: 'JPY' });
    await storeApi(first, 'PUT', '/payment_gateways/cod', { enabled: true, order: 4 });
    await first.close();

    const second = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
    try {
      expect((await storeApi(second, 'GET', '/settings/general/woocommerce_currency')).json.value).toBe(
        'JPY',
      );
      expect((await storeApi(second, 'GET', '/data/currencies/current')).json.code).toBe('JPY');
      expect((await storeApi(second, 'GET', '/payment_gateways/cod')).json).toMatchObject({
        enabled: true,
        order: 4,
      });
    } finally {
      await second.close();
    }
  });
});
