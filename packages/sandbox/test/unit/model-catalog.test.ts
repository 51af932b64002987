/** Prices, sales and SKUs of the catalogue, on the model. */
import { describe, expect, it } from 'vitest';
import {
  activePrice,
  isOnSale,
  productOnSale,
  productPrice,
  variationName,
} from '../../src/store/catalog/prices.js';
import { createVariation, deleteVariation } from '../../src/store/catalog/variations.js';
import { RestError } from '../../src/store/runtime/errors.js';
import { makeStore, product } from '../helpers/model.js';

describe('sale prices', () => {
  const sellable = (sale: string, from: number | null = null, to: number | null = null) =>
    ({ regular_price: '10', sale_price: sale, date_on_sale_from: from, date_on_sale_to: to }) as never;

  it('a sale price below the regular one is active inside its dates', () => {
    const now = Date.UTC(2025, 0, 10);
    expect(isOnSale(sellable('8'), now)).toBe(true);
    expect(isOnSale(sellable('10'), now)).toBe(false);
    expect(isOnSale(sellable(''), now)).toBe(false);
    expect(isOnSale(sellable('8', Date.UTC(2025, 0, 11)), now)).toBe(false);
    expect(isOnSale(sellable('8', null, Date.UTC(2025, 0, 9)), now)).toBe(false);
    expect(activePrice(sellable('8'))).toBe('8');
    expect(activePrice(sellable('12'))).toBe('10');
  });
});

describe('variable products', () => {
  it('show the lowest published variation price, are on sale when a variation is, name variations by option', () => {
    const store = makeStore();
    const parent = product(store, '', undefined, { type: 'variable', name: 'Shirt' });
    const small = createVariation(store, parent, {
      regular_price: '20',
      attributes: [{ name: 'Size', option: 'Small' }],
    });
    createVariation(store, parent, { regular_price: '15', status: 'private' });
    createVariation(store, parent, { regular_price: '18', sale_price: '16' });
    expect(productPrice(store, parent)).toBe('16');
    expect(productOnSale(store, parent)).toBe(true);
    expect(variationName(store, small)).toBe('Shirt - Small');
    const cheapest = [...store.state.variations.values()].find((v) => v.sale_price === '16')!;
    deleteVariation(store, cheapest, false);
    expect(productPrice(store, parent)).toBe('20');
    expect(productOnSale(store, parent)).toBe(false);
  });
});

describe('SKUs', () => {
  it('are unique across products and variations, and the error proposes the next free one', () => {
    const store = makeStore();
    const a = product(store, '1', undefined, { sku: 'mug' });
    createVariation(store, a, { sku: 'mug-1' });
    let err: unknown;
    try {
      product(store, '1', undefined, { sku: 'mug' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RestError);
    expect((err as RestError).data).toEqual({ status: 400, resource_id: a.id, unique_sku: 'mug-2' });
  });
});
