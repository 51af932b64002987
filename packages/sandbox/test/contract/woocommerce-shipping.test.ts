/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2 against the emulator's shipping
 * routes, as it would run against a real WooCommerce store (REST API v3).
 *
 * Expected behaviour follows the WooCommerce plugin code: WC_REST_Shipping_Zones_V2_Controller,
 * WC_REST_Shipping_Zone_Locations_V2_Controller, WC_REST_Shipping_Zone_Methods_V2_Controller,
 * WC_REST_Shipping_Methods_V2_Controller, WC_REST_Shipping_Zones_Controller_Base, WC_Shipping_Zone and
 * WC_Shipping_Zone_Data_Store (plugins/woocommerce/includes/...), and the method classes' form fields
 * (includes/shipping/{flat-rate,free-shipping,local-pickup}).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false },
] as const;

describe.each(transports)('official client, shipping, over $name', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({ https: transport.https }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('zone 0 is always listed first; create (201 + Location), get, update, delete with force', async () => {
    const before = await api.get('shipping/zones');
    expect(before.status).toBe(200);
    // WC_REST_Shipping_Zones_V2_Controller::get_items(): array_unshift() of zone 0, one page.
    expect(before.data[0]).toMatchObject({
      id: 0,
      name: 'Locations not covered by your other zones',
      order: 0,
    });
    expect(before.headers['x-wp-totalpages']).toBe('1');

    const created = await api.post('shipping/zones', { name: 'Domestic', order: 2 });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/shipping/zones/${created.data.id}$`));
    expect(created.data).toMatchObject({ name: 'Domestic', order: 2 });
    expect(Object.keys(created.data._links).sort()).toEqual(['collection', 'describedby', 'self']);
    expect(created.data._links.describedby[0].href).toMatch(/\/shipping\/zones\/\d+\/locations$/);

    const first = await api.post('shipping/zones', { name: 'Europe', order: 1 });
    const listed = await api.get('shipping/zones');
    // get_zones(): ORDER BY zone_order ASC, zone_id ASC, after zone 0.
    expect(listed.data.map((z: any) => z.name)).toEqual([
      'Locations not covered by your other zones',
      'Europe',
      'Domestic',
    ]);
    expect(listed.headers['x-wp-total']).toBe('3');

    const updated = await api.put(`shipping/zones/${created.data.id}`, { name: '  Home <b>market</b> ' });
    // set_zone_name() runs wc_clean(): tags stripped, trimmed.
    expect(updated.data).toMatchObject({ id: created.data.id, name: 'Home market', order: 2 });
    expect((await api.get(`shipping/zones/${created.data.id}`)).data.name).toBe('Home market');

    // delete_item(): no trash for zones (`rest_trash_not_supported`, not the woocommerce_ prefixed code).
    const refused = await failure(api.delete(`shipping/zones/${first.data.id}`));
    expect(refused.status).toBe(501);
    expect(refused.data).toMatchObject({
      code: 'rest_trash_not_supported',
      message: 'Shipping zones do not support trashing.',
    });
    const deleted = await api.delete(`shipping/zones/${first.data.id}`, { force: true });
    expect(deleted.data).toMatchObject({ id: first.data.id, name: 'Europe' });
    const gone = await failure(api.get(`shipping/zones/${first.data.id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({
      code: 'woocommerce_rest_shipping_zone_invalid',
      message: 'Resource does not exist.',
    });
  });

  it('zone 0 cannot be edited (403) and survives a forced delete', async () => {
    const edit = await failure(api.put('shipping/zones/0', { name: 'World' }));
    expect(edit.status).toBe(403);
    expect(edit.data).toMatchObject({
      code: 'woocommerce_rest_shipping_zone_invalid_zone',
      message: 'The "locations not covered by your other zones" zone cannot be updated.',
    });
    const locations = await failure(api.put('shipping/zones/0/locations', [{ code: 'US' }]));
    expect(locations.status).toBe(403);
    expect(locations.data.code).toBe('woocommerce_rest_shipping_zone_locations_invalid_zone');
    // WC_Shipping_Zone_Data_Store::delete() only deletes a truthy zone id.
    const del = await api.delete('shipping/zones/0', { force: true });
    expect(del.data).toMatchObject({ id: 0 });
    expect((await api.get('shipping/zones/0')).data.name).toBe('Locations not covered by your other zones');
  });

  it('locations: PUT replaces the list; bad entries are skipped, type defaults to country', async () => {
    const zone = (await api.post('shipping/zones', { name: 'Locations' })).data;
    expect((await api.get(`shipping/zones/${zone.id}/locations`)).data).toEqual([]);
    const put = await api.put(`shipping/zones/${zone.id}/locations`, [
      { code: 'US' },
      { code: 'US:CA', type: 'state' },
      { code: ' 90210...90299 ', type: 'postcode' },
      { code: 'EU', type: 'continent' },
      { code: 'XX', type: 'planet' },
      { type: 'country' },
    ]);
    expect(put.status).toBe(200);
    expect(put.data.map((l: any) => [l.code, l.type])).toEqual([
      ['US', 'country'],
      ['US:CA', 'state'],
      ['90210...90299', 'postcode'],
      ['EU', 'continent'],
    ]);
    expect(put.data[0]._links.describes[0].href).toMatch(new RegExp(`/shipping/zones/${zone.id}$`));
    const replaced = await api.put(`shipping/zones/${zone.id}/locations`, [{ code: 'CA' }]);
    expect(replaced.data.map((l: any) => l.code)).toEqual(['CA']);
  });

  it('methods: add flat rate (200, enabled, order count + 1), update settings, delete with force', async () => {
    const zone = (await api.post('shipping/zones', { name: 'Methods' })).data;
    const flat = await api.post(`shipping/zones/${zone.id}/methods`, { method_id: 'flat_rate' });
    // create_item() never sets 201.
    expect(flat.status).toBe(200);
    expect(flat.data).toMatchObject({
      instance_id: flat.data.id,
      title: 'Flat rate',
      order: 1,
      enabled: true,
      method_id: 'flat_rate',
      method_title: 'Flat rate',
      method_description: '<p>Lets you charge a fixed rate for shipping.</p>\n',
    });
    // get_settings(): `default` is '' when PHP's empty() holds ('0' included).
    expect(flat.data.settings.cost).toMatchObject({
      id: 'cost',
      label: 'Cost',
      type: 'text',
      value: '0',
      default: '',
    });
    expect(flat.data.settings.tax_status.options).toEqual({ taxable: 'Taxable', none: 'None' });

    const free = await api.post(`shipping/zones/${zone.id}/methods`, {
      method_id: 'free_shipping',
      enabled: false,
      settings: { requires: 'min_amount', min_amount: '50' },
    });
    expect(free.data).toMatchObject({ order: 2, enabled: false, title: 'Free shipping' });
    expect(free.data.settings.requires.value).toBe('min_amount');
    expect(free.data.settings.min_amount.value).toBe('50');

    const updated = await api.put(`shipping/zones/${zone.id}/methods/${flat.data.id}`, {
      order: 5,
      settings: { title: 'Standard', cost: '12.50', unknown_key: 'ignored' },
    });
    expect(updated.data).toMatchObject({ title: 'Standard', order: 5 });
    expect(updated.data.settings.cost.value).toBe('12.50');
    expect(updated.data.settings.tax_status.value).toBe('taxable');

    const listed = await api.get(`shipping/zones/${zone.id}/methods`);
    expect(listed.data.map((m: any) => m.method_id)).toEqual(['free_shipping', 'flat_rate']);
    expect(listed.headers['x-wp-total']).toBe('2');

    const bad = await failure(
      api.put(`shipping/zones/${zone.id}/methods/${flat.data.id}`, { settings: { tax_status: 'sometimes' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      code: 'rest_setting_value_invalid',
      message: 'An invalid setting value was passed.',
    });

    const refused = await failure(api.delete(`shipping/zones/${zone.id}/methods/${flat.data.id}`));
    expect(refused.status).toBe(501);
    expect(refused.data.message).toBe('Shipping methods do not support trashing.');
    const deleted = await api.delete(`shipping/zones/${zone.id}/methods/${flat.data.id}`, { force: true });
    expect(deleted.data.id).toBe(flat.data.id);
    const missing = await failure(api.get(`shipping/zones/${zone.id}/methods/${flat.data.id}`));
    expect(missing.status).toBe(404);
    expect(missing.data.code).toBe('woocommerce_rest_shipping_zone_method_invalid');

    const unknown = await failure(api.post(`shipping/zones/${zone.id}/methods`, { method_id: 'teleport' }));
    expect(unknown.status).toBe(500);
    expect(unknown.data).toMatchObject({
      code: 'woocommerce_rest_shipping_zone_not_created',
      message: 'Resource cannot be created.',
    });
  });

  it('zone 0 holds methods of its own', async () => {
    const pickup = await api.post('shipping/zones/0/methods', {
      method_id: 'local_pickup',
      settings: { title: 'Collect in store', cost: '2' },
    });
    expect(pickup.data).toMatchObject({ method_id: 'local_pickup', title: 'Collect in store' });
    expect(pickup.data._links.describes[0].href).toMatch(/\/shipping\/zones\/0$/);
    const listed = await api.get('shipping/zones/0/methods');
    expect(listed.data.map((m: any) => m.id)).toContain(pickup.data.id);
  });

  it('shipping_methods: the registered methods, and 404 for an unknown id', async () => {
    const list = await api.get('shipping_methods');
    expect(list.data.map((m: any) => m.id)).toEqual([
      'flat_rate',
      'free_shipping',
      'local_pickup',
      'pickup_location',
    ]);
    const one = await api.get('shipping_methods/free_shipping');
    expect(one.data).toMatchObject({
      id: 'free_shipping',
      title: 'Free shipping',
      description:
        'Free shipping is a special method which can be triggered with coupons and minimum spends.',
    });
    expect(Object.keys(one.data._links).sort()).toEqual(['collection', 'self']);
    const missing = await failure(api.get('shipping_methods/ups'));
    expect(missing.status).toBe(404);
    expect(missing.data).toMatchObject({ code: 'woocommerce_rest_shipping_method_invalid' });
  });
});
