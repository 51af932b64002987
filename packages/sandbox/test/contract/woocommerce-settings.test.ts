/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2 against the emulator's settings,
 * payment gateway and data routes, over each transport, as it would run against a real WooCommerce store.
 *
 * Expected behaviour follows the PHP sources (woocommerce/woocommerce, plugins/woocommerce/includes/):
 * - rest-api/Controllers/Version3/class-wc-rest-settings-controller.php and Version2/class-wc-rest-settings-v2-controller.php
 *   (groups: wp_parse_args() defaults, sub_groups, `_links.options`; /settings/batch),
 * - Version3/class-wc-rest-setting-options-controller.php over Version2/...-setting-options-v2-controller.php
 *   (get_group_settings(), get_setting() adds group_id, is_setting_type_valid(), update_item()),
 * - Version3/class-wc-rest-controller.php validate_setting_{select,checkbox,multiselect,text}_field(),
 * - class-wc-register-wp-admin-settings.php register_setting() (label/description/tip), admin/settings/class-wc-settings-general.php,
 *   class-wc-settings-products.php, views/settings-tax.php (the fields and their defaults),
 * - Version3/class-wc-rest-payment-gateways-controller.php over V2 (get_settings(), update_item()),
 *   gateways/{bacs,cheque,cod} init_form_fields(),
 * - Version3/class-wc-rest-data-{,continents-,countries-,currencies-}controller.php and i18n/*.php.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true, queryStringAuth: false },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false, queryStringAuth: false },
] as const;

describe.each(transports)('official client over $name: settings, payment gateways, data', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({ https: transport.https }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('lists the setting groups with the v2 defaults and an options link', async () => {
    const res = await api.get('settings');
    expect(res.status).toBe(200);
    const ids = res.data.map((g: any) => g.id);
    expect(ids.slice(0, 3)).toEqual(['general', 'products', 'tax']);
    const general = res.data[0];
    expect(general).toEqual({
      id: 'general',
      label: 'General',
      description: '',
      parent_id: '',
      sub_groups: [],
      _links: { options: [{ href: `${sandbox.url}/wp-json/wc/v3/settings/general` }] },
    });
  });

  it('general: serves only API setting types, with register_setting() labels, tips and defaults', async () => {
    const res = await api.get('settings/general');
    expect(res.status).toBe(200);
    const byId = new Map<string, any>(res.data.map((s: any) => [s.id, s]));
    // Section rows ('title'/'sectionend', e.g. store_address) are registered but never listed.
    expect(byId.has('store_address')).toBe(false);
    for (const s of res.data) expect(s.type).not.toMatch(/^(title|sectionend|single_select_country)$/);
    for (const id of [
      'woocommerce_store_address',
      'woocommerce_default_country',
      'woocommerce_allowed_countries',
      'woocommerce_calc_taxes',
      'woocommerce_enable_coupons',
      'woocommerce_calc_discounts_sequentially',
      'woocommerce_currency',
      'woocommerce_currency_pos',
      'woocommerce_price_thousand_sep',
      'woocommerce_price_decimal_sep',
      'woocommerce_price_num_decimals',
    ]) {
      expect(byId.has(id), id).toBe(true);
    }
    const address = byId.get('woocommerce_store_address');
    expect(address).toMatchObject({
      label: 'Address line 1',
      description: 'The street address for your business location.',
      type: 'text',
      default: '',
      tip: 'The street address for your business location.',
      value: '',
    });
    // get_items() goes through get_group_settings(), which never adds group_id (only get_setting() does).
    expect(address).not.toHaveProperty('group_id');
    // single_select_country becomes a select of 'CC:STATE' => 'Country - State' (or the bare country).
    const country = byId.get('woocommerce_default_country');
    expect(country.type).toBe('select');
    expect(country.value).toBe('US:CA');
    expect(country.options['US:CA']).toBe('United States (US) - California');
    expect(country.options.AF).toBe('Afghanistan');
    // multi_select_countries becomes a multiselect of every country; the checkbox without a title has label ''.
    expect(byId.get('woocommerce_all_except_countries')).toMatchObject({ type: 'multiselect', value: '' });
    expect(byId.get('woocommerce_calc_discounts_sequentially')).toMatchObject({
      label: '',
      type: 'checkbox',
    });
    expect(byId.get('woocommerce_price_num_decimals')).toMatchObject({
      type: 'number',
      default: '2',
      value: '2',
    });
  });

  it('get one setting: group_id added, `_links` self and collection', async () => {
    const res = await api.get('settings/general/woocommerce_currency');
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: 'woocommerce_currency',
      label: 'Currency',
      type: 'select',
      default: 'USD',
      value: 'USD',
      group_id: 'general',
    });
    expect(res.data.options.EUR).toBe('Euro (&euro;) — EUR');
    expect(res.data._links.self[0].href).toBe(
      `${sandbox.url}/wp-json/wc/v3/settings/general/woocommerce_currency`,
    );
  });

  it('update a select: stored, served back, and honoured by /data/currencies/current; bad value is 400', async () => {
    const res = await api.put('settings/general/woocommerce_currency', { value: 'EUR' });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: 'woocommerce_currency', value: 'EUR', group_id: 'general' });
    expect((await api.get('settings/general/woocommerce_currency')).data.value).toBe('EUR');
    const current = await api.get('data/currencies/current');
    expect(current.data).toMatchObject({ code: 'EUR', name: 'Euro', symbol: '&euro;' });

    // validate_setting_select_field(): a value that is not an option key.
    const bad = await failure(api.put('settings/general/woocommerce_currency', { value: 'XXX' }));
    expect(bad.status).toBe(400);
    expect(bad.data).toEqual({
      code: 'rest_setting_value_invalid',
      message: 'An invalid setting value was passed.',
      data: { status: 400 },
    });
    await api.put('settings/general/woocommerce_currency', { value: 'USD' });
  });

  it('checkbox and text settings follow validate_setting_checkbox_field() / validate_setting_text_field()', async () => {
    const yes = await api.put('settings/general/woocommerce_calc_taxes', { value: 'yes' });
    expect(yes.data.value).toBe('yes');
    // An empty value falls back to the field's default.
    const empty = await api.put('settings/general/woocommerce_calc_taxes', { value: '' });
    expect(empty.data.value).toBe('no');
    const bad = await failure(api.put('settings/general/woocommerce_calc_taxes', { value: 'maybe' }));
    expect(bad.status).toBe(400);
    expect(bad.data.code).toBe('rest_setting_value_invalid');
    const text = await api.post('settings/general/woocommerce_store_city', { value: '  Lisbon ' });
    expect(text.data.value).toBe('Lisbon');
  });

  it('tax group: the fields of views/settings-tax.php with their defaults', async () => {
    const res = await api.get('settings/tax');
    const byId = new Map<string, any>(res.data.map((s: any) => [s.id, s]));
    expect(byId.get('woocommerce_prices_include_tax')).toMatchObject({
      type: 'radio',
      default: 'no',
      value: 'no',
    });
    expect(byId.get('woocommerce_tax_based_on')).toMatchObject({ type: 'select', value: 'shipping' });
    expect(byId.get('woocommerce_shipping_tax_class')).toMatchObject({ value: 'inherit' });
    expect(byId.get('woocommerce_shipping_tax_class').options).toMatchObject({
      inherit: expect.any(String),
      '': 'Standard',
    });
    expect(byId.get('woocommerce_tax_display_cart')).toMatchObject({ default: 'excl' });
    expect(byId.get('woocommerce_tax_total_display')).toMatchObject({ default: 'itemized' });
    for (const id of [
      'woocommerce_tax_round_at_subtotal',
      'woocommerce_tax_classes',
      'woocommerce_price_display_suffix',
    ]) {
      expect(byId.has(id), id).toBe(true);
    }
  });

  it('batch: group batch merges the URL group; /settings/batch takes group_id per item; failures per item', async () => {
    const res = await api.post('settings/general/batch', {
      update: [
        { id: 'woocommerce_price_thousand_sep', value: '.' },
        { id: 'woocommerce_currency_pos', value: 'middle' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.data.update[0]).toMatchObject({
      id: 'woocommerce_price_thousand_sep',
      value: '.',
      group_id: 'general',
    });
    expect(res.data.update[1]).toEqual({
      id: 'woocommerce_currency_pos',
      error: {
        code: 'rest_setting_value_invalid',
        message: 'An invalid setting value was passed.',
        data: { status: 400 },
      },
    });
    const cross = await api.post('settings/batch', {
      update: [
        { group_id: 'tax', id: 'woocommerce_prices_include_tax', value: 'yes' },
        { group_id: 'nope', id: 'x', value: '1' },
      ],
    });
    expect(cross.data.update[0]).toMatchObject({ group_id: 'tax', value: 'yes' });
    expect(cross.data.update[1]).toEqual({
      id: 'x',
      error: {
        code: 'rest_setting_setting_group_invalid',
        message: 'Invalid setting group.',
        data: { status: 404 },
      },
    });
    expect((await api.get('settings/tax/woocommerce_prices_include_tax')).data.value).toBe('yes');
  });

  it('unknown group, unknown setting and section rows are 404s with the controller codes', async () => {
    const group = await failure(api.get('settings/nope'));
    expect([group.status, group.data.code, group.data.message]).toEqual([
      404,
      'rest_setting_setting_group_invalid',
      'Invalid setting group.',
    ]);
    const setting = await failure(api.get('settings/general/nope'));
    expect([setting.status, setting.data.code, setting.data.message]).toEqual([
      404,
      'rest_setting_setting_invalid',
      'Invalid setting.',
    ]);
    // A 'title' row is registered (it has an id) but is_setting_type_valid() refuses it.
    expect((await failure(api.get('settings/general/store_address'))).data.code).toBe(
      'rest_setting_setting_invalid',
    );
    expect((await failure(api.put('settings/general/nope', { value: 'x' }))).status).toBe(404);
  });

  it('payment gateways: the fresh install’s bacs, cheque and cod with their form fields', async () => {
    const res = await api.get('payment_gateways');
    expect(res.status).toBe(200);
    expect(res.data.map((g: any) => g.id)).toEqual(['bacs', 'cheque', 'cod']);
    const cod = res.data[2];
    expect(cod).toMatchObject({
      title: 'Cash on delivery',
      description: 'Pay with cash upon delivery.',
      order: '',
      enabled: false,
      method_title: 'Cash on delivery',
      method_supports: ['products'],
    });
    // get_settings() leaves out `enabled` and `description` (served at the top level).
    expect(Object.keys(cod.settings)).toEqual([
      'title',
      'instructions',
      'enable_for_methods',
      'enable_for_virtual',
    ]);
    expect(cod.settings.enable_for_virtual).toEqual({
      id: 'enable_for_virtual',
      label: 'Accept COD if the order is virtual',
      description: '',
      type: 'checkbox',
      value: 'yes',
      default: 'yes',
      tip: '',
      placeholder: '',
    });
    expect(Object.keys(res.data[0].settings)).toEqual(['title', 'instructions']);
  });

  it('payment gateway update: enabled, title, order and settings persist; invalid value is 400', async () => {
    const res = await api.put('payment_gateways/cheque', {
      enabled: true,
      title: 'Pay by cheque',
      order: 1,
      settings: { instructions: 'Post it to us.' },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: 'cheque', enabled: true, title: 'Pay by cheque', order: 1 });
    expect(res.data.settings.instructions.value).toBe('Post it to us.');
    const again = await api.get('payment_gateways/cheque');
    expect(again.data).toMatchObject({ enabled: true, title: 'Pay by cheque', order: 1 });
    // The saved position moves cheque ahead of the gateways still at the end (999+).
    expect((await api.get('payment_gateways')).data.map((g: any) => g.id)).toEqual(['cheque', 'bacs', 'cod']);

    const bad = await failure(
      api.put('payment_gateways/cod', { settings: { enable_for_virtual: 'sometimes' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.data.code).toBe('rest_setting_value_invalid');
    const missing = await failure(api.get('payment_gateways/stripe'));
    expect([missing.status, missing.data.code, missing.data.message]).toEqual([
      404,
      'woocommerce_rest_payment_gateway_invalid',
      'Resource does not exist.',
    ]);
  });

  it('data: index, continents, countries and currencies', async () => {
    const index = await api.get('data');
    expect(index.data.map((d: any) => d.slug)).toEqual(['continents', 'countries', 'currencies']);

    const continents = await api.get('data/continents');
    expect(continents.data.map((c: any) => c.code)).toEqual(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);
    const na = await api.get('data/continents/na');
    expect(na.data.name).toBe('North America');
    const us = na.data.countries.find((c: any) => c.code === 'US');
    // locale-info.php merges over the country: its `name` is the currency's (woocommerce/woocommerce#31853).
    expect(us).toMatchObject({
      currency_code: 'USD',
      currency_pos: 'left',
      num_decimals: 2,
      name: 'United States (US) dollar',
    });
    expect(us.states).toContainEqual({ code: 'CA', name: 'California' });

    const countries = await api.get('data/countries');
    expect(countries.data.length).toBe(249);
    const de = await api.get('data/countries/de');
    expect(de.data).toMatchObject({ code: 'DE', name: 'Germany' });
    expect(de.data._links.self[0].href).toBe(`${sandbox.url}/wp-json/wc/v3/data/countries/de`);
    const nowhere = await failure(api.get('data/countries/zz'));
    expect([nowhere.status, nowhere.data.code]).toEqual([404, 'woocommerce_rest_data_invalid_location']);

    const currencies = await api.get('data/currencies');
    expect(currencies.data.find((c: any) => c.code === 'GBP')).toMatchObject({
      name: 'Pound sterling',
      symbol: '&pound;',
    });
    const jpy = await api.get('data/currencies/jpy');
    expect(jpy.data).toMatchObject({ code: 'JPY', name: 'Japanese yen', symbol: '&yen;' });
    const unknown = await failure(api.get('data/currencies/xyz'));
    expect([unknown.status, unknown.data.code, unknown.data.message]).toEqual([
      404,
      'woocommerce_rest_data_invalid_currency',
      'There are no currencies matching these parameters.',
    ]);
  });
});
