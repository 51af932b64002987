/** Model rules that used to differ from WooCommerce/WordPress (issue 7, section 2), without sockets. */
import { describe, expect, it } from 'vitest';
import { lookupPriceRange } from '../../src/store/catalog/prices.js';
import { deleteProduct, updateProduct } from '../../src/store/catalog/products.js';
import { createTerm, TAXONOMIES, withDescendants } from '../../src/store/catalog/terms.js';
import { createVariation } from '../../src/store/catalog/variations.js';
import { createOrder } from '../../src/store/orders/orders.js';
import { validateParams } from '../../src/store/rest/params.js';
import { restParseDate } from '../../src/store/runtime/values.js';
import { makeStore, product } from '../helpers/model.js';

const CATEGORIES = TAXONOMIES[0]!;

describe('order lines', () => {
  it('a line naming an unknown product or variation is kept unlinked (prepare_line_items skips set_product)', () => {
    const store = makeStore();
    const p = product(store, '5', 10);
    const o = createOrder(store, {
      status: 'processing',
      line_items: [
        { product_id: 999, quantity: 3 },
        { product_id: p.id, variation_id: 998 },
        { product_id: p.id, quantity: 2 },
      ],
    });
    expect(
      o.line_items.map((li) => [li.product_id, li.variation_id, li.name, li.quantity, li.total]),
    ).toEqual([
      [0, 0, '', 3, 0],
      [0, 0, '', 1, 0],
      [p.id, 0, p.name, 2, 10],
    ]);
    expect(o.total).toBe(10);
    // Only the linked line moves stock.
    expect(store.state.products.get(p.id)!.stock_quantity).toBe(8);
  });
});

describe('category subtrees', () => {
  it('withDescendants adds every child category, at any depth, and nothing else', () => {
    const store = makeStore();
    const a = createTerm(store, CATEGORIES, { name: 'A' });
    const b = createTerm(store, CATEGORIES, { name: 'B', parent: a.id });
    const c = createTerm(store, CATEGORIES, { name: 'C', parent: b.id });
    const d = createTerm(store, CATEGORIES, { name: 'D' });
    expect([...withDescendants(store, 'product_cat', [a.id])].sort()).toEqual([a.id, b.id, c.id].sort());
    expect([...withDescendants(store, 'product_cat', [b.id, d.id])].sort()).toEqual(
      [b.id, c.id, d.id].sort(),
    );
  });
});

describe('lookup table prices', () => {
  it('simple: the active price; variable: published variation range; grouped: child range; none: 0', () => {
    const store = makeStore();
    const a = product(store, '10');
    const b = product(store, '20', undefined, { sale_price: '5' });
    const free = product(store, '0');
    const v = product(store, '', undefined, { type: 'variable' });
    createVariation(store, v, { regular_price: '30' });
    createVariation(store, v, { regular_price: '3' });
    createVariation(store, v, { regular_price: '1', status: 'private' });
    const g = product(store, '', undefined, { type: 'grouped', grouped_products: [a.id, b.id, free.id] });
    expect(lookupPriceRange(store, a)).toEqual({ min: 10, max: 10 });
    expect(lookupPriceRange(store, b)).toEqual({ min: 5, max: 5 });
    expect(lookupPriceRange(store, v)).toEqual({ min: 3, max: 30 });
    expect(lookupPriceRange(store, g)).toEqual({ min: 5, max: 10 });
    expect(lookupPriceRange(store, product(store, ''))).toEqual({ min: 0, max: 0 });
  });
});

describe('post rows (wp_insert_post, rest_parse_date)', () => {
  it('restParseDate reads RFC 3339 to whole seconds; the gmt form ignores the offset; other text is null', () => {
    expect(restParseDate('2020-03-04T05:06:07')).toBe(Date.UTC(2020, 2, 4, 5, 6, 7));
    expect(restParseDate('2020-03-04 05:06:07.9Z')).toBe(Date.UTC(2020, 2, 4, 5, 6, 7));
    expect(restParseDate('2020-03-04T05:06:07+02:00')).toBe(Date.UTC(2020, 2, 4, 3, 6, 7));
    expect(restParseDate('2020-03-04T05:06:07-0500', true)).toBe(Date.UTC(2020, 2, 4, 5, 6, 7));
    expect(restParseDate('2020-03-04T05:06:07+0200')).toBeNull();
    expect(restParseDate('2020-03-04')).toBeNull();
    expect(restParseDate('now')).toBeNull();
  });

  it('drafts get no slug, publishing derives one, unique among live products only', () => {
    const store = makeStore();
    const draft = product(store, '1', undefined, { name: 'Lamp', status: 'draft' });
    expect(draft.slug).toBe('');
    const live = product(store, '1', undefined, { name: 'Lamp' });
    expect(live.slug).toBe('lamp');
    expect(updateProduct(store, draft, { status: 'publish' }).slug).toBe('lamp-2');
    deleteProduct(store, store.state.products.get(live.id)!, false);
    expect(product(store, '1', undefined, { name: 'Lamp' }).slug).toBe('lamp');
  });

  it('created dates set on create become the modified date too; a later write moves only modified', () => {
    const store = makeStore();
    const p = product(store, '1', undefined, { date_created_gmt: '2001-02-03T04:05:06Z' });
    expect([p.created, p.modified]).toEqual([Date.UTC(2001, 1, 3, 4, 5, 6), Date.UTC(2001, 1, 3, 4, 5, 6)]);
    const later = updateProduct(store, p, { regular_price: '2' });
    expect(later.created).toBe(Date.UTC(2001, 1, 3, 4, 5, 6));
    expect(later.modified).toBeGreaterThan(Date.UTC(2024, 0, 1));
  });
});

describe('null parameters (WP_REST_Request::sanitize_params, rest_sanitize_value_from_schema)', () => {
  it('skip validation and take the zero value of their type; nullable and mixed ones stay null', () => {
    const out = validateParams(
      { s: null, e: null, i: null, b: null, a: null, o: null, n: null, m: null, kept: 'x' },
      {
        s: { type: 'string', format: 'email' },
        e: { type: 'string', enum: ['one'] },
        i: { type: 'integer', min: 1 },
        b: { type: 'boolean' },
        a: { type: 'array', items: { type: 'integer' } },
        o: { type: 'object', props: { x: { type: 'string' } } },
        n: { type: 'string', nullable: 'first' },
        m: { type: 'mixed' },
      },
    );
    expect(out).toEqual({ s: '', e: '', i: 0, b: false, a: [], o: {}, n: null, m: null, kept: 'x' });
    expect(() => validateParams({ r: null }, { r: { type: 'string', required: true } })).toThrow(
      'Missing parameter(s): r',
    );
  });
});
