/**
 * Coupons and taxes on orders, straight on the model, with figures worked by hand from WooCommerce's code:
 * WC_Discounts::apply_coupon_percent() / apply_coupon_fixed_cart() / apply_coupon_fixed_product() /
 * apply_coupon_remainder() (includes/class-wc-discounts.php), WC_Tax::calc_exclusive_tax() / calc_inclusive_tax()
 * / get_matched_tax_rates() (includes/class-wc-tax.php), WC_Abstract_Order::calculate_totals() / update_taxes() /
 * set_coupon_discount_amounts() (includes/abstracts/abstract-wc-order.php), wc_round_tax_total() and
 * WC_DISCOUNT_ROUNDING_MODE = PHP_ROUND_HALF_DOWN.
 */
import { describe, expect, it } from 'vitest';
import type { CouponRec, TaxRateRec } from '../../src/store/data/rows.js';
import type { Store } from '../../src/store/data/store.js';
import { createOrder, updateOrder } from '../../src/store/orders/orders.js';
import { createRefund } from '../../src/store/orders/refunds.js';
import { blankCoupon } from '../../src/store/pricing/coupons.js';
import type { RestError } from '../../src/store/runtime/errors.js';
import { makeStore, product } from '../helpers/model.js';

function option(store: Store, name: string, value: string): void {
  const row = [...store.state.options.values()].find((o) => o.name === name);
  if (row) row.value = value;
  else
    store.state.options.set(store.state.options.size + 1, { id: store.state.options.size + 1, name, value });
}

function rate(store: Store, fields: Partial<TaxRateRec>): TaxRateRec {
  const id = store.state.tax_rates.size + 1;
  const r: TaxRateRec = {
    id,
    country: 'US',
    state: 'CA',
    postcodes: [],
    cities: [],
    rate: '7.2500',
    name: 'CA Tax',
    priority: 1,
    compound: false,
    shipping: true,
    order: 0,
    class: '',
    ...fields,
  };
  store.state.tax_rates.set(id, r);
  return r;
}

function coupon(store: Store, fields: Partial<CouponRec>): CouponRec {
  const id = 500 + store.state.coupons.size;
  const c: CouponRec = { ...blankCoupon(id, 0), code: `c${id}`, ...fields };
  store.state.coupons.set(id, c);
  return c;
}

const CA = { country: 'US', state: 'CA', postcode: '90210', city: 'Beverly Hills' };

/** 3 × 19.99 and 1 × 4.50, shipped to California for 5.00, with taxes on at 7.25% (shipping taxed too). */
function taxedStore() {
  const store = makeStore();
  option(store, 'woocommerce_calc_taxes', 'yes');
  rate(store, {});
  const lamp = product(store, '19.99');
  const mug = product(store, '4.50');
  return { store, lamp, mug };
}

