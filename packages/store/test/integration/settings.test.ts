import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  APIError,
  BatchError,
  type Currency,
  NotFoundError,
  type PaymentGateway,
  type Setting,
  type SettingsBatchResult,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

/**
 * client.settings, client.paymentGateways and client.data against the sandbox over real sockets. The store's
 * answers follow WC_REST_Setting_Options_Controller / WC_REST_Settings_Controller (Version3 over Version2),
 * WC_REST_Payment_Gateways_Controller and WC_REST_Data_*_Controller (woocommerce/woocommerce,
 * plugins/woocommerce/includes/rest-api/Controllers/).
 */

const box = sandboxForFile({ store: { seed: 'none' } });

describe('client.settings', () => {
  it('listGroups(), list(), get(): groups, a group’s options and one option with group_id', async () => {
    const store = clientFor(box);
    const groups = await store.settings.listGroups();
    expect(groups.map((g) => g.id)).toEqual(expect.arrayContaining(['general', 'products', 'tax']));
    expect(groups[0]).toMatchObject({ id: 'general', label: 'General', parent_id: '', sub_groups: [] });

    const general = await store.settings.list('general');
    const ids = general.map((s) => s.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'woocommerce_currency',
        'woocommerce_calc_taxes',
        'woocommerce_price_num_decimals',
      ]),
    );
    const currency = await store.settings.get('general', 'woocommerce_currency');
    expect(currency).toMatchObject({ type: 'select', value: 'USD', default: 'USD', group_id: 'general' });
    expectTypeOf(currency).toEqualTypeOf<Setting>();
  });

  it('update(): the store keeps the value and /data/currencies/current follows the currency', async () => {
    const store = clientFor(box);
    const updated = await store.settings.update('general', 'woocommerce_currency', { value: 'GBP' });
    expect(updated.value).toBe('GBP');
    const current = await store.data.currentCurrency();
    expect(current).toMatchObject({ code: 'GBP', name: 'Pound sterling', symbol: '&pound;' });
    await store.settings.update('general', 'woocommerce_currency', { value: 'USD' });
  });

  it('update() with a value outside the options: 400 rest_setting_value_invalid as an APIError', async () => {
    const store = clientFor(box);
    const error = await rejection(
      store.settings.update('tax', 'woocommerce_tax_based_on', { value: 'moon' }),
    );
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 400, code: 'rest_setting_value_invalid' });
    const missing = await rejection(store.settings.get('general', 'woocommerce_nope'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: 'rest_setting_setting_invalid' });
    const group = await rejection(store.settings.list('nope'));
    expect(group).toMatchObject({ status: 404, code: 'rest_setting_setting_group_invalid' });
  });

  it('batch(): updates in one request; a failed item throws BatchError holding every result', async () => {
    const store = clientFor(box);
    const ok = await store.settings.batch('general', {
      update: [
        { id: 'woocommerce_price_decimal_sep', value: ',' },
        { id: 'woocommerce_price_thousand_sep', value: '.' },
      ],
    });
    expect(ok.update.map((s) => (s as Setting).value)).toEqual([',', '.']);
    expect(ok.failures).toEqual([]);

    const error = await rejection(
      store.settings.batch('general', {
        update: [
          { id: 'woocommerce_currency_pos', value: 'right' },
          { id: 'woocommerce_currency_pos', value: 'nowhere' },
        ],
      }),
    );
    expect(error).toBeInstanceOf(BatchError);
    const result = (error as BatchError).result as SettingsBatchResult;
    expect((result.update[0] as Setting).value).toBe('right');
    expect(result.failures).toEqual([
      {
        action: 'update',
        index: 1,
        id: 'woocommerce_currency_pos',
        error: expect.objectContaining({ code: 'rest_setting_value_invalid' }),
      },
    ]);

    const across = await store.settings.batchAcrossGroups(
      {
        update: [
          { group_id: 'tax', id: 'woocommerce_tax_display_shop', value: 'incl' },
          { group_id: 'x', id: 'y', value: '' },
        ],
      },
      { throwOnItemError: false },
    );
    expect((across.update[0] as Setting).group_id).toBe('tax');
    expect(across.failures[0]).toMatchObject({
      index: 1,
      id: 'y',
      error: { code: 'rest_setting_setting_group_invalid' },
    });
  });

  it('refuses bad ids and inputs before sending, naming the field', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const badGroup = await rejection(store.settings.list('general/../x'));
    expect(badGroup).toBeInstanceOf(ValidationError);
    expect((badGroup as ValidationError).issues[0]?.path).toBe('groupId');
    const noValue = await rejection(store.settings.update('general', 'woocommerce_currency', {} as never));
    expect((noValue as ValidationError).issues[0]?.path).toBe('value');
    const extra = await rejection(
      store.settings.update('general', 'woocommerce_currency', { value: 'EUR', valu: 'EUR' } as never),
    );
    expect((extra as ValidationError).issues[0]).toMatchObject({ path: 'valu' });
    const batchItem = await rejection(store.settings.batch('general', { update: [{ value: 'x' } as never] }));
    expect((batchItem as ValidationError).message).toContain('settings.batch update[0]');
    expect(box.store.stats().requests).toBe(0);
  });
});

