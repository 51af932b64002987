/** Id allocation: WordPress's shared sequences (posts, users, terms, comments, items, meta) and what uses them. */
import { describe, expect, it } from 'vitest';
import { createProduct } from '../../src/store/catalog/products.js';
import { createTerm, TAXONOMIES } from '../../src/store/catalog/terms.js';
import { createVariation } from '../../src/store/catalog/variations.js';
import { createCustomer } from '../../src/store/customers/customers.js';
import {
  ADMIN_USER_ID,
  createEmptyState,
  deserializeState,
  nextId,
  serializeState,
  UNCATEGORIZED_ID,
} from '../../src/store/data/tables.js';
import { createOrder } from '../../src/store/orders/orders.js';
import { makeStore, product } from '../helpers/model.js';

describe('id sequences', () => {
  it('start where a fresh install leaves them: admin user 1, "Uncategorized" term 15, posts after 10, tax classes 1-2', () => {
    const state = createEmptyState();
    expect(state.seq).toEqual({
      ...{ post: 10, user: 1, term: 15, comment: 0, webhook: 0, meta: 0, item: 0 },
      ...{ option: 0, attribute: 0, tax_rate: 0, tax_class: 2, zone: 0, zone_method: 0 },
    });
    // WC_Install::create_options() on a new install: "Reduced rate" and "Zero rate", rows 1 and 2.
    expect([...state.tax_classes.values()].map((c) => [c.id, c.slug, c.name])).toEqual([
      [1, 'reduced-rate', 'Reduced rate'],
      [2, 'zero-rate', 'Zero rate'],
    ]);
    expect(ADMIN_USER_ID).toBe(1);
    expect(state.terms.get(UNCATEGORIZED_ID)).toMatchObject({
      name: 'Uncategorized',
      taxonomy: 'product_cat',
    });
  });

  it('nextId() moves one sequence at a time', () => {
    const state = createEmptyState();
    expect([
      nextId(state, 'post'),
      nextId(state, 'post'),
      nextId(state, 'item'),
      nextId(state, 'user'),
    ]).toEqual([11, 12, 1, 2]);
    expect(state.seq.term).toBe(15);
  });

  it('products, variations, orders and refunds share the post sequence; customers and terms have their own', () => {
    const store = makeStore();
    const p = product(store, '5');
    const v = createVariation(store, p, { regular_price: '6' });
    const o = createOrder(store, { line_items: [{ product_id: p.id, quantity: 1 }] });
    const c = createCustomer(store, { email: 'ids@example.com' });
    const t = createTerm(store, TAXONOMIES[0]!, { name: 'Lamps' });
    expect([p.id, v.id, o.id, c.id, t.id]).toEqual([11, 12, 13, 2, 16]);
    expect(o.line_items[0]!.id).toBe(1);
  });

  it('a rejected product takes no id (the sequence moves only once the body applied)', () => {
    const store = makeStore();
    product(store, '1', undefined, { sku: 'dup' });
    expect(() => product(store, '1', undefined, { sku: 'dup' })).toThrow('Invalid or duplicated SKU.');
    expect(product(store, '1').id).toBe(12);
  });

  it('a rejected order gives back every id it took (post, items, meta)', () => {
    const store = makeStore();
    const p = product(store, '2', 10);
    const before = { ...store.state.seq };
    expect(() =>
      createOrder(store, {
        status: 'processing',
        meta_data: [{ key: 'k', value: 'v' }],
        line_items: [{ product_id: p.id, quantity: 1 }, { quantity: 2 }],
      }),
    ).toThrow('Product ID or SKU is required.');
    expect(store.state.seq).toEqual(before);
    expect(store.state.orders.size).toBe(0);
    expect(store.state.products.get(p.id)!.stock_quantity).toBe(10);
  });

  it('survive a save and load, so ids never repeat across restarts', () => {
    const store = makeStore();
    createProduct(store, { name: 'Kept' });
    const loaded = deserializeState(serializeState(store.state), 'store.json').state;
    expect(loaded.seq).toEqual(store.state.seq);
    expect(nextId(loaded, 'post')).toBe(12);
    expect(() => deserializeState('{"format":"other"}', 'store.json')).toThrow(
      'cannot load store.json: not an x-sandbox store data file',
    );
  });

  it('never sit behind an id already in the data file (as AUTO_INCREMENT moves past the highest key)', () => {
    const text = JSON.stringify({
      format: 'x-sandbox-store',
      version: 1,
      seq: { post: 5, item: 1, meta: 0, user: 1 },
      orders: [{ id: 40, line_items: [{ id: 17, meta_data: [{ id: 23, key: 'k', value: 1 }] }] }],
      customers: [{ id: 9 }],
    });
    const { state } = deserializeState(text, 'store.json');
    expect(state.seq).toMatchObject({ post: 40, item: 17, meta: 23, user: 9 });
    expect(nextId(state, 'post')).toBe(41);
  });
});
