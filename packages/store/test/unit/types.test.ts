import { describe, expectTypeOf, it } from 'vitest';
import type {
  BatchResult,
  Order,
  OrderStatus,
  Page,
  PagePromise,
  Product,
  StoreClient,
  WebhookEvent,
} from '../../src/index.js';

describe('public types', () => {
  it('wire names and shapes as WooCommerce sends them', () => {
    expectTypeOf<Product['regular_price']>().toEqualTypeOf<string>();
    expectTypeOf<Product['stock_quantity']>().toEqualTypeOf<number | null>();
    expectTypeOf<Order['line_items'][number]['price']>().toEqualTypeOf<number>();
    expectTypeOf<'processing'>().toExtend<OrderStatus>();
    // Open enums: a status a plugin adds still type-checks.
    expectTypeOf<'wc-custom'>().toExtend<OrderStatus>();
  });

  it('resource methods', () => {
    type Store = StoreClient;
    expectTypeOf<ReturnType<Store['products']['list']>>().toEqualTypeOf<PagePromise<Product>>();
    expectTypeOf<Awaited<ReturnType<Store['products']['list']>>>().toEqualTypeOf<Page<Product>>();
    expectTypeOf<Awaited<ReturnType<Store['orders']['get']>>>().toEqualTypeOf<Order>();
    expectTypeOf<Awaited<ReturnType<Store['orders']['batch']>>>().toEqualTypeOf<BatchResult<Order>>();
    expectTypeOf<Parameters<Store['products']['create']>[0]['regular_price']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<
      Parameters<Store['orders']['refunds']['create']>[1]['api_refund']
    >().toEqualTypeOf<boolean>();
  });

  it('withOptions takes the store options and returns a StoreClient', () => {
    type Store = StoreClient;
    expectTypeOf<Parameters<Store['withOptions']>[0]['consumerKey']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Parameters<Store['withOptions']>[0]['timeout']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ReturnType<Store['withOptions']>>().toEqualTypeOf<StoreClient>();
    // @ts-expect-error a misspelt option is a type error
    expectTypeOf<Store['withOptions']>().toBeCallableWith({ timeot: 1 });
  });

  it('webhook events are discriminated by topic', () => {
    const narrow = (event: WebhookEvent) => {
      if (event.topic === 'order.created') expectTypeOf(event.payload).toEqualTypeOf<Order>();
      if (event.topic === 'product.deleted') expectTypeOf(event.payload).toEqualTypeOf<{ id: number }>();
    };
    expectTypeOf(narrow).toBeFunction();
  });
});
