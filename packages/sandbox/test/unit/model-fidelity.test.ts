/** Model rules that used to differ from WooCommerce/WordPress (issue 7, section 2), without sockets. */
import { describe, expect, it } from 'vitest';
import { createOrder } from '../../src/store/model/orders.js';
import { makeStore, product } from '../helpers/model.js';

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
