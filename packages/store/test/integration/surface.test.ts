/**
 * Every wc/v3 endpoint group through @x/store, over both ways a store is reached: HTTPS with Basic auth and
 * plain HTTP with OAuth 1.0a (signed per request, the secret never sent). Each group's own suite goes deeper;
 * this one shows the whole surface works over either transport, with the auth each one uses on the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreClient } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true },
  { name: 'plain HTTP with OAuth 1.0a', https: false },
] as const;

describe.each(transports)('the wc/v3 surface over $name', (transport) => {
  let box: Sandbox;
  let store: StoreClient;
  const sent: { url: string; authorization: string | null }[] = [];

  beforeAll(async () => {
    box = await sandbox({ https: transport.https, store: { seed: 'none' } });
    store = clientFor(box, {
      hooks: {
        beforeRequest: (e) => {
          sent.push({ url: e.url, authorization: new Headers(e.headers).get('authorization') });
        },
      },
    });
  });
  afterAll(() => box.close());

  it('coupons, taxes and tax classes', async () => {
    const coupon = await store.coupons.create({ code: 'SPRING', discount_type: 'percent', amount: '15' });
    expect((await store.coupons.get(coupon.id)).code).toBe('spring');
    expect((await store.coupons.list({ code: 'spring' })).data.map((c) => c.id)).toEqual([coupon.id]);
    const klass = await store.taxes.classes.create({ name: 'Books' });
    const rate = await store.taxes.create({ country: 'GB', rate: '20', name: 'VAT', class: klass.slug });
    expect((await store.taxes.list({ class: klass.slug })).data.map((r) => r.id)).toEqual([rate.id]);
    expect((await store.taxes.classes.list()).data.map((c) => c.slug)).toContain('books');
    await store.taxes.classes.delete(klass.slug);
    expect((await store.taxes.list()).data).toEqual([]);
    expect((await store.coupons.delete(coupon.id, { force: true })).id).toBe(coupon.id);
  });

  it('settings, payment gateways and data', async () => {
    expect((await store.settings.listGroups()).map((g) => g.id)).toContain('general');
    const decimals = await store.settings.update('general', 'woocommerce_price_num_decimals', { value: '3' });
    expect(decimals.value).toBe('3');
    const product = await store.products.create({ name: 'Pen', regular_price: '1.5' });
    const order = await store.orders.create({ line_items: [{ product_id: product.id, quantity: 1 }] });
    expect(order.total).toBe('1.500');
    await store.settings.update('general', 'woocommerce_price_num_decimals', { value: '2' });
    const bacs = await store.paymentGateways.update('bacs', { enabled: true, title: 'Wire transfer' });
    expect(bacs).toMatchObject({ id: 'bacs', enabled: true, title: 'Wire transfer' });
    expect((await store.paymentGateways.list()).map((g) => g.id)).toEqual(
      expect.arrayContaining(['bacs', 'cheque', 'cod']),
    );
    expect((await store.data.getCountry('GB')).name).toBe('United Kingdom (UK)');
    expect((await store.data.currentCurrency()).code).toBe('USD');
  });

  it('product attributes with terms, shipping classes and reviews', async () => {
    const colour = await store.products.attributes.create({ name: 'Colour' });
    await store.products.attributes.terms.create(colour.id, { name: 'Red' });
    expect((await store.products.attributes.terms.list(colour.id)).data.map((t) => t.name)).toEqual(['Red']);
    const fragile = await store.products.shippingClasses.create({ name: 'Fragile' });
    const vase = await store.products.create({
      name: 'Vase',
      regular_price: '20',
      shipping_class: 'fragile',
      attributes: [{ id: colour.id, options: ['Red'], visible: true }],
    });
    expect(vase).toMatchObject({
      shipping_class_id: fragile.id,
      attributes: [{ id: colour.id, slug: 'pa_colour' }],
    });
    await store.products.reviews.create({
      product_id: vase.id,
      review: 'Lovely',
      reviewer: 'Jo',
      reviewer_email: 'jo@example.com',
      rating: 4,
    });
    expect((await store.products.get(vase.id)).average_rating).toBe('4.00');
    expect((await store.products.reviews.list({ product: [vase.id] })).total).toBe(1);
  });

  it('shipping zones with locations and methods, shipping methods', async () => {
    const zone = await store.shippingZones.create({ name: 'Europe' });
    await store.shippingZones.locations.update(zone.id, [{ code: 'EU', type: 'continent' }]);
    expect(await store.shippingZones.locations.get(zone.id)).toEqual([
      expect.objectContaining({ code: 'EU', type: 'continent' }),
    ]);
    const method = await store.shippingZones.methods.create(zone.id, { method_id: 'flat_rate' });
    expect((await store.shippingZones.methods.list(zone.id)).data.map((m) => m.instance_id)).toEqual([
      method.instance_id,
    ]);
    expect((await store.shippingMethods.list()).map((m) => m.id)).toEqual(
      expect.arrayContaining(['flat_rate', 'free_shipping', 'local_pickup']),
    );
    expect((await store.shippingZones.list()).data.map((z) => z.id)).toEqual([0, zone.id]);
  });

  it('system status with its tools, reports', async () => {
    const status = await store.systemStatus.get();
    expect(status.environment).toMatchObject({ version: expect.any(String) });
    expect((await store.systemStatus.tools.list()).map((t) => t.id)).toContain('clear_transients');
    expect((await store.systemStatus.tools.run('clear_transients')).success).toBe(true);
    expect((await store.reports.list()).map((r) => r.slug)).toContain('sales');
    expect(await store.reports.sales({ period: 'week' })).toMatchObject({ total_sales: expect.any(String) });
    expect((await store.reports.ordersTotals()).map((t) => t.slug)).toContain('pending');
  });

  it('went out with the transport’s own auth: Basic over TLS, an OAuth signature and no secret over HTTP', () => {
    expect(sent.length).toBeGreaterThan(30);
    for (const { url, authorization } of sent) {
      if (transport.https) {
        expect(authorization).toMatch(/^Basic /);
        expect(url).not.toContain('oauth_signature');
      } else {
        expect(authorization).toBeNull();
        expect(url).toContain('oauth_signature=');
        expect(url).not.toContain(box.store.consumerSecret);
      }
    }
  });
});
