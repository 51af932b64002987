/**
 * Shipping zones over real sockets beyond the official client's reach: zone 0's methods (which have no zone
 * row of their own) survive a restart on a data file, instance ids keep counting after it, a store whose
 * settings disable shipping answers the zone routes with `404 rest_no_route` "Shipping is disabled."
 * (WC_REST_Shipping_Zones_Controller_Base::*_permissions_check(), wc_shipping_enabled()), and anonymous
 * requests get the capability errors of the same checks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, storeApi } from '../helpers/http.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-shipping-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('zones and methods on a data file', () => {
  it('survive a restart, zone 0 methods included, and instance ids keep counting', async () => {
    const file = join(dir, 'store.json');
    let sb: Sandbox = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false } });
    let zoneId: number;
    let pickupId: number;
    let flatId: number;
    try {
      const zone = await storeApi(sb, 'POST', '/shipping/zones', { name: 'Persisted', order: 3 });
      zoneId = zone.json.id;
      await storeApi(sb, 'PUT', `/shipping/zones/${zoneId}/locations`, [
        { code: 'FR' },
        { code: 'EU', type: 'continent' },
      ]);
      const flat = await storeApi(sb, 'POST', `/shipping/zones/${zoneId}/methods`, {
        method_id: 'flat_rate',
        settings: { cost: '4.20' },
      });
      flatId = flat.json.id;
      const pickup = await storeApi(sb, 'POST', '/shipping/zones/0/methods', {
        method_id: 'local_pickup',
        enabled: false,
        settings: { title: 'Counter' },
      });
      pickupId = pickup.json.id;
      expect(pickupId).toBe(flatId + 1);
    } finally {
      await sb.close();
    }

    sb = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false } });
    try {
      const zone = await storeApi(sb, 'GET', `/shipping/zones/${zoneId}`);
      expect(zone.json).toMatchObject({ id: zoneId, name: 'Persisted', order: 3 });
      const locations = await storeApi(sb, 'GET', `/shipping/zones/${zoneId}/locations`);
      expect(locations.json.map((l: any) => [l.code, l.type])).toEqual([
        ['FR', 'country'],
        ['EU', 'continent'],
      ]);
      const flat = await storeApi(sb, 'GET', `/shipping/zones/${zoneId}/methods/${flatId}`);
      expect(flat.json.settings.cost.value).toBe('4.20');
      const zero = await storeApi(sb, 'GET', '/shipping/zones/0/methods');
      expect(zero.json).toHaveLength(1);
      expect(zero.json[0]).toMatchObject({ id: pickupId, title: 'Counter', enabled: false });
      // The zone sequence and the instance sequence are the store's, not recomputed from what is left.
      const next = await storeApi(sb, 'POST', '/shipping/zones/0/methods', { method_id: 'free_shipping' });
      expect(next.json.id).toBe(pickupId + 1);
      // Zone 0 itself is no record of the data file, and still there.
      const list = await storeApi(sb, 'GET', '/shipping/zones');
      expect(list.json.map((z: any) => z.id)).toEqual([0, zoneId]);
    } finally {
      await sb.close();
    }
  });

  it('a deleted zone takes its methods with it', async () => {
    const sb = await startSandbox({ port: 0, store: { rateLimit: false } });
    try {
      const zone = await storeApi(sb, 'POST', '/shipping/zones', { name: 'Short-lived' });
      const m = await storeApi(sb, 'POST', `/shipping/zones/${zone.json.id}/methods`, {
        method_id: 'flat_rate',
      });
      await storeApi(sb, 'DELETE', `/shipping/zones/${zone.json.id}?force=true`);
      const gone = await storeApi(sb, 'GET', `/shipping/zones/${zone.json.id}/methods/${m.json.id}`);
      expectWcError(gone, 404, 'woocommerce_rest_shipping_zone_invalid');
    } finally {
      await sb.close();
    }
  });
});

describe('a store with shipping disabled', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    // The `woocommerce_ship_to_countries` option row as WooCommerce > Settings > General saves it.
    const file = join(dir, 'no-shipping.json');
    await writeFile(
      file,
      JSON.stringify({
        format: 'x-sandbox-store',
        version: 1,
        seq: { option: 1 },
        options: [{ id: 1, name: 'woocommerce_ship_to_countries', value: 'disabled' }],
      }),
    );
    sb = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false } });
  });
  afterAll(() => sb?.close());

  it.each([
    ['GET', '/shipping/zones'],
    ['POST', '/shipping/zones'],
    ['GET', '/shipping/zones/0'],
    ['PUT', '/shipping/zones/0/locations'],
    ['GET', '/shipping/zones/0/methods'],
    ['DELETE', '/shipping/zones/0/methods/1'],
  ])('%s %s answers 404 rest_no_route "Shipping is disabled."', async (method, path) => {
    const res = await storeApi(
      sb,
      method,
      path,
      method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
    );
    expectWcError(res, 404, 'rest_no_route');
    expect(res.json.message).toBe('Shipping is disabled.');
  });

  it('the shipping_methods list does not depend on it', async () => {
    const res = await storeApi(sb, 'GET', '/shipping_methods');
    expect(res.status).toBe(200);
  });
});

describe('anonymous requests', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  });
  afterAll(() => sb?.close());

  const anon = (method: string, path: string) =>
    fetch(`${sb.url}/wp-json/wc/v3${path}`, { method }).then(async (r) => ({
      status: r.status,
      json: await r.json(),
    }));

  it('get the capability error of each check, 401', async () => {
    expectWcError(await anon('GET', '/shipping/zones'), 401, 'woocommerce_rest_cannot_view');
    // delete_items_permissions_check() answers with the edit code and the delete message.
    const del = await anon('DELETE', '/shipping/zones/0');
    expectWcError(del, 401, 'woocommerce_rest_cannot_edit');
    expect(del.json.message).toBe('Sorry, you are not allowed to delete this resource.');
    expectWcError(
      await anon('PUT', '/system_status/tools/clear_transients'),
      401,
      'woocommerce_rest_cannot_update',
    );
    expectWcError(await anon('GET', '/reports/sales'), 401, 'woocommerce_rest_cannot_view');
  });
});
