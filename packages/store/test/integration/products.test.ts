import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, NotFoundError, ValidationError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(() => box.close());

describe('products', () => {
  it('create, get, update, list with filters, trash, force delete', async () => {
    const store = clientFor(box);
    const {
      data: created,
      status,
      headers,
    } = await store.products
      .create({
        name: 'Blue Mug',
        type: 'simple',
        regular_price: '12.50',
        sku: 'MUG-BLUE',
        manage_stock: true,
        stock_quantity: 7,
      })
      .withResponse();
    expect(status).toBe(201);
    expect(headers.get('location')).toMatch(new RegExp(`/wp-json/wc/v3/products/${created.id}$`));
    expect(created).toMatchObject({
      name: 'Blue Mug',
      regular_price: '12.50',
      price: '12.50',
      sku: 'MUG-BLUE',
      stock_quantity: 7,
    });

    const fetched = await store.products.get(created.id);
    expect(fetched.id).toBe(created.id);
    const updated = await store.products.update(created.id, {
      sale_price: '9.99',
      description: 'Holds coffee',
    });
    expect(updated).toMatchObject({
      sale_price: '9.99',
      price: '9.99',
      on_sale: true,
      description: 'Holds coffee',
    });

    await store.products.create({ name: 'Red Mug', regular_price: '11.00', sku: 'MUG-RED' });
    const bySku = await store.products.list({ sku: 'MUG-BLUE' });
    expect(bySku.data.map((p) => p.sku)).toEqual(['MUG-BLUE']);
    const bySearch = await store.products.list({ search: 'Mug', orderby: 'title', order: 'asc' });
    expect(bySearch.data.map((p) => p.name)).toEqual(['Blue Mug', 'Red Mug']);
    expect(bySearch.total).toBe(2);
    const included = await store.products.list({ include: [created.id] });
    expect(included.data).toHaveLength(1);
    const slim = await store.products.get(created.id, { _fields: ['id', 'name'] });
    expect(Object.keys(slim).sort()).toEqual(['id', 'name']);

    // WooCommerce prepares the DELETE response before trashing, so it shows the status before.
    const trashed = await store.products.delete(created.id);
    expect(trashed.id).toBe(created.id);
    expect((await store.products.get(created.id)).status).toBe('trash');
    const gone = await store.products.delete(created.id, { force: true });
    expect(gone.id).toBe(created.id);
    const error = await store.products.get(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('woocommerce_rest_product_invalid_id');
  });

  it('a duplicate SKU is the store’s 400 product_invalid_sku', async () => {
    const store = clientFor(box);
    await store.products.create({ name: 'Unique', sku: 'SKU-DUP' });
    const error = await store.products.create({ name: 'Again', sku: 'SKU-DUP' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('product_invalid_sku');
  });

  it('variations of a variable product', async () => {
    const store = clientFor(box);
    const shirt = await store.products.create({
      name: 'Shirt',
      type: 'variable',
      attributes: [{ name: 'Size', options: ['S', 'M'] }],
    });
    const small = await store.products.variations.create(shirt.id, {
      regular_price: '20.00',
      attributes: [{ name: 'Size', option: 'S' }],
    });
    const medium = await store.products.variations.create(shirt.id, {
      regular_price: '22.00',
      attributes: [{ name: 'Size', option: 'M' }],
    });
    expect(small.price).toBe('20.00');
    const updated = await store.products.variations.update(shirt.id, medium.id, { sale_price: '18.00' });
    expect(updated.price).toBe('18.00');
    const listed = await store.products.variations.list(shirt.id);
    expect(listed.data.map((v) => v.id).sort()).toEqual([small.id, medium.id].sort());
    expect((await store.products.get(shirt.id)).variations.sort()).toEqual([small.id, medium.id].sort());
    await store.products.variations.delete(shirt.id, small.id);
    await expect(store.products.variations.get(shirt.id, small.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('categories and tags', async () => {
    const store = clientFor(box);
    const category = await store.products.categories.create({ name: 'Kitchen' });
    const tag = await store.products.tags.create({ name: 'sale' });
    const product = await store.products.create({
      name: 'Pan',
      categories: [{ id: category.id }],
      tags: [{ id: tag.id }],
    });
    expect(product.categories.map((c) => c.id)).toEqual([category.id]);
    const inCategory = await store.products.list({ category: String(category.id) });
    expect(inCategory.data.map((p) => p.id)).toContain(product.id);
    expect(
      (await store.products.categories.update(category.id, { description: 'Pots and pans' })).description,
    ).toBe('Pots and pans');
    expect((await store.products.categories.list({ search: 'Kitch' })).data.map((c) => c.name)).toEqual([
      'Kitchen',
    ]);
    await store.products.tags.delete(tag.id);
    await expect(store.products.tags.get(tag.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('plain permalinks (?rest_route=) reach the same store', async () => {
    const store = clientFor(box, { permalinks: 'plain' });
    const { data, response } = await store.products.create({ name: 'Plain' }).withResponse();
    expect(response.url).toContain('?rest_route=%2Fwc%2Fv3%2Fproducts');
    expect((await store.products.get(data.id)).name).toBe('Plain');
  });

  it('bad input fails before any request, naming the field', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const cases: Array<[() => unknown, string]> = [
      [() => store.products.create({ name: 'x', regular_price: 12.5 as never }), 'regular_price'],
      [() => store.products.list({ per_page: 101 }), 'per_page'],
      [() => store.products.get(-1), 'id'],
      [() => store.products.update(1.5, { name: 'x' }), 'id'],
      [() => store.products.list({ include: ['7' as never] }), 'include.0'],
    ];
    for (const [call, field] of cases) {
      let error: unknown;
      try {
        await call();
      } catch (e) {
        error = e;
      }
      expect(error, field).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toContain(field);
    }
    expect(box.store.stats().requests).toBe(0);
  });
});