describe('a 10% coupon on a taxed order', () => {
  it('floors each item discount, gives the rounding remainder a cent at a time, and taxes what is left', () => {
    const { store, lamp, mug } = taxedStore();
    const tenOff = coupon(store, { code: 'ten', discount_type: 'percent', amount: '10' });
    const o = createOrder(store, {
      billing: { ...CA, email: 'ann@example.com' },
      shipping: CA,
      line_items: [
        { product_id: lamp.id, quantity: 3 },
        { product_id: mug.id, quantity: 1 },
      ],
      shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
      coupon_lines: [{ code: 'TEN' }],
    });
    // floor(5997 × 10%) = 599 and floor(450 × 10%) = 45 cents; the cart as a whole would get
    // round_half_down(6447 × 10%) = 645, so the remainder's one cent goes to the dearest line.
    expect(o.line_items.map((l) => [l.subtotal, l.total])).toEqual([
      [59.97, 53.97],
      [4.5, 4.05],
    ]);
    // 53.97 × 7.25% = 3.912825 → 3.91; 4.05 × 7.25% = 0.293625 → 0.29; shipping 5.00 × 7.25% = 0.3625 → 0.36.
    expect(o.line_items.map((l) => [l.subtotal_tax, l.total_tax])).toEqual([
      [4.35, 3.91],
      [0.33, 0.29],
    ]);
    expect(o.line_items[0]!.taxes.total).toEqual({ '1': 3.912825 });
    expect([o.cart_tax, o.shipping_tax, o.total_tax]).toEqual([4.2, 0.36, 4.56]);
    expect(o.discount_total).toBe(6.45);
    // (4.347825 + 0.32625) − (3.912825 + 0.293625) = 0.467625 → 0.47.
    expect(o.discount_tax).toBe(0.47);
    expect(o.total).toBe(67.58);
    expect(o.coupon_lines).toMatchObject([{ code: 'ten', discount: 6.45, discount_tax: 0.47 }]);
    expect(o.tax_lines).toMatchObject([
      { rate_id: 1, rate_code: 'US-CA-CA TAX-1', label: 'CA Tax', tax_total: 4.2, shipping_tax_total: 0.36 },
    ]);
    // Applying it counted one use, by the guest's billing email.
    expect([tenOff.usage_count, tenOff.used_by]).toEqual([1, ['ann@example.com']]);
  });

  it('refunds one lamp with its tax: the refund carries negative line taxes and a tax line', () => {
    const { store, lamp } = taxedStore();
    const o = createOrder(store, {
      billing: CA,
      line_items: [{ product_id: lamp.id, quantity: 3 }],
      set_paid: true,
    });
    const r = createRefund(store, o, {
      api_refund: false,
      line_items: [
        {
          id: o.line_items[0]!.id,
          quantity: 1,
          refund_total: 19.99,
          refund_tax: [{ id: 1, refund_total: 1.45 }],
        },
      ],
    });
    expect(r.amount).toBeCloseTo(21.44, 10);
    expect(r.line_items[0]).toMatchObject({
      quantity: -1,
      total: -19.99,
      total_tax: -1.45,
      taxes: { total: { '1': -1.45 } },
    });
    expect(r.tax_lines).toMatchObject([{ rate_id: 1, tax_total: -1.45 }]);
  });
});

describe('fixed coupons', () => {
  it('fixed_cart splits the amount per unit, whole cents first (absint(1000 / 4) = 250)', () => {
    const { store, lamp, mug } = taxedStore();
    coupon(store, { code: 'tenner', discount_type: 'fixed_cart', amount: '10' });
    const o = createOrder(store, {
      line_items: [
        { product_id: lamp.id, quantity: 3 },
        { product_id: mug.id, quantity: 1 },
      ],
      coupon_lines: [{ code: 'tenner' }],
    });
    expect(o.line_items.map((l) => l.total)).toEqual([52.47, 2]);
    expect(o.discount_total).toBe(10);
  });

  it('fixed_product with limit_usage_to_x_items discounts only that many units, dearest line first', () => {
    const { store, lamp, mug } = taxedStore();
    coupon(store, { code: 'two', discount_type: 'fixed_product', amount: '1', limit_usage_to_x_items: 2 });
    const o = createOrder(store, {
      line_items: [
        { product_id: mug.id, quantity: 1 },
        { product_id: lamp.id, quantity: 3 },
      ],
      coupon_lines: [{ code: 'two' }],
    });
    expect(o.line_items.map((l) => l.total)).toEqual([4.5, 57.97]);
  });
});

