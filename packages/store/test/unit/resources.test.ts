import type { APIPromise } from '@x/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BatchResult,
  type OrderNote,
  type PagePromise,
  type Refund,
  StoreClient,
  type Term,
  type Variation,
} from '../../src/index.js';

const store = new StoreClient({ url: 'https://shop.example.com', consumerKey: 'ck', consumerSecret: 'cs' });

describe('resource surface', () => {
  it('declares every public method on the resource class itself, none only inherited', () => {
    const surface = {
      products: [store.products, ['create', 'get', 'update', 'delete', 'list', 'batch', 'sync']],
      'products.variations': [
        store.products.variations,
        ['create', 'get', 'update', 'delete', 'list', 'batch'],
      ],
      'products.categories': [
        store.products.categories,
        ['create', 'get', 'update', 'delete', 'list', 'batch'],
      ],
      'products.tags': [store.products.tags, ['create', 'get', 'update', 'delete', 'list', 'batch']],
      orders: [store.orders, ['create', 'get', 'update', 'delete', 'list', 'batch', 'sync']],
      'orders.notes': [store.orders.notes, ['create', 'get', 'delete', 'list']],
      'orders.refunds': [store.orders.refunds, ['create', 'createManual', 'get', 'delete', 'list']],
      customers: [store.customers, ['create', 'get', 'update', 'delete', 'list', 'batch', 'sync']],
      webhooks: [
        store.webhooks,
        ['create', 'get', 'update', 'delete', 'list', 'batch', 'health', 'reenable', 'catchUp'],
      ],
    } as const;
    for (const [name, [resource, methods]] of Object.entries(surface)) {
      const prototype = Object.getPrototypeOf(resource);
      expect(Object.getPrototypeOf(prototype), name).toBe(Object.prototype);
      expect(
        Object.getOwnPropertyNames(prototype)
          .filter((key) => key !== 'constructor')
          .sort(),
        name,
      ).toEqual([...methods].sort());
    }
  });

  it('nested resources return their own item types', () => {
    type Store = StoreClient;
    expectTypeOf<ReturnType<Store['orders']['notes']['list']>>().toEqualTypeOf<PagePromise<OrderNote>>();
    expectTypeOf<ReturnType<Store['orders']['refunds']['list']>>().toEqualTypeOf<PagePromise<Refund>>();
    expectTypeOf<ReturnType<Store['products']['categories']['get']>>().toEqualTypeOf<APIPromise<Term>>();
    expectTypeOf<Awaited<ReturnType<Store['products']['variations']['batch']>>>().toEqualTypeOf<
      BatchResult<Variation>
    >();
  });
});
