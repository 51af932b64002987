/**
 * `client.taxes` and `client.taxes.classes` against the sandbox over real sockets. The store's answers follow
 * WC_REST_Taxes_Controller (v3 over v1), WC_REST_Tax_Classes_V2_Controller and WC_Tax.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BadRequestError,
  BatchError,
  NotFoundError,
  type TaxClass,
  type TaxRate,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

const box = sandboxForFile({ store: { seed: 'none' } });

describe('client.taxes', () => {
  it('creates, gets, updates, lists and deletes a rate', async () => {
    const store = clientFor(box);
    const rate = await store.taxes.create({
      country: 'gb',
      rate: '20',
      name: 'VAT',
      postcodes: ['sw1a 1aa', 'EC1*'],
      cities: ['london'],
    });
    expectTypeOf(rate).toEqualTypeOf<TaxRate>();
    // WC_Tax::format_tax_rate() (4 decimals) and _update_tax_rate_postcodes()/_cities() (upper-cased).
    expect(rate).toMatchObject({
      country: 'GB',
      rate: '20.0000',
      name: 'VAT',
      priority: 1,
      compound: false,
      shipping: true,
      class: 'standard',
      postcodes: ['SW1A 1AA', 'EC1*'],
      cities: ['LONDON'],
      postcode: 'EC1*',
      city: 'LONDON',
    });
    expect(await store.taxes.get(rate.id)).toEqual(rate);

    const updated = await store.taxes.update(rate.id, { rate: '17.5', shipping: false, order: 3 });
    expect(updated).toMatchObject({ rate: '17.5000', shipping: false, order: 3, name: 'VAT' });

    const page = await store.taxes.list({ class: 'standard' });
    expect(page.data.map((t) => t.id)).toContain(rate.id);

    expect(await store.taxes.delete(rate.id)).toMatchObject({ id: rate.id });
    const gone = await rejection(store.taxes.get(rate.id));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).code).toBe('woocommerce_rest_invalid_id');
  });

  it('pages through every rate with for await, ordered by id', async () => {
    const store = clientFor(box);
    const { create } = await store.taxes.batch({
      create: Array.from({ length: 7 }, (_, i) => ({ country: 'NL', rate: `${i}`, name: `NL ${i}` })),
    });
    const ids = (create as TaxRate[]).map((t) => t.id);
    const seen: number[] = [];
    for await (const t of store.taxes.list({ orderby: 'id', per_page: 3 })) {
      if (t.country === 'NL') seen.push(t.id);
    }
    expect(seen).toEqual(ids);
    const first = await store.taxes.list({ orderby: 'id', per_page: 3 });
    expect(first.total).toBeGreaterThanOrEqual(7);
    await store.taxes.batch({ delete: ids });
    expect((await store.taxes.list({ per_page: 100 })).data.filter((t) => t.country === 'NL')).toEqual([]);
  });

  it('batch failures come back per item (BatchError by default)', async () => {
    const store = clientFor(box);
    const error = await rejection(store.taxes.batch({ update: [{ id: 987_654, rate: '1' }] }));
    expect(error).toBeInstanceOf(BatchError);
    expect((error as BatchError).failures[0]).toMatchObject({
      action: 'update',
      id: 987_654,
      error: { code: 'woocommerce_rest_invalid_id' },
    });
  });

  it('refuses bad inputs before sending: a numeric rate, a misspelt field, an unknown orderby', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const numeric = await rejection(store.taxes.create({ rate: 20 } as never));
    expect(numeric).toBeInstanceOf(ValidationError);
    expect((numeric as ValidationError).issues[0]).toMatchObject({
      path: 'rate',
      message: expect.stringContaining('send "20"'),
    });
    const misspelt = await rejection(store.taxes.create({ contry: 'US' } as never));
    expect((misspelt as ValidationError).issues[0]).toMatchObject({
      path: 'contry',
      message: expect.stringContaining('did you mean "country"'),
    });
    const orderby = await rejection(store.taxes.list({ orderby: 'name' } as never));
    expect((orderby as ValidationError).issues[0]?.path).toBe('orderby');
    const priority = await rejection(store.taxes.update(1, { priority: -1 }));
    expect((priority as ValidationError).issues[0]?.path).toBe('priority');
    expect(box.store.stats().requests).toBe(0);
  });

  it('an unknown class is the store’s rest_invalid_param', async () => {
    const store = clientFor(box);
    const error = await rejection(store.taxes.create({ class: 'no-such-class' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('rest_invalid_param');
  });
});

describe('client.taxes.classes', () => {
  it('lists the standard class first, creates, gets and deletes one (with its rates)', async () => {
    const store = clientFor(box);
    const all = await store.taxes.classes.list();
    expect(all.data.slice(0, 3).map((c) => c.slug)).toEqual(['standard', 'reduced-rate', 'zero-rate']);
    expect(all.totalPages).toBe(1);

    const created = await store.taxes.classes.create({ name: 'Luxury Goods' });
    expectTypeOf(created).toEqualTypeOf<TaxClass>();
    expect(created).toMatchObject({ name: 'Luxury Goods', slug: 'luxury-goods' });
    expect(await store.taxes.classes.get('luxury-goods')).toMatchObject({ name: 'Luxury Goods' });
    expect(await store.taxes.classes.get('nothing-here')).toBeNull();

    const dup = await rejection(store.taxes.classes.create({ name: 'Luxury Goods' }));
    expect(dup).toBeInstanceOf(BadRequestError);
    expect((dup as BadRequestError).code).toBe('woocommerce_rest_tax_class_exists');

    const rate = await store.taxes.create({ country: 'FR', rate: '33', class: 'luxury-goods' });
    expect(await store.taxes.classes.delete('luxury-goods')).toMatchObject({ slug: 'luxury-goods' });
    await expect(store.taxes.get(rate.id)).rejects.toBeInstanceOf(NotFoundError);

    const standard = await rejection(store.taxes.classes.delete('standard'));
    expect((standard as BadRequestError).code).toBe('woocommerce_rest_invalid_tax_class');
  });

  it('refuses an empty name or a slug the route cannot match, before sending', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const empty = await rejection(store.taxes.classes.create({ name: '' }));
    expect((empty as ValidationError).issues[0]?.path).toBe('name');
    const slug = await rejection(store.taxes.classes.delete('../taxes'));
    expect(slug).toBeInstanceOf(ValidationError);
    expect((slug as ValidationError).issues[0]?.path).toBe('slug');
    expect(box.store.stats().requests).toBe(0);
  });
});