describe('coupon errors (woocommerce_rest_invalid_coupon, 400)', () => {
  const attempt = (store: Store, code: string, lines: Record<string, unknown>[]) => {
    try {
      createOrder(store, { line_items: lines, coupon_lines: [{ code }] });
    } catch (err) {
      return err as RestError;
    }
    throw new Error('expected the order to be refused');
  };

  it('names an unknown, expired, used-up or under-spent coupon, and leaves no order behind', () => {
    const { store, mug } = taxedStore();
    coupon(store, { code: 'old', discount_type: 'percent', amount: '5', date_expires: Date.now() - 1000 });
    coupon(store, { code: 'once', discount_type: 'percent', amount: '5', usage_limit: 1, usage_count: 1 });
    coupon(store, { code: 'big', discount_type: 'percent', amount: '5', minimum_amount: '50.00' });
    const line = [{ product_id: mug.id, quantity: 1 }];
    const before = store.state.orders.size;
    expect(attempt(store, 'nope', line)).toMatchObject({
      status: 400,
      code: 'woocommerce_rest_invalid_coupon',
      message: 'Coupon "nope" does not exist!',
    });
    expect(attempt(store, 'old', line).message).toBe('This coupon has expired.');
    expect(attempt(store, 'once', line).message).toBe(
      'Usage limit for coupon &quot;once&quot; has been reached.',
    );
    expect(attempt(store, 'big', line).message).toBe(
      'The minimum spend for this coupon is <span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#36;</span>50.00</bdi></span>.',
    );
    expect(store.state.orders.size).toBe(before);
  });

  it('refuses a coupon line with an id (read-only) and a blank code', () => {
    const { store, mug } = taxedStore();
    const line = [{ product_id: mug.id, quantity: 1 }];
    expect(() => createOrder(store, { line_items: line, coupon_lines: [{ id: 3, code: 'x' }] })).toThrow(
      'Coupon item ID is readonly.',
    );
    expect(attempt(store, ' ', line).message).toBe('Coupon code is required.');
  });
});

describe('tax settings', () => {
  it('compound rates apply on top of the others (calc_exclusive_tax)', () => {
    const store = makeStore();
    option(store, 'woocommerce_calc_taxes', 'yes');
    rate(store, { country: 'CA', state: 'QC', rate: '5.0000', name: 'GST', priority: 1 });
    rate(store, { country: 'CA', state: 'QC', rate: '10.0000', name: 'QST', priority: 2, compound: true });
    const o = createOrder(store, {
      billing: { country: 'CA', state: 'QC' },
      line_items: [{ product_id: product(store, '100').id, quantity: 1 }],
    });
    expect(o.line_items[0]!.taxes.total).toEqual({ '1': 5, '2': 10.5 });
    expect(o.total).toBe(115.5);
  });

  it('one rate per priority: a postcode-specific rate wins over the state-wide one', () => {
    const store = makeStore();
    option(store, 'woocommerce_calc_taxes', 'yes');
    rate(store, { rate: '7.2500' });
    rate(store, { rate: '9.5000', name: 'LA', postcodes: ['900*'] });
    const order = (postcode: string) =>
      createOrder(store, {
        billing: { ...CA, postcode },
        line_items: [{ product_id: product(store, '10').id, quantity: 1 }],
      });
    expect(order('90012').total_tax).toBe(0.95);
    expect(order('94105').total_tax).toBe(0.73);
  });

  it('rounds per line, or once at the subtotal when woocommerce_tax_round_at_subtotal is yes', () => {
    const lines = (store: Store) =>
      [1, 2].map(() => ({ product_id: product(store, '3.33').id, quantity: 1 }));
    const perLine = makeStore();
    option(perLine, 'woocommerce_calc_taxes', 'yes');
    rate(perLine, { rate: '10.0000' });
    expect(createOrder(perLine, { billing: CA, line_items: lines(perLine) }).total_tax).toBe(0.66);
    const atSubtotal = makeStore();
    option(atSubtotal, 'woocommerce_calc_taxes', 'yes');
    option(atSubtotal, 'woocommerce_tax_round_at_subtotal', 'yes');
    rate(atSubtotal, { rate: '10.0000' });
    expect(createOrder(atSubtotal, { billing: CA, line_items: lines(atSubtotal) }).total_tax).toBe(0.67);
  });

  it('prices entered with tax: the base rate comes off the line price (wc_get_price_excluding_tax)', () => {
    const store = makeStore();
    option(store, 'woocommerce_calc_taxes', 'yes');
    option(store, 'woocommerce_prices_include_tax', 'yes');
    option(store, 'woocommerce_default_country', 'GB');
    rate(store, { country: 'GB', state: '', rate: '20.0000', name: 'VAT' });
    const o = createOrder(store, {
      billing: { country: 'GB' },
      line_items: [{ product_id: product(store, '12.00').id, quantity: 1 }],
    });
    expect(o.prices_include_tax).toBe(true);
    expect([o.line_items[0]!.total, o.total_tax, o.total]).toEqual([10, 2, 12]);
  });

  it('with taxes off there are no tax lines, and turning them off removes them on the next recalculation', () => {
    const { store, mug } = taxedStore();
    const o = createOrder(store, { billing: CA, line_items: [{ product_id: mug.id, quantity: 2 }] });
    expect(o.tax_lines).toHaveLength(1);
    option(store, 'woocommerce_calc_taxes', 'no');
    updateOrder(store, o, { billing: CA });
    expect([o.tax_lines, o.total_tax, o.total]).toEqual([[], 0, 9]);
  });
});

