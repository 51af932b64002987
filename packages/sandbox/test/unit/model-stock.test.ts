/** Stock rules: WooCommerce's stock status and the order status hooks that move stock and sales. */
import { describe, expect, it } from 'vitest';
import { syncStockStatus } from '../../src/store/catalog/stock.js';
import { createVariation } from '../../src/store/catalog/variations.js';
import { createCustomer } from '../../src/store/customers/customers.js';
import { createOrder, updateOrder } from '../../src/store/orders/orders.js';
import { makeStore, product } from '../helpers/model.js';

describe('syncStockStatus', () => {
  const status = (manage_stock: boolean | 'parent', stock_quantity: number | null, backorders = 'no') => {
    const p = { manage_stock, stock_quantity, backorders, stock_status: 'untouched' };
    syncStockStatus(p);
    return p.stock_status;
  };

  it('derives the status from a managed quantity: in stock above 0, else out of stock or on backorder', () => {
    expect(status(true, 3)).toBe('instock');
    expect(status(true, 0)).toBe('outofstock');
    expect(status(true, -2)).toBe('outofstock');
    expect(status(true, null)).toBe('outofstock');
    expect(status(true, 0, 'notify')).toBe('onbackorder');
    expect(status(true, -1, 'yes')).toBe('onbackorder');
  });

  it('leaves the status alone when stock is not managed (or managed by the parent)', () => {
    expect(status(false, 0)).toBe('untouched');
    expect(status('parent', 0)).toBe('untouched');
  });
});

describe('order status moves stock', () => {
  const stockOf = (store: ReturnType<typeof makeStore>, id: number) =>
    store.state.products.get(id)!.stock_quantity;

  it('a pending order leaves stock alone; processing takes the ordered quantity, cancelled gives it back', () => {
    const store = makeStore();
    const lamp = product(store, '40.00', 10);
    const o = createOrder(store, { line_items: [{ product_id: lamp.id, quantity: 3 }] });
    expect(o.status).toBe('pending');
    expect(stockOf(store, lamp.id)).toBe(10);
    updateOrder(store, o, { status: 'processing' });
    expect(stockOf(store, lamp.id)).toBe(7);
    updateOrder(store, o, { status: 'cancelled' });
    expect(stockOf(store, lamp.id)).toBe(10);
  });

  it('reduces once across processing, on-hold and completed; pending and cancelled restore', () => {
    const store = makeStore();
    const p = product(store, '1', 5);
    const o = createOrder(store, { line_items: [{ product_id: p.id, quantity: 2 }] });
    const trail: (number | null)[] = [];
    for (const status of ['processing', 'completed', 'on-hold', 'pending', 'on-hold', 'cancelled']) {
      updateOrder(store, o, { status });
      trail.push(stockOf(store, p.id));
    }
    expect(trail).toEqual([3, 3, 3, 5, 3, 5]);
  });

  it('selling out marks the product out of stock, and unmanaged products never move', () => {
    const store = makeStore();
    const p = product(store, '1', 2);
    const free = product(store, '1');
    createOrder(store, {
      status: 'processing',
      line_items: [
        { product_id: p.id, quantity: 2 },
        { product_id: free.id, quantity: 9 },
      ],
    });
    expect(store.state.products.get(p.id)).toMatchObject({ stock_quantity: 0, stock_status: 'outofstock' });
    expect(store.state.products.get(free.id)).toMatchObject({
      stock_quantity: null,
      stock_status: 'instock',
    });
  });

  it('a variation that manages stock moves its own; one that does not moves a stock-managing parent', () => {
    const store = makeStore();
    const parent = product(store, '', 20, { type: 'variable' });
    const own = createVariation(store, parent, { regular_price: '5', manage_stock: true, stock_quantity: 4 });
    const inherits = createVariation(store, parent, { regular_price: '6' });
    createOrder(store, {
      status: 'processing',
      line_items: [
        { variation_id: own.id, quantity: 1 },
        { variation_id: inherits.id, quantity: 2 },
      ],
    });
    expect(store.state.variations.get(own.id)!.stock_quantity).toBe(3);
    expect(stockOf(store, parent.id)).toBe(18);
  });

  it('set_paid on create: processing (or completed when nothing needs processing), paid, stock taken', () => {
    const store = makeStore();
    const shipped = product(store, '7', 4);
    const ebook = product(store, '3', 4, { virtual: true, downloadable: true });
    const a = createOrder(store, { set_paid: true, line_items: [{ product_id: shipped.id, quantity: 1 }] });
    const b = createOrder(store, { set_paid: true, line_items: [{ product_id: ebook.id, quantity: 1 }] });
    expect([a.status, b.status]).toEqual(['processing', 'completed']);
    expect(a.date_paid).not.toBeNull();
    expect(b.date_completed).not.toBeNull();
    expect([stockOf(store, shipped.id), stockOf(store, ebook.id)]).toEqual([3, 3]);
  });

  it('records total_sales once and takes them back on cancel; completion marks a paying customer', () => {
    const store = makeStore();
    const p = product(store, '2');
    const c = createCustomer(store, { email: 'buyer@example.com' });
    const o = createOrder(store, { customer_id: c.id, line_items: [{ product_id: p.id, quantity: 4 }] });
    updateOrder(store, o, { status: 'processing' });
    updateOrder(store, o, { status: 'completed' });
    expect(store.state.products.get(p.id)!.total_sales).toBe(4);
    expect(store.state.customers.get(c.id)!.is_paying_customer).toBe(true);
    updateOrder(store, o, { status: 'cancelled' });
    expect(store.state.products.get(p.id)!.total_sales).toBe(0);
  });
});
