/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` 1.0.2 against the emulator's catalog
 * routes: product attributes and their terms, shipping classes, product reviews, and what they change on
 * products. Expected behaviour follows the WooCommerce plugin code (woocommerce/woocommerce):
 * WC_REST_Product_Attributes_V1_Controller, wc_create_attribute() / wc_update_attribute() /
 * wc_delete_attribute() (includes/wc-attribute-functions.php), WC_REST_Terms_Controller,
 * WC_REST_Product_Shipping_Classes_Controller, WC_REST_Product_Reviews_Controller (Version3),
 * WC_REST_Products_V2_Controller::prepare_object_for_database(), WC_Comments.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const short = () => randomUUID().replace(/-/g, '').slice(0, 8);

const transports = [
  { name: 'HTTPS with Basic auth', https: true },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false },
] as const;

describe.each(transports)('catalog routes through the official client over $name', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({ https: transport.https }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('attributes: create (201, pa_ slug, defaults) → list (one page) → get → update → delete (force defaults to true)', async () => {
    const slug = `c${short()}`;
    const created = await api.post('products/attributes', { name: 'Colour', slug });
    expect(created.status).toBe(201);
    const id = created.data.id as number;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/products/attributes/${id}$`));
    // wc_create_attribute() defaults: type select, order_by menu_order, has_archives false.
    expect(created.data).toMatchObject({
      id,
      name: 'Colour',
      slug: `pa_${slug}`,
      type: 'select',
      order_by: 'menu_order',
      has_archives: false,
    });

    const listed = await api.get('products/attributes');
    // get_items() returns every attribute at once: X-WP-TotalPages is always 1.
    expect(listed.headers['x-wp-totalpages']).toBe('1');
    expect(Number(listed.headers['x-wp-total'])).toBe(listed.data.length);
    expect(listed.data.map((a: { id: number }) => a.id)).toContain(id);

    const updated = await api.put(`products/attributes/${id}`, {
      name: 'Color',
      slug,
      order_by: 'name',
      has_archives: true,
    });
    expect(updated.data).toMatchObject({
      id,
      name: 'Color',
      slug: `pa_${slug}`,
      order_by: 'name',
      has_archives: true,
    });
    expect((await api.get(`products/attributes/${id}`)).data).toMatchObject({
      name: 'Color',
      order_by: 'name',
    });

    // delete_item() refuses force=false; without `force` (default true) it deletes.
    const refused = await failure(api.delete(`products/attributes/${id}`, { force: false }));
    expect(refused.status).toBe(501);
    expect(refused.data.code).toBe('woocommerce_rest_trash_not_supported');
    const deleted = await api.delete(`products/attributes/${id}`);
    expect(deleted.data).toMatchObject({ id, name: 'Color' });
    const gone = await failure(api.get(`products/attributes/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({
      code: 'woocommerce_rest_taxonomy_invalid',
      message: 'Resource does not exist.',
    });
  });

  it('attributes: slug rules of wc_create_attribute() come back as 400 woocommerce_rest_cannot_create', async () => {
    const slug = `s${short()}`;
    await api.post('products/attributes', { name: 'Size', slug });
    const taken = await failure(api.post('products/attributes', { name: 'Size again', slug: `pa_${slug}` }));
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
      message: `Slug "${slug}" is already in use. Change it, please.`,
    });
    const reserved = await failure(api.post('products/attributes', { name: 'Type', slug: 'type' }));
    expect(reserved.data).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
      message: 'Slug "type" is not allowed because it is a reserved term. Change it, please.',
    });
    const long = 'a'.repeat(29);
    const tooLong = await failure(api.post('products/attributes', { name: 'Long', slug: long }));
    expect(tooLong.data).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
      message: `Slug "${long}" is too long (28 characters max). Shorten it, please.`,
    });
    // The slug derives from the name when none is given (wc_sanitize_taxonomy_name()).
    const derived = await api.post('products/attributes', { name: `Fit ${slug}` });
    expect(derived.data.slug).toBe(`pa_fit-${slug}`);
  });

  it('attribute terms: CRUD under the attribute, counts from products, and gone with their attribute', async () => {
    const attr = (await api.post('products/attributes', { name: 'Material', slug: `m${short()}` })).data;
    const base = `products/attributes/${attr.id}/terms`;
    const wool = await api.post(base, { name: 'Wool', menu_order: 2 });
    expect(wool.status).toBe(201);
    expect(wool.headers.location).toMatch(
      new RegExp(`/products/attributes/${attr.id}/terms/${wool.data.id}$`),
    );
    expect(wool.data).toMatchObject({ name: 'Wool', slug: 'wool', description: '', menu_order: 2, count: 0 });
    const cotton = (await api.post(base, { name: 'Cotton' })).data;

    // A product naming the attribute by id takes its name and slug; options are term names.
    const product = await api.post('products', {
      name: 'Scarf',
      regular_price: '20.00',
      attributes: [{ id: attr.id, name: 'ignored', options: ['Wool', 'Silk'], visible: true }],
    });
    const row = product.data.attributes[0];
    expect(row).toMatchObject({ id: attr.id, name: 'Material', slug: attr.slug, visible: true });
    // wp_set_object_terms() created "Silk"; the attribute's menu_order puts Silk (0) before Wool (2).
    expect(row.options).toEqual(['Silk', 'Wool']);
    const terms = await api.get(base, { per_page: 100 });
    expect(terms.data.map((t: { name: string }) => t.name).sort()).toEqual(['Cotton', 'Silk', 'Wool']);
    expect((await api.get(`${base}/${wool.data.id}`)).data.count).toBe(1);
    const ofProduct = await api.get(base, { product: product.data.id });
    expect(ofProduct.data.map((t: { name: string }) => t.name).sort()).toEqual(['Silk', 'Wool']);

    const renamed = await api.put(`${base}/${cotton.id}`, { name: 'Organic cotton', description: 'soft' });
    expect(renamed.data).toMatchObject({ name: 'Organic cotton', slug: 'cotton', description: 'soft' });

    // Products list filter: attribute (taxonomy) + attribute_term (ids).
    const filtered = await api.get('products', {
      attribute: attr.slug,
      attribute_term: String(wool.data.id),
    });
    expect(filtered.data.map((p: { id: number }) => p.id)).toEqual([product.data.id]);

    // wc_delete_attribute() deletes every term of the taxonomy.
    await api.delete(`products/attributes/${attr.id}`, { force: true });
    const noTaxonomy = await failure(api.get(base));
    expect(noTaxonomy.status).toBe(404);
    expect(noTaxonomy.data).toMatchObject({
      code: 'woocommerce_rest_taxonomy_invalid',
      message: 'Taxonomy does not exist.',
    });
  });

  it('shipping classes: CRUD, and products hold one by slug with its id', async () => {
    const created = await api.post('products/shipping_classes', {
      name: 'Heavy Goods',
      description: 'crates',
    });
    expect(created.status).toBe(201);
    const cls = created.data;
    expect(cls).toMatchObject({ name: 'Heavy Goods', slug: 'heavy-goods', description: 'crates', count: 0 });
    expect(created.headers.location).toMatch(new RegExp(`/products/shipping_classes/${cls.id}$`));

    const product = await api.post('products', {
      name: 'Crate',
      regular_price: '50.00',
      shipping_class: 'heavy-goods',
    });
    expect(product.data).toMatchObject({ shipping_class: 'heavy-goods', shipping_class_id: cls.id });
    expect((await api.get(`products/shipping_classes/${cls.id}`)).data.count).toBe(1);
    const byClass = await api.get('products', { shipping_class: String(cls.id) });
    expect(byClass.data.map((p: { id: number }) => p.id)).toEqual([product.data.id]);

    // get_shipping_class_id_by_slug() gives false for an unknown slug, which set_shipping_class_id() stores as 0.
    const unknown = await api.put(`products/${product.data.id}`, { shipping_class: 'no-such-class' });
    expect(unknown.data).toMatchObject({ shipping_class: '', shipping_class_id: 0 });

    await api.put(`products/${product.data.id}`, { shipping_class: 'heavy-goods' });
    const slugChanged = await api.put(`products/shipping_classes/${cls.id}`, { slug: 'bulky' });
    expect(slugChanged.data.slug).toBe('bulky');
    expect((await api.get(`products/${product.data.id}`)).data).toMatchObject({
      shipping_class: 'bulky',
      shipping_class_id: cls.id,
    });

    const trash = await failure(api.delete(`products/shipping_classes/${cls.id}`));
    expect(trash.status).toBe(501);
    expect(trash.data.code).toBe('woocommerce_rest_trash_not_supported');
    await api.delete(`products/shipping_classes/${cls.id}`, { force: true });
    expect((await api.get(`products/${product.data.id}`)).data).toMatchObject({
      shipping_class: '',
      shipping_class_id: 0,
    });
  });

  it('reviews: create (201, approved) → product rating → get (view context wraps paragraphs) → trash → 410 → force', async () => {
    const product = (await api.post('products', { name: 'Kettle', regular_price: '30.00' })).data;
    const created = await api.post('products/reviews', {
      product_id: product.id,
      review: 'Boils fast.',
      reviewer: 'Ann',
      reviewer_email: 'ann@example.com',
      rating: 5,
    });
    expect(created.status).toBe(201);
    const id = created.data.id as number;
    expect(created.headers.location).toMatch(new RegExp(`/wp-json/wc/v3/products/reviews/${id}$`));
    // create_item() answers in the edit context: the review as stored.
    expect(created.data).toMatchObject({
      id,
      product_id: product.id,
      product_name: 'Kettle',
      status: 'approved',
      reviewer: 'Ann',
      reviewer_email: 'ann@example.com',
      review: 'Boils fast.',
      rating: 5,
      verified: false,
    });
    expect(Object.keys(created.data.reviewer_avatar_urls)).toEqual(['24', '48', '96']);
    await api.post('products/reviews', {
      product_id: product.id,
      review: 'Loud.',
      reviewer: 'Bob',
      reviewer_email: 'bob@example.com',
      rating: 2,
    });
    // A held review does not count (WC_Comments counts approved ratings above 0).
    await api.post('products/reviews', {
      product_id: product.id,
      review: 'Meh.',
      reviewer: 'Cy',
      reviewer_email: 'cy@example.com',
      rating: 1,
      status: 'hold',
    });
    expect((await api.get(`products/${product.id}`)).data).toMatchObject({
      average_rating: '3.50',
      rating_count: 2,
    });

    expect((await api.get(`products/reviews/${id}`)).data.review).toBe('<p>Boils fast.</p>\n');
    const listed = await api.get('products/reviews', { product: [product.id] });
    expect(listed.data).toHaveLength(2);
    expect(listed.headers['x-wp-total']).toBe('2');
    const all = await api.get('products/reviews', { product: [product.id], status: 'all' });
    expect(all.data).toHaveLength(3);

    const trashed = await api.delete(`products/reviews/${id}`);
    expect(trashed.data).toMatchObject({ id, status: 'trash' });
    expect((await api.get(`products/${product.id}`)).data).toMatchObject({
      average_rating: '2.00',
      rating_count: 1,
    });
    const again = await failure(api.delete(`products/reviews/${id}`));
    expect(again.status).toBe(410);
    expect(again.data).toMatchObject({
      code: 'woocommerce_rest_already_trashed',
      message: 'The object has already been trashed.',
    });
    // wp_untrash_comment() restores the status the review had before the trash.
    const untrashed = await api.put(`products/reviews/${id}`, { status: 'untrash' });
    expect(untrashed.data.status).toBe('approved');
    const forced = await api.delete(`products/reviews/${id}`, { force: true });
    expect(forced.data).toMatchObject({ deleted: true, previous: { id, status: 'approved' } });
    const gone = await failure(api.get(`products/reviews/${id}`));
    expect(gone.status).toBe(404);
    expect(gone.data).toMatchObject({
      code: 'woocommerce_rest_review_invalid_id',
      message: 'Invalid review ID.',
    });
  });

  it('reviews: create errors (product, duplicate) and batch', async () => {
    const bad = await failure(
      api.post('products/reviews', {
        product_id: 999999,
        review: 'x',
        reviewer: 'A',
        reviewer_email: 'a@example.com',
      }),
    );
    expect(bad.status).toBe(404);
    expect(bad.data).toMatchObject({
      code: 'woocommerce_rest_product_invalid_id',
      message: 'Invalid product ID.',
    });
    const product = (await api.post('products', { name: 'Lamp', regular_price: '12.00' })).data;
    const body = {
      product_id: product.id,
      review: 'Bright.',
      reviewer: 'Dee',
      reviewer_email: 'dee@example.com',
    };
    await api.post('products/reviews', body);
    // wp_allow_comment()'s duplicate check, re-coded by the controller with status 409.
    const dupe = await failure(api.post('products/reviews', body));
    expect(dupe.status).toBe(409);
    expect(dupe.data.code).toBe('woocommerce_rest_comment_duplicate');

    const batch = await api.post('products/reviews/batch', {
      create: [
        { product_id: product.id, review: 'One', reviewer: 'E', reviewer_email: 'e@example.com', rating: 4 },
        { product_id: 999999, review: 'Two', reviewer: 'F', reviewer_email: 'f@example.com' },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.data.create[0]).toMatchObject({ review: 'One', rating: 4 });
    expect(batch.data.create[1].error).toMatchObject({ code: 'woocommerce_rest_product_invalid_id' });
    // Batch deletes are forced: each answers {deleted, previous}.
    const deleted = await api.post('products/reviews/batch', { delete: [batch.data.create[0].id] });
    expect(deleted.data.delete[0]).toMatchObject({
      deleted: true,
      previous: { id: batch.data.create[0].id },
    });
  });
});
