/** Refund arithmetic and rules on the model: amounts, what is left, lines, restocking, the refunded status. */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/data/store.js';
import { createOrder } from '../../src/store/orders/orders.js';
import { createRefund, refundedTotal, remainingRefundable } from '../../src/store/orders/refunds.js';
import { RestError } from '../../src/store/runtime/errors.js';
import { makeStore, product } from '../helpers/model.js';

function paidOrder(store: Store, price: string, quantity: number, stock?: number) {
  const p = product(store, price, stock);
  const o = createOrder(store, {
    status: 'processing',
    payment_method: 'bacs',
    line_items: [{ product_id: p.id, quantity }],
  });
  return { p, o };
}

function refuse(fn: () => unknown): RestError {
  try {
    fn();
  } catch (err) {
    if (err instanceof RestError) return err;
    throw err;
  }
  throw new Error('expected a RestError');
}

describe('refund amounts', () => {
  it('partial refunds add up; what is left is rounded to cents', () => {
    const store = makeStore();
    const { o } = paidOrder(store, '0.1', 3);
    createRefund(store, o, { amount: '0.1', api_refund: false });
    createRefund(store, o, { amount: '0.1', api_refund: false });
    expect(refundedTotal(store, o)).toBeCloseTo(0.2, 10);
    expect(remainingRefundable(store, o)).toBe(0.1);
    expect(o.status).toBe('processing');
    createRefund(store, o, { amount: '0.1', api_refund: false });
    // 0.3 - (0.1 + 0.1 + 0.1) is -5.5e-17 in floating point; rounded to cents it is (minus) zero: nothing left.
    expect(remainingRefundable(store, o) === 0).toBe(true);
    expect(o.status).toBe('refunded');
    expect(() => createRefund(store, o, { amount: '0.01', api_refund: false })).toThrow(
      'Invalid refund amount.',
    );
  });

  it('refuses more than is left and negative amounts; a refund of 0 is recorded (0 > amount is the test)', () => {
    const store = makeStore();
    const { o } = paidOrder(store, '50', 2);
    createRefund(store, o, { amount: '60', api_refund: false });
    const over = refuse(() => createRefund(store, o, { amount: '40.01', api_refund: false }));
    expect([over.status, over.code, over.message, over.data]).toEqual([
      500,
      'woocommerce_rest_cannot_create_order_refund',
      'Invalid refund amount.',
      500,
    ]);
    // wc_create_refund(): `0 > $args['amount'] || $args['amount'] > $remaining_refund_amount` is what fails.
    expect(createRefund(store, o, { amount: '0', api_refund: false }).amount).toBe(0);
    expect(refuse(() => createRefund(store, o, { amount: '-1', api_refund: false })).code).toBe(
      'woocommerce_rest_invalid_order_refund',
    );
    expect(o.refund_ids).toHaveLength(2);
  });

  it('takes the amount from the line totals when none is given', () => {
    const store = makeStore();
    const { o } = paidOrder(store, '12', 3);
    const li = o.line_items[0]!;
    const r = createRefund(store, o, {
      api_refund: false,
      line_items: [{ id: li.id, quantity: 1, refund_total: '12.00' }],
    });
    expect(r.amount).toBe(12);
    expect(r.line_items).toMatchObject([
      { quantity: -1, subtotal: -12, total: -12, refunded_item_id: li.id },
    ]);
  });
});

describe('refund lines', () => {
  it('keep only lines of this order, keyed by id (a later entry for a line wins), stored negative', () => {
    // RestApiUtil::adjust_create_refund_request_parameters() keys line_items by id and sums every entry's
    // refund_total into the amount; wc_create_refund() then makes lines only for the order's own items.
    const store = makeStore();
    const { o } = paidOrder(store, '5', 4);
    const li = o.line_items[0]!;
    const r = createRefund(store, o, {
      api_refund: false,
      line_items: [
        { id: li.id, quantity: 1, refund_total: '1' },
        { id: 999_999, quantity: 1, refund_total: '1' },
        { id: li.id, quantity: 2.9, refund_total: '7.5' },
      ],
    });
    expect(r.amount).toBe(9.5);
    expect(r.line_items).toHaveLength(1);
    expect(r.line_items[0]).toMatchObject({ quantity: -2, total: -7.5, product_id: li.product_id });
  });
});

describe('refund side effects', () => {
  it('restocks the refunded quantities of an order whose stock was reduced', () => {
    const store = makeStore();
    const { p, o } = paidOrder(store, '10', 3, 10);
    expect(store.state.products.get(p.id)!.stock_quantity).toBe(7);
    createRefund(store, o, {
      api_refund: false,
      line_items: [{ id: o.line_items[0]!.id, quantity: 2, refund_total: '20' }],
    });
    expect(store.state.products.get(p.id)!.stock_quantity).toBe(9);
  });

  it('adds a system note and never reaches a gateway (api_refund defaults to true and fails)', () => {
    const store = makeStore();
    const { o } = paidOrder(store, '10', 1);
    const offline = refuse(() => createRefund(store, o, { amount: '1' }));
    expect(offline.message).toBe('The payment gateway for this order does not support automatic refunds.');
    o.payment_method = 'stripe';
    expect(refuse(() => createRefund(store, o, { amount: '1' })).message).toBe(
      'The payment gateway for this order does not exist.',
    );
    createRefund(store, o, { amount: '2.5', reason: 'scratched', api_refund: false });
    const notes = [...store.state.notes.values()].filter((n) => n.order_id === o.id);
    expect(notes.map((n) => n.note)).toEqual(['Refunded 2.50 \u2013 scratched']);
  });
});
