/**
 * client.shippingZones (with .locations and .methods) and client.shippingMethods against the sandbox over
 * real sockets. Expected behaviour follows WooCommerce's WC_REST_Shipping_Zones_V2_Controller,
 * WC_REST_Shipping_Zone_Locations_V2_Controller, WC_REST_Shipping_Zone_Methods_V2_Controller and
 * WC_REST_Shipping_Methods_V2_Controller.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  NotFoundError,
  PermissionDeniedError,
  type ShippingZone,
  type ShippingZoneMethod,
  type StoreClient,
  ValidationError,
} from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
let store: StoreClient;
beforeAll(async () => {
  box = await sandbox({ store: { seed: 'none' } });
  store = clientFor(box);
});
afterAll(() => box.close());

describe('client.shippingZones', () => {
  it('creates, reads, renames, lists (zone 0 first) and deletes zones', async () => {
    const zone = await store.shippingZones.create({ name: 'Domestic', order: 1 });
    expectTypeOf(zone).toEqualTypeOf<ShippingZone>();
    expect(zone).toMatchObject({ name: 'Domestic', order: 1 });
    expect(await store.shippingZones.get(zone.id)).toMatchObject({ id: zone.id, name: 'Domestic' });
    expect(await store.shippingZones.update(zone.id, { name: 'Home' })).toMatchObject({ name: 'Home' });

    const page = await store.shippingZones.list();
    expect(page.data.map((z) => z.id)).toEqual([0, zone.id]);
    expect(page.data[0]!.name).toBe('Locations not covered by your other zones');

    expect(await store.shippingZones.delete(zone.id)).toMatchObject({ id: zone.id });
    await expect(store.shippingZones.get(zone.id)).rejects.toMatchObject({
      status: 404,
      code: 'woocommerce_rest_shipping_zone_invalid',
    });
    await expect(store.shippingZones.get(zone.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('zone 0 is readable and has methods, but cannot be renamed', async () => {
    expect(await store.shippingZones.get(0)).toMatchObject({ id: 0, order: 0 });
    const error = await store.shippingZones.update(0, { name: 'World' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'woocommerce_rest_shipping_zone_invalid_zone' });
  });

  it('locations are replaced as a list', async () => {
    const zone = await store.shippingZones.create({ name: 'North America' });
    const set = await store.shippingZones.locations.update(zone.id, [
      { code: 'US' },
      { code: 'CA', type: 'country' },
      { code: 'US:NY', type: 'state' },
    ]);
    expect(set.map((l) => `${l.type}:${l.code}`)).toEqual(['country:US', 'country:CA', 'state:US:NY']);
    expect(await store.shippingZones.locations.get(zone.id)).toHaveLength(3);
    expect(await store.shippingZones.locations.update(zone.id, [])).toEqual([]);
  });

  it('methods: add, configure, list in order, delete', async () => {
    const zone = await store.shippingZones.create({ name: 'Methods zone' });
    const flat = await store.shippingZones.methods.create(zone.id, {
      method_id: 'flat_rate',
      settings: { title: 'Standard', cost: '7.50' },
    });
    expectTypeOf(flat).toEqualTypeOf<ShippingZoneMethod>();
    expect(flat).toMatchObject({ method_id: 'flat_rate', title: 'Standard', enabled: true, order: 1 });
    expect(flat.settings.cost!.value).toBe('7.50');

    const pickup = await store.shippingZones.methods.create(zone.id, { method_id: 'local_pickup', order: 0 });
    const updated = await store.shippingZones.methods.update(zone.id, flat.instance_id, { enabled: false });
    expect(updated.enabled).toBe(false);

    const listed = await store.shippingZones.methods.list(zone.id);
    expect(listed.data.map((m) => m.instance_id)).toEqual([pickup.instance_id, flat.instance_id]);
    expect((await store.shippingZones.methods.get(zone.id, flat.instance_id)).title).toBe('Standard');

    await store.shippingZones.methods.delete(zone.id, flat.instance_id);
    await expect(store.shippingZones.methods.get(zone.id, flat.instance_id)).rejects.toMatchObject({
      status: 404,
      code: 'woocommerce_rest_shipping_zone_method_invalid',
    });
  });

  it('zone 0 methods', async () => {
    const free = await store.shippingZones.methods.create(0, {
      method_id: 'free_shipping',
      settings: { requires: 'min_amount', min_amount: '100' },
    });
    expect(free.settings.requires!.value).toBe('min_amount');
    expect((await store.shippingZones.methods.list(0)).data.map((m) => m.instance_id)).toContain(
      free.instance_id,
    );
  });

  it('refuses bad input before sending anything', async () => {
    box.store.resetStats();
    await expect(store.shippingZones.get(-1)).rejects.toBeInstanceOf(ValidationError);
    await expect(store.shippingZones.create({ name: 'x', ordr: 1 } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      store.shippingZones.locations.update(1, [{ code: 'US', type: 'planet' }] as never),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(store.shippingZones.methods.create(1, {} as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(store.shippingZones.methods.get(1, 0)).rejects.toBeInstanceOf(ValidationError);
    await expect(store.shippingMethods.get('no such/id')).rejects.toBeInstanceOf(ValidationError);
    expect(box.store.stats().requests).toBe(0);
  });
});

describe('client.shippingMethods', () => {
  it('lists the methods the store offers and reads one', async () => {
    const methods = await store.shippingMethods.list();
    expect(methods.map((m) => m.id)).toEqual(
      expect.arrayContaining(['flat_rate', 'free_shipping', 'local_pickup']),
    );
    expect(await store.shippingMethods.get('local_pickup')).toMatchObject({
      id: 'local_pickup',
      title: 'Local pickup',
    });
    await expect(store.shippingMethods.get('teleport')).rejects.toMatchObject({
      status: 404,
      code: 'woocommerce_rest_shipping_method_invalid',
    });
  });
});
