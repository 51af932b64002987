/**
 * `/taxes` and `/taxes/classes` over raw HTTP: the v1 field rules WooCommerce still applies under v3
 * (WC_REST_Taxes_V1_Controller::create_or_update_tax(), WC_Tax::prepare_tax_rate() and its format_tax_rate_*()
 * formatters, _update_tax_rate_postcodes()/_cities()), the tax classes controller, and persistence.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';

let sb: Sandbox;
const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'none' } });
});
afterAll(async () => {
  await sb.close();
});

describe('rates: what create_or_update_tax() stores', () => {
  it('an empty create keeps the table defaults (rate and name "") beside the schema defaults', async () => {
    const r = await api('POST', '/taxes', {});
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      country: '',
      state: '',
      postcode: '',
      city: '',
      rate: '',
      name: '',
      priority: 1,
      compound: false,
      shipping: true,
      order: 0,
      class: 'standard',
      postcodes: [],
      cities: [],
    });
  });

  it('formats each field sent: upper-case codes, "*" as any, four decimals, "Tax" for an empty name', async () => {
    const r = await api('POST', '/taxes', {
      country: '*',
      state: 'n.y!',
      rate: '',
      name: '',
      order: -4,
      priority: -2,
      postcode: ' 10001; 10002\u202610099 ;*;0; ',
      city: 'new york; ;brooklyn',
    });
    expect(r.json).toMatchObject({
      country: '',
      // format_tax_rate_state( sanitize_key( 'n.y!' ) )
      state: 'NY',
      // format_tax_rate( (float) '' )
      rate: '0.0000',
      name: 'Tax',
      // absint() for the priority; an unsigned column (non-strict SQL) for the order.
      priority: 2,
      order: 0,
      postcodes: ['10001', '10002...10099'],
      cities: ['NEW YORK', 'BROOKLYN'],
      postcode: '10002...10099',
      city: 'BROOKLYN',
    });
  });

  it('"20%" is 20.0000 and "abc" 0.0000: (float) of the leading number', async () => {
    const a = await api('POST', '/taxes', { rate: '20%' });
    const b = await api('PUT', `/taxes/${a.json.id}`, { rate: 'abc' });
    expect([a.json.rate, b.json.rate]).toEqual(['20.0000', '0.0000']);
  });

  it('an update changes only what is sent; empty lists leave the locations (WooCommerce skips empty())', async () => {
    const a = await api('POST', '/taxes', {
      country: 'CA',
      rate: '5',
      postcodes: ['H2X'],
      cities: ['Montreal'],
      compound: true,
    });
    const b = await api('PUT', `/taxes/${a.json.id}`, { postcodes: [], cities: [], name: 'GST' });
    expect(b.json).toMatchObject({
      country: 'CA',
      rate: '5.0000',
      name: 'GST',
      compound: true,
      postcodes: ['H2X'],
      cities: ['MONTREAL'],
    });
    const c = await api('PATCH', `/taxes/${a.json.id}`, { cities: ['Laval', 'Quebec'], class: 'standard' });
    expect(c.json).toMatchObject({ cities: ['LAVAL', 'QUEBEC'], postcodes: ['H2X'], class: 'standard' });
    // The emptiness test sees the joined text before wc_clean(): " " is not empty, and cleans to no postcodes.
    const d = await api('PUT', `/taxes/${a.json.id}`, { postcodes: [' '] });
    expect(d.json).toMatchObject({ postcodes: [], postcode: '', cities: ['LAVAL', 'QUEBEC'] });
  });

  it('_fields trims the rate (the emulator keeps `id`, as everywhere)', async () => {
    const a = await api('POST', '/taxes', { country: 'JP', rate: '10' });
    const r = await api('GET', `/taxes/${a.json.id}?_fields=rate,country&context=edit`);
    expect(r.json).toEqual({ id: a.json.id, rate: '10.0000', country: 'JP' });
  });

  it('needs an API key: anonymous requests get woocommerce_rest_cannot_view (401)', async () => {
    const r = await fetch(`${sb.url}/wp-json/wc/v3/taxes`);
    expect(r.status).toBe(401);
    expect(((await r.json()) as { code: string }).code).toBe('woocommerce_rest_cannot_view');
  });
});

describe('classes', () => {
  it('creating a class adds it to the `class` enum of /taxes; deleting it removes it', async () => {
    const created = await api('POST', '/taxes/classes', { name: 'Kids Clothing' });
    expect(created.json).toMatchObject({ name: 'Kids Clothing', slug: 'kids-clothing' });
    const rate = await api('POST', '/taxes', { country: 'GB', rate: '0', class: 'kids-clothing' });
    expect(rate.json.class).toBe('kids-clothing');
    const listed = await api('GET', '/taxes?class=kids-clothing');
    expect(listed.json.map((t: { id: number }) => t.id)).toEqual([rate.json.id]);

    await api('DELETE', '/taxes/classes/kids-clothing?force=true');
    const refused = await api('POST', '/taxes', { class: 'kids-clothing' });
    expect(refused.status).toBe(400);
    expect(refused.json.data.params.class).toBe('class is not one of standard, reduced-rate, and zero-rate.');
    expect((await api('GET', `/taxes/${rate.json.id}`)).status).toBe(404);
  });

  it('the classes are listed by name; the slug in the URL goes through sanitize_title()', async () => {
    await api('POST', '/taxes/classes', { name: 'alpha Rate' });
    const all = await api('GET', '/taxes/classes');
    expect(all.json.map((c: { slug: string }) => c.slug)).toEqual([
      'standard',
      'alpha-rate',
      'reduced-rate',
      'zero-rate',
    ]);
    const got = await api('GET', '/taxes/classes/Alpha%20Rate');
    expect(got.json).toEqual([expect.objectContaining({ slug: 'alpha-rate' })]);
    const deleted = await api('DELETE', '/taxes/classes/ALPHA-RATE?force=1');
    expect(deleted.json).toMatchObject({ name: 'alpha Rate', slug: 'alpha-rate' });
  });

  it('the namespace index lists the routes', async () => {
    const index = (await (await fetch(`${sb.url}/wp-json/wc/v3`)).json()) as {
      routes: Record<string, unknown>;
    };
    expect(Object.keys(index.routes)).toEqual(
      expect.arrayContaining([
        '/wc/v3/taxes/classes',
        '/wc/v3/taxes/classes/(?P<slug>\\w[\\w\\s\\-]*)',
        '/wc/v3/taxes',
        '/wc/v3/taxes/(?P<id>[\\d]+)',
        '/wc/v3/taxes/batch',
      ]),
    );
  });
});

describe('persistence', () => {
  it('rates and classes (a deleted default class included) survive a restart from the data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-taxes-'));
    const file = join(dir, 'store.json');
    try {
      let box = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
      const call = (method: string, path: string, body?: unknown) => storeApi(box, method, path, body);
      await call('DELETE', '/taxes/classes/zero-rate?force=true');
      await call('POST', '/taxes/classes', { name: 'Food' });
      const rate = await call('POST', '/taxes', {
        country: 'IE',
        rate: '13.5',
        class: 'food',
        cities: ['Cork'],
      });
      await box.close();

      box = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false, seed: 'none' } });
      const classes = await storeApi(box, 'GET', '/taxes/classes');
      expect(classes.json.map((c: { slug: string }) => c.slug)).toEqual(['standard', 'food', 'reduced-rate']);
      const again = await storeApi(box, 'GET', `/taxes/${rate.json.id}`);
      const { _links: _before, ...kept } = rate.json;
      const { _links: _after, ...restored } = again.json;
      expect(restored).toEqual(kept);
      const next = await storeApi(box, 'POST', '/taxes', { rate: '1' });
      expect(next.json.id).toBe(rate.json.id + 1);
      await box.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
