/**
 * Bad input on the catalog routes (attributes and their terms, shipping classes, reviews) over real sockets:
 * status, code and message as WooCommerce sends them. Sources: WP_REST_Request::has_valid_params() (required
 * args first, then every invalid one; args are validated before the permission callback),
 * rest_validate_value_from_schema(), WC_REST_Product_Attributes_V1_Controller (permission checks look the
 * attribute up first: 404 woocommerce_rest_taxonomy_invalid, even anonymous), WC_REST_Terms_Controller::
 * check_permissions(), WC_REST_Product_Reviews_Controller::create_item() / get_review() / delete_item(),
 * WC_REST_Controller::check_batch_limit().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, storeApi } from '../helpers/http.js';

let sb: Sandbox;
let attributeId: number;
let productId: number;
let reviewId: number;

const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

async function anonymous(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sb.url}/wp-json/wc/v3${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
  attributeId = (await api('POST', '/products/attributes', { name: 'Colour' })).json.id;
  productId = (await api('POST', '/products', { name: 'Chair', regular_price: '10.00' })).json.id;
  reviewId = (
    await api('POST', '/products/reviews', {
      product_id: productId,
      review: 'Sturdy',
      reviewer: 'Jo',
      reviewer_email: 'jo@example.com',
    })
  ).json.id;
});

afterAll(async () => {
  await sb?.close();
});

describe('attributes', () => {
  it('create without a name: rest_missing_callback_param', async () => {
    const res = await api('POST', '/products/attributes', { slug: 'x' });
    expectWcError(res, 400, 'rest_missing_callback_param');
    expect(res.json).toMatchObject({ message: 'Missing parameter(s): name', data: { params: ['name'] } });
  });

  it('invalid enum and boolean values: rest_invalid_param naming each', async () => {
    const res = await api('POST', '/products/attributes', {
      name: 'X',
      type: 'text',
      order_by: 'random',
      has_archives: 'maybe',
    });
    expectWcError(res, 400, 'rest_invalid_param');
    expect(res.json.message).toBe('Invalid parameter(s): type, order_by, has_archives');
    // rest_validate_enum(): a single allowed value reads "%1$s is not %2$s.", several "is not one of %2$l.".
    expect(res.json.data.params).toEqual({
      type: 'type is not select.',
      order_by: 'order_by is not one of menu_order, name, name_num, and id.',
      has_archives: 'has_archives is not of type boolean.',
    });
  });

  it('an empty name on update keeps the stored one (wc_update_attribute())', async () => {
    const res = await api('PUT', `/products/attributes/${attributeId}`, { name: '', slug: 'colour' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Colour', slug: 'pa_colour' });
  });

  it('a slug taken by another attribute on update: 400 woocommerce_rest_cannot_edit', async () => {
    const other = (await api('POST', '/products/attributes', { name: 'Shade' })).json;
    const res = await api('PUT', `/products/attributes/${other.id}`, { slug: 'colour' });
    expectWcError(res, 400, 'woocommerce_rest_cannot_edit');
    expect(res.json.message).toBe('Slug "colour" is already in use. Change it, please.');
  });

  it('unknown ids are 404 woocommerce_rest_taxonomy_invalid, before the capability check', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await api(method, '/products/attributes/999999', method === 'PUT' ? {} : undefined);
      expectWcError(res, 404, 'woocommerce_rest_taxonomy_invalid');
      expect(res.json.message).toBe('Resource does not exist.');
    }
    expectWcError(
      await anonymous('GET', '/products/attributes/999999'),
      404,
      'woocommerce_rest_taxonomy_invalid',
    );
  });

  it('anonymous requests: 401 with the controller wording', async () => {
    const list = await anonymous('GET', '/products/attributes');
    expectWcError(list, 401, 'woocommerce_rest_cannot_view');
    const create = await anonymous('POST', '/products/attributes', { name: 'Anon' });
    expectWcError(create, 401, 'woocommerce_rest_cannot_create');
    expect(create.json.message).toBe('Sorry, you cannot create new resource.');
    const update = await anonymous('PUT', `/products/attributes/${attributeId}`, { name: 'Anon' });
    expectWcError(update, 401, 'woocommerce_rest_cannot_update');
    expect(update.json.message).toBe('Sorry, you cannot update resource.');
  });

  it('a non-numeric id matches no route', async () => {
    expectWcError(await api('GET', '/products/attributes/colour'), 404, 'rest_no_route');
  });
});

describe('attribute terms', () => {
  it('an unknown attribute: 404 "Taxonomy does not exist." on every route', async () => {
    const base = '/products/attributes/999999/terms';
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['POST', base, { name: 'Red' }],
      ['GET', `${base}/1`, undefined],
      ['PUT', `${base}/1`, { name: 'Red' }],
      ['DELETE', `${base}/1?force=true`, undefined],
    ] as const) {
      const res = await api(method, path, body);
      expectWcError(res, 404, 'woocommerce_rest_taxonomy_invalid');
      expect(res.json.message).toBe('Taxonomy does not exist.');
    }
  });

  it('a batch under an unknown attribute fails as a whole (batch_items_permissions_check())', async () => {
    const res = await api('POST', '/products/attributes/999999/terms/batch', { create: [{ name: 'Red' }] });
    expectWcError(res, 404, 'woocommerce_rest_taxonomy_invalid');
  });

  it('arguments are validated before the attribute is looked up', async () => {
    const res = await api('POST', '/products/attributes/999999/terms', {});
    expectWcError(res, 400, 'rest_missing_callback_param');
    expect(res.json.message).toBe('Missing parameter(s): name');
  });

  it('a term id of another taxonomy, a duplicate name, a bad menu_order, delete without force', async () => {
    const base = `/products/attributes/${attributeId}/terms`;
    const red = (await api('POST', base, { name: 'Red' })).json;
    const category = (await api('POST', '/products/categories', { name: 'Chairs' })).json;
    const wrong = await api('GET', `${base}/${category.id}`);
    expectWcError(wrong, 404, 'woocommerce_rest_term_invalid');
    expect(wrong.json.message).toBe('Resource does not exist.');
    const dupe = await api('POST', base, { name: 'red' });
    expectWcError(dupe, 400, 'term_exists');
    expect(dupe.json.data.resource_id).toBe(red.id);
    const order = await api('PUT', `${base}/${red.id}`, { menu_order: 'first' });
    expectWcError(order, 400, 'rest_invalid_param');
    expect(order.json.data.params.menu_order).toBe('menu_order is not of type integer.');
    const trash = await api('DELETE', `${base}/${red.id}`);
    expectWcError(trash, 501, 'woocommerce_rest_trash_not_supported');
  });
});

describe('shipping classes', () => {
  it('missing name, unknown id, trash refused', async () => {
    expectWcError(await api('POST', '/products/shipping_classes', {}), 400, 'rest_missing_callback_param');
    const missing = await api('GET', '/products/shipping_classes/999999');
    expectWcError(missing, 404, 'woocommerce_rest_term_invalid');
    expect(missing.json.message).toBe('Resource does not exist.');
    const cls = (await api('POST', '/products/shipping_classes', { name: 'Oversize' })).json;
    const trash = await api('DELETE', `/products/shipping_classes/${cls.id}`);
    expectWcError(trash, 501, 'woocommerce_rest_trash_not_supported');
    expect(trash.json.message).toBe('Resource does not support trashing.');
  });
});

describe('reviews', () => {
  it('create without its required args names them in the schema order', async () => {
    const res = await api('POST', '/products/reviews', {});
    expectWcError(res, 400, 'rest_missing_callback_param');
    expect(res.json.message).toBe('Missing parameter(s): product_id, reviewer, reviewer_email, review');
  });

  it('invalid rating and status: rest_invalid_param, in the schema order', async () => {
    const res = await api('POST', '/products/reviews', {
      product_id: productId,
      review: 'x',
      reviewer: 'A',
      reviewer_email: 'a@example.com',
      rating: 'five',
      status: 'published',
    });
    expectWcError(res, 400, 'rest_invalid_param');
    expect(res.json.data.params).toEqual({
      status: 'status is not one of approved, hold, spam, unspam, trash, and untrash.',
      rating: 'rating is not of type integer.',
    });
  });

  it('a malformed email: refused on update (format: email), emptied on create (the create args replace it)', async () => {
    const update = await api('PUT', `/products/reviews/${reviewId}`, { reviewer_email: 'not-an-email' });
    expectWcError(update, 400, 'rest_invalid_param');
    expect(update.json.data.params).toEqual({ reviewer_email: 'Invalid email address.' });
    // register_routes() array_merge()s a plain `string` reviewer_email over the schema's; sanitize_email()
    // in wp_filter_comment() then makes the malformed address ''.
    const create = await api('POST', '/products/reviews', {
      product_id: productId,
      review: 'No email',
      reviewer: 'Anon',
      reviewer_email: 'not-an-email',
    });
    expect(create.status).toBe(201);
    expect(create.json.reviewer_email).toBe('');
  });

  it('empty content, an id in the body, an unknown product, an over-long reviewer', async () => {
    const body = { product_id: productId, review: 'ok', reviewer: 'B', reviewer_email: 'b@example.com' };
    const empty = await api('POST', '/products/reviews', { ...body, review: '' });
    expectWcError(empty, 400, 'woocommerce_rest_review_content_invalid');
    expect(empty.json.message).toBe('Invalid review content.');
    const exists = await api('POST', '/products/reviews', { ...body, id: reviewId });
    expectWcError(exists, 400, 'woocommerce_rest_review_exists');
    expect(exists.json.message).toBe('Cannot create existing product review.');
    const product = await api('POST', '/products/reviews', { ...body, product_id: 999999 });
    expectWcError(product, 404, 'woocommerce_rest_product_invalid_id');
    const long = await api('POST', '/products/reviews', { ...body, reviewer: 'x'.repeat(246) });
    expectWcError(long, 400, 'woocommerce_rest_reviewer_column_length');
    expect(long.json.message).toBe('Product review field exceeds maximum length allowed.');
    const moved = await api('PUT', `/products/reviews/${reviewId}`, { product_id: 999999 });
    expectWcError(moved, 404, 'woocommerce_rest_product_invalid_id');
    const cleared = await api('PUT', `/products/reviews/${reviewId}`, { review: '' });
    expectWcError(cleared, 400, 'woocommerce_rest_review_content_invalid');
  });

  it('unknown review ids are 404 "Invalid review ID.", anonymous too', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await api(method, '/products/reviews/999999', method === 'PUT' ? {} : undefined);
      expectWcError(res, 404, 'woocommerce_rest_review_invalid_id');
      expect(res.json.message).toBe('Invalid review ID.');
    }
    expectWcError(
      await anonymous('GET', '/products/reviews/999999'),
      404,
      'woocommerce_rest_review_invalid_id',
    );
    const edit = await anonymous('PUT', `/products/reviews/${reviewId}`, { rating: 1 });
    expectWcError(edit, 401, 'woocommerce_rest_cannot_edit');
    expect(edit.json.message).toBe('Sorry, you cannot edit this resource.');
  });

  it('list filters outside their schema', async () => {
    const res = await api('GET', '/products/reviews?status=published&orderby=rating&per_page=101');
    expectWcError(res, 400, 'rest_invalid_param');
    expect(res.json.data.params).toEqual({
      per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
      orderby: 'orderby is not one of date, date_gmt, id, include, and product.',
      status: 'status is not one of all, hold, approved, spam, and trash.',
    });
  });

  it('a batch over 100 items: 413', async () => {
    const res = await api('POST', '/products/reviews/batch', {
      delete: Array.from({ length: 101 }, (_, i) => i + 1),
    });
    expectWcError(res, 413, 'woocommerce_rest_request_entity_too_large');
  });
});