describe('fees, pickup, postcodes and refunds of shipping', () => {
  it('a negative fee takes its share of tax (WC_Order_Item_Fee::calculate_taxes() over get_tax_class_costs())', () => {
    const { store, mug } = taxedStore();
    const o = createOrder(store, {
      billing: CA,
      line_items: [{ product_id: mug.id, quantity: 2 }],
      shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
      fee_lines: [{ name: 'Loyalty', total: '-2.00' }],
    });
    // Items 9.00 and shipping 5.00 are all standard class: the whole -2.00 is taxed at 7.25% = -0.145 → -0.15.
    expect(o.fee_lines[0]).toMatchObject({ total: -2, total_tax: -0.15, taxes: { total: { '1': -0.145 } } });
    expect([o.cart_tax, o.shipping_tax, o.total]).toEqual([0.5, 0.36, 12.86]);
  });

  it('local pickup (including the blocks’ pickup_location) is taxed at the shop’s address', () => {
    const store = makeStore();
    option(store, 'woocommerce_calc_taxes', 'yes');
    rate(store, { rate: '7.2500' });
    rate(store, { state: 'NY', rate: '4.0000', name: 'NY Tax' });
    const ny = { country: 'US', state: 'NY', postcode: '10001', city: 'New York' };
    const order = (method: string) =>
      createOrder(store, {
        billing: ny,
        shipping: ny,
        line_items: [{ product_id: product(store, '10').id, quantity: 1 }],
        shipping_lines: [{ method_id: method, total: '0' }],
      });
    expect(order('flat_rate').cart_tax).toBe(0.4);
    expect(order('pickup_location').cart_tax).toBe(0.73);
    expect(order('local_pickup').cart_tax).toBe(0.73);
  });

  it('postcode ranges with letters compare on wc_make_numeric_postcode() codes', () => {
    const store = makeStore();
    option(store, 'woocommerce_calc_taxes', 'yes');
    rate(store, { country: 'CA', state: '', rate: '10.0000', name: 'Range', postcodes: ['H2A...H2Z'] });
    const taxFor = (postcode: string) =>
      createOrder(store, {
        billing: { country: 'CA', state: 'QC', postcode },
        line_items: [{ product_id: product(store, '10').id, quantity: 1 }],
      }).total_tax;
    expect(taxFor('H2B 1A1')).toBe(1);
    expect(taxFor('H3A 1A1')).toBe(0);
  });

  it('refunds shipping with its tax, and a tax for a rate that no longer exists is labelled "Tax" with no code', () => {
    const { store, mug } = taxedStore();
    const o = createOrder(store, {
      billing: CA,
      line_items: [{ product_id: mug.id, quantity: 1 }],
      shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
      set_paid: true,
    });
    const r = createRefund(store, o, {
      api_refund: false,
      line_items: [
        { id: o.shipping_lines[0]!.id, refund_total: '5.00', refund_tax: [{ id: 1, refund_total: '0.36' }] },
        { id: o.line_items[0]!.id, refund_total: '0', refund_tax: [{ id: 99, refund_total: '0.10' }] },
      ],
    });
    expect(r.amount).toBeCloseTo(5.46, 10);
    expect(r.shipping_lines).toMatchObject([
      { total: -5, total_tax: -0.36, refunded_item_id: o.shipping_lines[0]!.id },
    ]);
    expect(r.tax_lines).toEqual([
      expect.objectContaining({
        rate_id: 99,
        rate_code: '',
        label: 'Tax',
        tax_total: -0.1,
        shipping_tax_total: 0,
      }),
      expect.objectContaining({
        rate_id: 1,
        rate_code: 'US-CA-CA TAX-1',
        tax_total: 0,
        shipping_tax_total: -0.36,
      }),
    ]);
  });
});
