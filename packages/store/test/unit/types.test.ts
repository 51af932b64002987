import { describe, expectTypeOf, it } from 'vitest';
import type {
  BatchResult,
  ManualRefundInput,
  Order,
  OrderInput,
  OrderNote,
  OrderStatus,
  Page,
  PagePromise,
  Product,
  ProductInput,
  ProductListParams,
  RefundInput,
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

  it('inputs are exact: no index signature, so a misspelt field in an object literal is a type error', () => {
    type Store = StoreClient;
    expectTypeOf<string extends keyof ProductInput ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<string extends keyof OrderInput ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<string extends keyof ProductListParams ? true : false>().toEqualTypeOf<false>();
    // @ts-expect-error regular_prise is not a field
    expectTypeOf<Store['products']['create']>().toBeCallableWith({ regular_prise: '1.00' });
    expectTypeOf<Store['products']['create']>().toBeCallableWith({ regular_price: '1.00' });
    // @ts-expect-error nested: a line item has product_id, not product_di
    expectTypeOf<Store['orders']['create']>().toBeCallableWith({ line_items: [{ product_di: 1 }] });
    const batchItemsToo = (store: Store) => {
      // @ts-expect-error a batch update item is checked too
      void store.orders.batch({ update: [{ id: 1, customer_nte: 'x' }] });
    };
    expectTypeOf(batchItemsToo).toBeFunction();
    // @ts-expect-error money is a decimal string
    expectTypeOf<Store['products']['create']>().toBeCallableWith({ regular_price: 12 });
  });

  it('refunds: createManual takes every refund field but api_refund; refund totals are strings', () => {
    type Store = StoreClient;
    expectTypeOf<
      Parameters<Store['orders']['refunds']['createManual']>[1]
    >().toEqualTypeOf<ManualRefundInput>();
    expectTypeOf<ManualRefundInput['amount']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<string extends keyof ManualRefundInput ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<'api_refund' extends keyof ManualRefundInput ? true : false>().toEqualTypeOf<false>();
    type RefundLine = NonNullable<RefundInput['line_items']>[number];
    expectTypeOf<RefundLine['refund_total']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Awaited<ReturnType<Store['orders']['notes']['list']>>>().toEqualTypeOf<Page<OrderNote>>();
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