describe('client.paymentGateways', () => {
  it('list(), get(), update(): enable a gateway, rename it and set its settings', async () => {
    const store = clientFor(box);
    const list = await store.paymentGateways.list();
    expect(list.map((g) => g.id)).toEqual(['bacs', 'cheque', 'cod']);
    const bacs = await store.paymentGateways.get('bacs');
    expect(bacs).toMatchObject({ enabled: false, method_title: 'Direct bank transfer', order: '' });
    expectTypeOf(bacs).toEqualTypeOf<PaymentGateway>();

    const updated = await store.paymentGateways.update('bacs', {
      enabled: true,
      title: 'Bank transfer',
      settings: { instructions: 'Use your order number as the reference.' },
    });
    expect(updated).toMatchObject({ enabled: true, title: 'Bank transfer' });
    expect((await store.paymentGateways.get('bacs')).enabled).toBe(true);

    const bad = await rejection(
      store.paymentGateways.update('cod', { settings: { enable_for_virtual: 'perhaps' } }),
    );
    expect(bad).toMatchObject({ status: 400, code: 'rest_setting_value_invalid' });
    const missing = await rejection(store.paymentGateways.get('paypal'));
    expect(missing).toMatchObject({ status: 404, code: 'woocommerce_rest_payment_gateway_invalid' });
  });

  it('refuses a bad order or unknown field before sending', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const order = await rejection(store.paymentGateways.update('cod', { order: -1 }));
    expect((order as ValidationError).issues[0]?.path).toBe('order');
    const field = await rejection(store.paymentGateways.update('cod', { enable: true } as never));
    expect((field as ValidationError).issues[0]?.path).toBe('enable');
    expect(box.store.stats().requests).toBe(0);
  });
});

describe('client.data', () => {
  it('index, continents, countries and currencies', async () => {
    const store = clientFor(box);
    expect((await store.data.index()).map((d) => d.slug)).toEqual(['continents', 'countries', 'currencies']);
    const continents = await store.data.listContinents();
    expect(continents).toHaveLength(7);
    const oceania = await store.data.getContinent('oc');
    expect(oceania.countries.map((c) => c.code)).toContain('AU');
    const countries = await store.data.listCountries();
    expect(countries.find((c) => c.code === 'CA')?.states).toContainEqual({ code: 'ON', name: 'Ontario' });
    const jp = await store.data.getCountry('jp');
    expect(jp).toMatchObject({ code: 'JP', name: 'Japan' });
    const currencies = await store.data.listCurrencies();
    expect(currencies.find((c) => c.code === 'USD')).toMatchObject({ symbol: '&#36;' });
    const eur: Currency = await store.data.getCurrency('eur');
    expect(eur).toMatchObject({ code: 'EUR', name: 'Euro', symbol: '&euro;' });
    const unknown = await rejection(store.data.getCountry('zz'));
    expect(unknown).toMatchObject({ status: 404, code: 'woocommerce_rest_data_invalid_location' });
  });

  it('refuses a malformed code before sending', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const error = await rejection(store.data.getCurrency('EURO'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('code');
    expect(box.store.stats().requests).toBe(0);
  });
});
