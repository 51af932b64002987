/** Order totals and line pricing, straight on the model. */
import { describe, expect, it } from 'vitest';
import { createOrder, updateOrder } from '../../src/store/orders/orders.js';
import { makeStore, product } from '../helpers/model.js';

describe('calculate_totals() without taxes or coupons', () => {
  it('adds items, shipping and fees; the discount is what line totals take off their subtotals', () => {
    const store = makeStore();
    const a = product(store, '40');
    const b = product(store, '5');
    const o = createOrder(store, {
      line_items: [
        { product_id: a.id, quantity: 1, total: '30' },
        { product_id: b.id, quantity: 1 },
      ],
      shipping_lines: [
        { method_id: 'flat_rate', total: '4.5' },
        { method_id: 'flat_rate', total: '0.5' },
      ],
      fee_lines: [
        { name: 'Wrap', total: '2' },
        { name: 'Goodwill', total: '-1' },
      ],
    });
    expect(o.shipping_total).toBe(5);
    expect(o.discount_total).toBe(10);
    expect(o.total).toBe(41);
  });

  it('rounds the total to cents (0.1 + 0.2 is 0.3, not 0.30000000000000004)', () => {
    const store = makeStore();
    const o = createOrder(store, {
      line_items: [{ product_id: product(store, '0.1').id, quantity: 1 }],
      shipping_lines: [{ method_id: 'flat_rate', total: '0.2' }],
    });
    expect(o.total).toBe(0.3);
  });

  it('is zero for an empty order', () => {
    const o = createOrder(makeStore(), {});
    expect([o.total, o.shipping_total, o.discount_total, o.total_tax]).toEqual([0, 0, 0, 0]);
  });
});

describe('line pricing', () => {
  it('prices new lines from the active price, sale included; a new quantity keeps the line total (prepare_line_items() prices on create only)', () => {
    const store = makeStore();
    const lamp = product(store, '40.00');
    const sale = product(store, '10', undefined, { sale_price: '7.5' });
    const o = createOrder(store, {
      line_items: [
        { product_id: lamp.id, quantity: 3 },
        { product_id: sale.id, quantity: 2 },
      ],
      shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
      fee_lines: [{ name: 'Gift wrap', total: '1.25' }],
    });
    expect(o.line_items.map((l) => [l.subtotal, l.total])).toEqual([
      [120, 120],
      [15, 15],
    ]);
    expect(o.total).toBe(141.25);
    updateOrder(store, o, { line_items: [{ id: o.line_items[0]!.id, quantity: 1 }] });
    expect([o.line_items[0]!.quantity, o.line_items[0]!.total]).toEqual([1, 120]);
    updateOrder(store, o, { line_items: [{ id: o.line_items[0]!.id, total: '40.00', subtotal: '40.00' }] });
    expect(o.total).toBe(61.25);
  });

  it('keeps a given line total (a discount) and reports it as discount_total', () => {
    const store = makeStore();
    const p = product(store, '20');
    const o = createOrder(store, { line_items: [{ product_id: p.id, quantity: 2, total: '30.00' }] });
    expect(o.total).toBe(30);
    expect(o.discount_total).toBe(10);
  });

  it('removes a line whose other fields are all null or 0', () => {
    const store = makeStore();
    const a = product(store, '3');
    const b = product(store, '4');
    const o = createOrder(store, {
      line_items: [
        { product_id: a.id, quantity: 1 },
        { product_id: b.id, quantity: 1 },
      ],
    });
    updateOrder(store, o, { line_items: [{ id: o.line_items[0]!.id, quantity: 0 }] });
    expect(o.line_items.map((l) => l.product_id)).toEqual([b.id]);
    expect(o.total).toBe(4);
  });
});
