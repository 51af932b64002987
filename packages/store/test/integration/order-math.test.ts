/**
 * An order with a coupon and taxes enabled, end to end through @x/store against the sandbox: settings, a tax
 * rate and a coupon set up with the client, then the order and a refund of part of it.
 *
 * Figures worked by hand from WooCommerce's code (woocommerce/woocommerce, plugins/woocommerce/includes):
 * WC_REST_Orders_Controller::calculate_coupons() (v3) → WC_Abstract_Order::apply_coupon() → WC_Discounts::
 * apply_coupon_percent() (per-line discounts floored in cents, then apply_coupon_remainder() gives out the cents
 * the whole cart would have had, wc_round_discount() being PHP_ROUND_HALF_DOWN) → recalculate_coupons() →
 * calculate_totals(): WC_Order_Item::calculate_taxes() with WC_Tax::calc_exclusive_tax(), each rate rounded by
 * wc_round_tax_total() in the items' set_taxes(), tax lines from update_taxes(); the refund is wc_create_refund()
 * with `refund_tax`. The same order through the official client is in the sandbox's contract suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, type StoreClient, ValidationError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
let store: StoreClient;
let rateId: number;
let lamp: number;
let mug: number;

const address = { first_name: 'Ann', city: 'Beverly Hills', state: 'CA', postcode: '90210', country: 'US' };

beforeAll(async () => {
  box = await sandbox({ store: { seed: 'none' } });
  store = clientFor(box);
  await store.settings.update('general', 'woocommerce_calc_taxes', { value: 'yes' });
  rateId = (
    await store.taxes.create({ country: 'US', state: 'CA', rate: '7.25', name: 'CA Tax', shipping: true })
  ).id;
  await store.coupons.create({ code: 'TEN', discount_type: 'percent', amount: '10' });
  await store.coupons.create({
    code: 'BIG',
    discount_type: 'fixed_cart',
    amount: '5',
    minimum_amount: '100.00',
  });
  lamp = (await store.products.create({ name: 'Lamp', regular_price: '19.99' })).id;
  mug = (await store.products.create({ name: 'Mug', regular_price: '4.50' })).id;
});
afterAll(() => box.close());

const order = () =>
  store.orders.create({
    billing: { ...address, email: 'ann@example.com' },
    shipping: address,
    line_items: [
      { product_id: lamp, quantity: 3 },
      { product_id: mug, quantity: 1 },
    ],
    shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
    coupon_lines: [{ code: 'ten' }],
  });

describe('an order with a 10% coupon and 7.25% tax', () => {
  it('has WooCommerce’s discount, taxes and totals', async () => {
    const o = await order();
    expect(o.line_items.map((l) => [l.subtotal, l.total, l.subtotal_tax, l.total_tax])).toEqual([
      ['59.97', '53.97', '4.35', '3.91'],
      ['4.50', '4.05', '0.33', '0.29'],
    ]);
    expect(o.tax_lines).toEqual([
      expect.objectContaining({
        rate_id: rateId,
        label: 'CA Tax',
        tax_total: '4.20',
        shipping_tax_total: '0.36',
      }),
    ]);
    expect(o.coupon_lines).toEqual([
      expect.objectContaining({
        code: 'ten',
        discount: '6.45',
        discount_tax: '0.47',
        discount_type: 'percent',
      }),
    ]);
    expect([o.discount_total, o.discount_tax, o.cart_tax, o.shipping_tax, o.total_tax, o.total]).toEqual([
      '6.45',
      '0.47',
      '4.20',
      '0.36',
      '4.56',
      '67.58',
    ]);
  });

  it('refunds a lamp with its tax; the refund names the rate and the order lists it', async () => {
    const o = await order();
    const refund = await store.orders.refunds.createManual(o.id, {
      line_items: [
        {
          id: o.line_items[0]!.id,
          quantity: 1,
          refund_total: '17.99',
          refund_tax: [{ id: rateId, refund_total: '1.30' }],
        },
      ],
    });
    expect(refund.amount).toBe('19.29');
    expect(refund.line_items[0]).toMatchObject({ quantity: -1, total: '-17.99', total_tax: '-1.30' });
    expect(refund.tax_lines).toEqual([expect.objectContaining({ rate_id: rateId, tax_total: '-1.30' })]);
    expect((await store.orders.get(o.id)).refunds).toEqual([{ id: refund.id, reason: '', total: '-19.29' }]);
  });

  it('a coupon the order does not qualify for is a BadRequestError naming the reason; nothing is created', async () => {
    const before = (await store.orders.list()).total;
    const err = await store.orders
      .create({ line_items: [{ product_id: mug, quantity: 1 }], coupon_lines: [{ code: 'big' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, code: 'woocommerce_rest_invalid_coupon' });
    expect((err as Error).message).toContain('The minimum spend for this coupon is');
    expect((await store.orders.list()).total).toBe(before);
  });

  it('refuses a coupon line with an id or a blank code before sending anything', async () => {
    const before = box.store.stats().requests;
    await expect(store.orders.create({ coupon_lines: [{ code: ' ' }] })).rejects.toThrow(ValidationError);
    await expect(store.orders.create({ coupon_lines: [{ id: 3, code: 'ten' } as never] })).rejects.toThrow(
      /coupon_lines\.0\.id: coupon line ids are read-only/,
    );
    expect(box.store.stats().requests).toBe(before);
  });
});
