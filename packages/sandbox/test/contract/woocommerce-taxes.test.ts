/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2 against the emulator's `/taxes` and
 * `/taxes/classes`, over each transport. Expected behaviour follows WooCommerce's
 * WC_REST_Taxes_Controller (Version3, over WC_REST_Taxes_V1_Controller), WC_REST_Tax_Classes_V2_Controller
 * (over V1) and WC_Tax (create_tax_class, delete_tax_class_by, _update_tax_rate_postcodes/cities,
 * format_tax_rate_*).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import {
  failure,
  parseLink,
  storeWithOfficialClient,
  type WooCommerceRestApi,
} from '../helpers/woo-client.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true, queryStringAuth: false },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false, queryStringAuth: false },
] as const;

describe.each(transports)('official client, taxes, over $name', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({
      https: transport.https,
      queryStringAuth: transport.queryStringAuth,
    }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('tax classes of a fresh install: Standard rate first, then the classes by name', async () => {
    // WC_REST_Tax_Classes_V1_Controller::get_items() + WC_Install::create_options()'s "Reduced rate" and "Zero rate".
    const res = await api.get('taxes/classes');
    expect(res.status).toBe(200);
    expect(res.data.map((c: any) => [c.slug, c.name])).toEqual([
      ['standard', 'Standard rate'],
      ['reduced-rate', 'Reduced rate'],
      ['zero-rate', 'Zero rate'],
    ]);
    expect(res.data[0]._links.collection[0].href).toMatch(/\/wp-json\/wc\/v3\/taxes\/classes$/);
  });

  it('tax classes: create (201 + Location), duplicates refused, get by slug, delete takes its rates', async () => {
    const created = await api.post('taxes/classes', { name: 'Books  and Papers' });
    expect(created.status).toBe(201);
    // sanitize_text_field() collapses the spaces; sanitize_title() makes the slug.
    expect(created.data).toMatchObject({ name: 'Books and Papers', slug: 'books-and-papers' });
    expect(created.headers.location).toMatch(/\/wp-json\/wc\/v3\/taxes\/classes\/books-and-papers$/);

    // WC_Tax::create_tax_class(): an existing name, then an existing slug under another name.
    const dupName = await failure(api.post('taxes/classes', { name: 'Books and Papers' }));
    expect([dupName.status, dupName.data.code, dupName.data.message]).toEqual([
      400,
      'woocommerce_rest_tax_class_exists',
      'Tax class already exists',
    ]);
    const dupSlug = await failure(api.post('taxes/classes', { name: 'books and papers' }));
    expect([dupSlug.status, dupSlug.data.code, dupSlug.data.message]).toEqual([
      400,
      'woocommerce_rest_tax_class_slug_exists',
      'Tax class slug already exists',
    ]);

    // WC_REST_Tax_Classes_V2_Controller::get_item(): a list holding the class; an unknown slug is `[]`.
    const one = await api.get('taxes/classes/books-and-papers');
    expect(one.data).toEqual([
      expect.objectContaining({ name: 'Books and Papers', slug: 'books-and-papers' }),
    ]);
    expect((await api.get('taxes/classes/standard')).data).toEqual([
      expect.objectContaining({ slug: 'standard', name: 'Standard rate' }),
    ]);
    expect((await api.get('taxes/classes/no-such-class')).data).toEqual([]);

    const rate = await api.post('taxes', { country: 'GB', rate: '5', class: 'books-and-papers' });
    expect(rate.data.class).toBe('books-and-papers');

    const noForce = await failure(api.delete('taxes/classes/books-and-papers'));
    expect([noForce.status, noForce.data.code, noForce.data.message]).toEqual([
      501,
      'woocommerce_rest_trash_not_supported',
      'Taxes do not support trashing.',
    ]);
    const deleted = await api.delete('taxes/classes/books-and-papers', { force: true });
    expect(deleted.status).toBe(200);
    expect(deleted.data).toMatchObject({ name: 'Books and Papers', slug: 'books-and-papers' });
    // WC_Tax::delete_tax_class_by() deletes the class's rates too.
    const gone = await failure(api.get(`taxes/${rate.data.id}`));
    expect([gone.status, gone.data.code]).toEqual([404, 'woocommerce_rest_invalid_id']);

    // The standard class has no row: WC_Tax::delete_tax_class_by() answers 'invalid_tax_class'.
    const standard = await failure(api.delete('taxes/classes/standard', { force: true }));
    expect([standard.status, standard.data.code, standard.data.message]).toEqual([
      400,
      'woocommerce_rest_invalid_tax_class',
      'Invalid tax class',
    ]);
  });

  it('rates: create with the schema defaults and WC_Tax formatting, get, update, delete', async () => {
    const created = await api.post('taxes', {
      country: 'us',
      state: 'ca',
      rate: '7.25',
      name: 'CA Sales',
      postcodes: [' 90210 ', '900*', '91000...91999', '*'],
      cities: ['los angeles', 'San Diego'],
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/taxes/${id}$`));
    // prepare_item_for_response(): v1 `postcode`/`city` hold the last location; v3 adds the lists.
    expect(created.data).toMatchObject({
      id,
      country: 'US',
      state: 'CA',
      postcode: '91000...91999',
      city: 'SAN DIEGO',
      rate: '7.2500',
      name: 'CA Sales',
      priority: 1,
      compound: false,
      shipping: true,
      order: 0,
      class: 'standard',
      postcodes: ['90210', '900*', '91000...91999'],
      cities: ['LOS ANGELES', 'SAN DIEGO'],
    });
    expect(created.data._links.self[0].href).toMatch(new RegExp(`/wp-json/wc/v3/taxes/${id}$`));

    const got = await api.get(`taxes/${id}`);
    expect(got.data).toEqual(created.data);

    // Only the fields sent change; `postcode` (v1) replaces the postcodes, the cities stay.
    const updated = await api.put(`taxes/${id}`, {
      rate: '8',
      compound: true,
      priority: 2,
      class: 'reduced-rate',
      postcode: '94016',
    });
    expect(updated.data).toMatchObject({
      rate: '8.0000',
      compound: true,
      priority: 2,
      class: 'reduced-rate',
      postcodes: ['94016'],
      cities: ['LOS ANGELES', 'SAN DIEGO'],
      name: 'CA Sales',
    });

    const noForce = await failure(api.delete(`taxes/${id}`));
    expect([noForce.status, noForce.data.code]).toEqual([501, 'woocommerce_rest_trash_not_supported']);
    const deleted = await api.delete(`taxes/${id}`, { force: true });
    expect(deleted.data).toMatchObject({ id, rate: '8.0000' });
    // get/update answer 404 for a missing rate, delete 400 (WC_REST_Taxes_V1_Controller).
    const missing = await failure(api.get(`taxes/${id}`));
    expect([missing.status, missing.data.code, missing.data.message]).toEqual([
      404,
      'woocommerce_rest_invalid_id',
      'Invalid resource ID.',
    ]);
    const missingDelete = await failure(api.delete(`taxes/${id}`, { force: true }));
    expect([missingDelete.status, missingDelete.data.code]).toEqual([400, 'woocommerce_rest_invalid_id']);
  });

  it('list: class filter, orderby order/priority/id, paging headers and prev/next links', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await api.post('taxes', {
        country: 'DE',
        rate: String(10 + i),
        name: `VAT ${i}`,
        order: 5 - i,
        priority: (i % 2) + 1,
        class: i < 3 ? 'zero-rate' : 'standard',
      });
      ids.push(r.data.id);
    }
    const zero = await api.get('taxes', { class: 'zero-rate', per_page: 100 });
    expect(zero.data.map((t: any) => t.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(zero.headers['x-wp-total']).toBe('3');

    const byOrder = await api.get('taxes', { per_page: 100 });
    expect(byOrder.data.map((t: any) => t.order)).toEqual([1, 2, 3, 4, 5]);
    const byIdDesc = await api.get('taxes', { orderby: 'id', order: 'desc', per_page: 100 });
    expect(byIdDesc.data.map((t: any) => t.id)).toEqual([...ids].reverse());
    const byPriority = await api.get('taxes', { orderby: 'priority', per_page: 100 });
    expect(byPriority.data.map((t: any) => t.priority)).toEqual([1, 1, 1, 2, 2]);

    const page2 = await api.get('taxes', { orderby: 'id', per_page: 2, page: 2 });
    expect(page2.data.map((t: any) => t.id)).toEqual([ids[2], ids[3]]);
    expect(page2.headers['x-wp-total']).toBe('5');
    expect(page2.headers['x-wp-totalpages']).toBe('3');
    const links = parseLink(page2.headers.link);
    expect(new URL(links.prev!).searchParams.get('page')).toBe('1');
    expect(new URL(links.next!).searchParams.get('page')).toBe('3');

    // A non-empty offset wins over page.
    const offset = await api.get('taxes', { orderby: 'id', per_page: 2, page: 1, offset: 3 });
    expect(offset.data.map((t: any) => t.id)).toEqual([ids[3], ids[4]]);

    const bad = await failure(api.get('taxes', { class: 'no-such-class' }));
    expect([bad.status, bad.data.code, bad.data.data.params.class]).toEqual([
      400,
      'rest_invalid_param',
      'class is not one of standard, reduced-rate, and zero-rate.',
    ]);
  });

  it('batch: create, update and delete in one request, failures per item', async () => {
    const first = await api.post('taxes', { country: 'FR', rate: '20' });
    const res = await api.post('taxes/batch', {
      create: [
        { country: 'IT', rate: '22', name: 'IVA' },
        { id: 5, rate: '1' },
      ],
      update: [
        { id: first.data.id, rate: '5.5' },
        { id: 999_999, rate: '1' },
      ],
      delete: [first.data.id],
    });
    expect(res.status).toBe(200);
    expect(res.data.create[0]).toMatchObject({ country: 'IT', rate: '22.0000', name: 'IVA' });
    expect(res.data.create[1].error).toMatchObject({ code: 'woocommerce_rest_tax_exists' });
    expect(res.data.update[0]).toMatchObject({ id: first.data.id, rate: '5.5000' });
    expect(res.data.update[1]).toMatchObject({ id: 999_999, error: { code: 'woocommerce_rest_invalid_id' } });
    expect(res.data.delete[0]).toMatchObject({ id: first.data.id });
    expect((await failure(api.get(`taxes/${first.data.id}`))).status).toBe(404);
  });
});
