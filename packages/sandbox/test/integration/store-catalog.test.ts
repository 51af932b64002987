/**
 * The catalog collections of the store emulator over real sockets: attributes and their terms, shipping
 * classes and reviews survive a restart from the data file, and the rules WooCommerce applies behind the
 * REST layer hold: wc_update_attribute() moving terms with a new slug (and deriving the slug from the name
 * when none is sent), wp_spam_comment() / wp_unspam_comment() / wp_untrash_comment(),
 * WC_Comments::add_comment_purchase_verification() (verified owners), comment ids shared by order notes and
 * reviews, wp_delete_post() taking a product's reviews with it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';

let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'store-catalog-'));
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
});

afterAll(async () => {
  await sb?.close();
  await rm(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

describe('attributes', () => {
  it('a new slug moves the terms and what products show; an update without a slug derives it from the name', async () => {
    const attr = (await api('POST', '/products/attributes', { name: 'Finish', slug: 'finish' })).json;
    const matte = (await api('POST', `/products/attributes/${attr.id}/terms`, { name: 'Matte' })).json;
    const product = (
      await api('POST', '/products', {
        name: 'Frame',
        regular_price: '9.00',
        attributes: [{ id: attr.id, options: ['matte'] }],
      })
    ).json;
    // The option named the term by slug; the product shows its name.
    expect(product.attributes[0]).toMatchObject({ slug: 'pa_finish', options: ['Matte'] });

    const moved = await api('PUT', `/products/attributes/${attr.id}`, { slug: 'surface' });
    expect(moved.json.slug).toBe('pa_surface');
    const terms = await api('GET', `/products/attributes/${attr.id}/terms`);
    expect(terms.json.map((t: { id: number }) => t.id)).toEqual([matte.id]);
    expect((await api('GET', `/products/${product.id}`)).json.attributes[0]).toMatchObject({
      slug: 'pa_surface',
      options: ['Matte'],
    });

    // WC_REST_Product_Attributes_V1_Controller::update_item() always passes `slug`, '' when absent, and
    // wc_create_attribute() then takes the slug from the name.
    const renamed = await api('PUT', `/products/attributes/${attr.id}`, { name: 'Paint Finish' });
    expect(renamed.json).toMatchObject({ name: 'Paint Finish', slug: 'pa_paint-finish' });
    expect((await api('GET', `/products/attributes/${attr.id}/terms/${matte.id}`)).status).toBe(200);
  });

  it('the name goes through sanitize_text_field(), the derived slug through wc_sanitize_taxonomy_name()', async () => {
    const res = await api('POST', '/products/attributes', { name: '  Pack <b>v1.2</b>\n size ' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Pack v1.2 size', slug: 'pa_pack-v1-2-size' });
  });

  it('batch: creates, updates and deletes with per-item errors', async () => {
    const res = await api('POST', '/products/attributes/batch', {
      create: [{ name: 'Width' }, { name: 'Year' }],
    });
    expect(res.status).toBe(200);
    expect(res.json.create[0]).toMatchObject({ name: 'Width', slug: 'pa_width' });
    // "year" is a reserved WordPress query var (wc_check_if_attribute_name_is_reserved()).
    expect(res.json.create[1].error).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
      message: 'Slug "year" is not allowed because it is a reserved term. Change it, please.',
    });
    const id = res.json.create[0].id;
    const next = await api('POST', '/products/attributes/batch', {
      update: [{ id, name: 'Breadth', slug: 'width' }],
      delete: [id, 999_999],
    });
    expect(next.json.update[0]).toMatchObject({ id, name: 'Breadth', slug: 'pa_width' });
    expect(next.json.delete[0]).toMatchObject({ id });
    expect(next.json.delete[1]).toMatchObject({
      id: 999_999,
      error: { code: 'woocommerce_rest_taxonomy_invalid' },
    });
  });
});

describe('reviews', () => {
  it('spam and trash remember the status they replace; unspam without one puts the review on hold', async () => {
    const product = (await api('POST', '/products', { name: 'Rug', regular_price: '40.00' })).json;
    const review = (
      await api('POST', '/products/reviews', {
        product_id: product.id,
        review: 'Soft',
        reviewer: 'Gil',
        reviewer_email: 'gil@example.com',
        rating: 4,
        status: 'hold',
      })
    ).json;
    expect(review.status).toBe('hold');
    expect((await api('PUT', `/products/reviews/${review.id}`, { status: 'spam' })).json.status).toBe('spam');
    expect((await api('PUT', `/products/reviews/${review.id}`, { status: 'unspam' })).json.status).toBe(
      'hold',
    );
    await api('PUT', `/products/reviews/${review.id}`, { status: 'approved' });
    // wp_unspam_comment() with no `_wp_trash_meta_status` falls back to '0' (hold).
    expect((await api('PUT', `/products/reviews/${review.id}`, { status: 'unspam' })).json.status).toBe(
      'hold',
    );
    const spam = await api('GET', '/products/reviews?status=spam');
    expect(spam.json.map((r: { id: number }) => r.id)).not.toContain(review.id);
  });

  it('verified when the reviewer email has a paid order with the product; ids shared with order notes', async () => {
    const product = (await api('POST', '/products', { name: 'Teapot', regular_price: '25.00' })).json;
    const order = (
      await api('POST', '/orders', {
        status: 'processing',
        billing: { email: 'buyer@example.com' },
        line_items: [{ product_id: product.id, quantity: 1 }],
      })
    ).json;
    const note = (await api('POST', `/orders/${order.id}/notes`, { note: 'Packed' })).json;
    const mine = (
      await api('POST', '/products/reviews', {
        product_id: product.id,
        review: 'Pours well',
        reviewer: 'Buyer',
        reviewer_email: 'buyer@example.com',
      })
    ).json;
    const other = (
      await api('POST', '/products/reviews', {
        product_id: product.id,
        review: 'Looks nice',
        reviewer: 'Browser',
        reviewer_email: 'browser@example.com',
      })
    ).json;
    expect(mine).toMatchObject({ verified: true, rating: 0 });
    expect(other.verified).toBe(false);
    // Notes and reviews are both comments: one id sequence.
    expect(mine.id).toBe(note.id + 1);
  });

  it('lists with paging headers, orderby and search; a force-deleted product takes its reviews', async () => {
    const product = (await api('POST', '/products', { name: 'Mat', regular_price: '8.00' })).json;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await api('POST', '/products/reviews', {
        product_id: product.id,
        review: `Mat review ${i}`,
        reviewer: `M${i}`,
        reviewer_email: `m${i}@example.com`,
        date_created: `2024-01-0${i + 1}T10:00:00`,
      });
      ids.push(r.json.id);
    }
    const page = await api('GET', `/products/reviews?product=${product.id}&per_page=2`);
    expect(page.headers.get('x-wp-total')).toBe('3');
    expect(page.headers.get('x-wp-totalpages')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="next"');
    // Default order: date_gmt descending.
    expect(page.json.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const asc = await api('GET', `/products/reviews?product=${product.id}&orderby=id&order=asc`);
    expect(asc.json.map((r: { id: number }) => r.id)).toEqual(ids);
    const after = await api('GET', `/products/reviews?product=${product.id}&after=2024-01-01T12:00:00`);
    expect(after.json.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);
    const found = await api('GET', '/products/reviews?search=m1%40example');
    expect(found.json.map((r: { id: number }) => r.id)).toEqual([ids[1]]);

    await api('DELETE', `/products/${product.id}?force=true`);
    const gone = await api('GET', `/products/reviews/${ids[0]}`);
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('woocommerce_rest_review_invalid_id');
  });
});

describe('durability', () => {
  it('attributes, terms, shipping classes and reviews survive a restart from the data file', async () => {
    const file = join(dir, 'catalog.json');
    const first = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false } });
    const call = (box: Sandbox, method: string, path: string, body?: unknown) =>
      storeApi(box, method, path, body);
    const attr = (await call(first, 'POST', '/products/attributes', { name: 'Grip' })).json;
    const term = (await call(first, 'POST', `/products/attributes/${attr.id}/terms`, { name: 'Rubber' }))
      .json;
    const cls = (await call(first, 'POST', '/products/shipping_classes', { name: 'Fragile' })).json;
    const product = (
      await call(first, 'POST', '/products', {
        name: 'Racket',
        regular_price: '70.00',
        shipping_class: 'fragile',
        attributes: [{ id: attr.id, options: ['Rubber'] }],
      })
    ).json;
    const review = (
      await call(first, 'POST', '/products/reviews', {
        product_id: product.id,
        review: 'Great',
        reviewer: 'Ida',
        reviewer_email: 'ida@example.com',
        rating: 5,
      })
    ).json;
    await first.close();

    const second = await startSandbox({ port: 0, dataFile: file, store: { rateLimit: false } });
    try {
      expect((await call(second, 'GET', `/products/attributes/${attr.id}`)).json).toMatchObject({
        slug: 'pa_grip',
      });
      expect((await call(second, 'GET', `/products/attributes/${attr.id}/terms/${term.id}`)).json.count).toBe(
        1,
      );
      expect((await call(second, 'GET', `/products/shipping_classes/${cls.id}`)).json.count).toBe(1);
      expect((await call(second, 'GET', `/products/${product.id}`)).json).toMatchObject({
        shipping_class_id: cls.id,
        average_rating: '5.00',
        rating_count: 1,
        attributes: [{ id: attr.id, options: ['Rubber'] }],
      });
      expect((await call(second, 'GET', `/products/reviews/${review.id}`)).json.rating).toBe(5);
      // The sequences continue after the restored rows.
      const next = (await call(second, 'POST', '/products/attributes', { name: 'Weight' })).json;
      expect(next.id).toBe(attr.id + 1);
    } finally {
      await second.close();
    }
  });
});

describe('shipping classes on variations', () => {
  it('a variation resolves its class slug like a product does: shipping_class_id, and an unknown slug clears it', async () => {
    // WC_REST_Product_Variations_V2_Controller::prepare_object_for_database() goes through the same
    // get_shipping_class_id_by_slug() as products.
    const cls = (await api('POST', '/products/shipping_classes', { name: 'Bulky' })).json;
    const parent = (await api('POST', '/products', { name: 'Sofa', type: 'variable' })).json;
    const made = await api('POST', `/products/${parent.id}/variations`, {
      regular_price: '300',
      shipping_class: 'bulky',
    });
    expect(made.json).toMatchObject({ shipping_class: 'bulky', shipping_class_id: cls.id });
    const cleared = await api('PUT', `/products/${parent.id}/variations/${made.json.id}`, {
      shipping_class: 'nope',
    });
    expect(cleared.json).toMatchObject({ shipping_class: '', shipping_class_id: 0 });
  });
});
