/**
 * Contract: an order with a coupon and taxes, set up and read through the official client
 * `@woocommerce/woocommerce-rest-api`, must come out with the totals a real WooCommerce store computes.
 *
 * The figures are worked by hand from WooCommerce's code (woocommerce/woocommerce, plugins/woocommerce/includes):
 * - WC_REST_Orders_Controller::save_object() (v3): calculate_totals() on create, then calculate_coupons(), which
 *   validates each code with WC_Discounts::is_coupon_valid() and applies it with WC_Abstract_Order::apply_coupon();
 * - WC_Discounts::apply_coupon_percent(): each line's discount floored in cents, then apply_coupon_remainder()
 *   hands out the cents the whole cart would have had (wc_round_discount, PHP_ROUND_HALF_DOWN) one at a time;
 * - WC_Order_Item::calculate_taxes() with WC_Tax::find_rates() / calc_exclusive_tax() (6 decimals), the items'
 *   set_taxes() rounding each rate with wc_round_tax_total(), WC_Abstract_Order::update_taxes() (tax lines) and
 *   calculate_totals() (discount_total, discount_tax, total);
 * - set_coupon_discount_amounts(): the coupon line's discount and the tax it took off;
 * - wc_create_refund() with `refund_tax`: negative line taxes and a refund tax line (WC_Order_Refund::update_taxes()).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true },
  { name: 'plain HTTP with OAuth 1.0a', https: false },
] as const;

const CA = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Main St',
  city: 'Beverly Hills',
  state: 'CA',
  postcode: '90210',
  country: 'US',
};

describe.each(transports)(
  'an order with a coupon and taxes, through the official client over $name',
  (transport) => {
    let sandbox: Sandbox;
    let api: WooCommerceRestApi;
    let lamp: number;
    let mug: number;
    let rateId: number;

    beforeAll(async () => {
      ({ sandbox, api } = await storeWithOfficialClient({ https: transport.https }));
      expect((await api.put('settings/general/woocommerce_calc_taxes', { value: 'yes' })).data.value).toBe(
        'yes',
      );
      const rate = await api.post('taxes', {
        country: 'US',
        state: 'CA',
        rate: '7.25',
        name: 'CA Tax',
        shipping: true,
      });
      rateId = rate.data.id;
      await api.post('coupons', { code: 'TEN', discount_type: 'percent', amount: '10' });
      await api.post('coupons', {
        code: 'OLD',
        discount_type: 'percent',
        amount: '5',
        date_expires: '2020-01-01T00:00:00',
      });
      lamp = (await api.post('products', { name: 'Lamp', regular_price: '19.99' })).data.id;
      mug = (await api.post('products', { name: 'Mug', regular_price: '4.50' })).data.id;
    });

    afterAll(async () => {
      await sandbox?.close();
    });

    const createOrder = () =>
      api.post('orders', {
        billing: { ...CA, email: 'ann@example.com' },
        shipping: CA,
        line_items: [
          { product_id: lamp, quantity: 3 },
          { product_id: mug, quantity: 1 },
        ],
        shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
        coupon_lines: [{ code: 'TEN' }],
      });

    it('has the discount, line taxes, tax lines and totals WooCommerce computes', async () => {
      const { status, data: o } = await createOrder();
      expect(status).toBe(201);
      // 3 × 19.99 = 59.97 and 4.50: 10% floored per line is 5.99 and 0.45, the cart's 6.45 leaves a cent for the lamp.
      expect(o.line_items.map((l: any) => [l.subtotal, l.total])).toEqual([
        ['59.97', '53.97'],
        ['4.50', '4.05'],
      ]);
      // 7.25% of 53.97 is 3.912825 (3.91), of 4.05 is 0.293625 (0.29); the raw 6-decimal figures are the `taxes`.
      expect(o.line_items.map((l: any) => [l.subtotal_tax, l.total_tax])).toEqual([
        ['4.35', '3.91'],
        ['0.33', '0.29'],
      ]);
      expect(o.line_items[0].taxes).toEqual([{ id: rateId, total: '3.912825', subtotal: '4.347825' }]);
      expect(o.shipping_lines[0]).toMatchObject({
        total: '5.00',
        total_tax: '0.36',
        taxes: [{ id: rateId, total: '0.3625' }],
      });
      expect(o.tax_lines).toEqual([
        expect.objectContaining({
          rate_code: 'US-CA-CA TAX-1',
          rate_id: rateId,
          label: 'CA Tax',
          compound: false,
          tax_total: '4.20',
          shipping_tax_total: '0.36',
          rate_percent: 7.25,
        }),
      ]);
      expect(o.coupon_lines).toEqual([
        expect.objectContaining({
          code: 'ten',
          discount: '6.45',
          discount_tax: '0.47',
          discount_type: 'percent',
          nominal_amount: 10,
          free_shipping: false,
        }),
      ]);
      expect(o).toMatchObject({
        discount_total: '6.45',
        discount_tax: '0.47',
        shipping_total: '5.00',
        shipping_tax: '0.36',
        cart_tax: '4.20',
        total_tax: '4.56',
        total: '67.58',
        prices_include_tax: false,
      });
      // The coupon counts one use, by the guest's billing email.
      const coupon = (await api.get('coupons', { code: 'ten' })).data[0];
      expect(coupon.usage_count).toBeGreaterThanOrEqual(1);
      expect(coupon.used_by).toContain('ann@example.com');
    });

    it('refunds one lamp with its tax: negative line taxes, a refund tax line, and the order keeps its totals', async () => {
      const { data: o } = await createOrder();
      const lampLine = o.line_items[0];
      const res = await api.post(`orders/${o.id}/refunds`, {
        api_refund: false,
        reason: 'one lamp broken',
        line_items: [
          {
            id: lampLine.id,
            quantity: 1,
            refund_total: '17.99',
            refund_tax: [{ id: rateId, refund_total: '1.30' }],
          },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.data.amount).toBe('19.29');
      expect(res.data.line_items[0]).toMatchObject({
        quantity: -1,
        total: '-17.99',
        total_tax: '-1.30',
        taxes: [{ id: rateId, total: '-1.3' }],
      });
      expect(res.data.tax_lines).toEqual([expect.objectContaining({ rate_id: rateId, tax_total: '-1.30' })]);
      const after = (await api.get(`orders/${o.id}`)).data;
      expect(after.refunds).toEqual([{ id: res.data.id, reason: 'one lamp broken', total: '-19.29' }]);
      expect(after.total).toBe('67.58');
    });

    it('answers an unknown, expired or read-only coupon line with WooCommerce’s 400s, creating nothing', async () => {
      const count = async () => Number((await api.get('orders')).headers['x-wp-total']);
      const before = await count();
      const order = (coupon: Record<string, unknown>) =>
        api.post('orders', {
          billing: CA,
          line_items: [{ product_id: mug, quantity: 1 }],
          coupon_lines: [coupon],
        });
      const unknown = await failure(order({ code: 'NOPE' }));
      expect([unknown.status, unknown.data.code, unknown.data.message]).toEqual([
        400,
        'woocommerce_rest_invalid_coupon',
        'Coupon "nope" does not exist!',
      ]);
      const expired = await failure(order({ code: 'old' }));
      expect([expired.status, expired.data.code, expired.data.message]).toEqual([
        400,
        'woocommerce_rest_invalid_coupon',
        'This coupon has expired.',
      ]);
      const readonly = await failure(order({ id: 12, code: 'ten' }));
      expect([readonly.status, readonly.data.code, readonly.data.message]).toEqual([
        400,
        'woocommerce_rest_coupon_item_id_readonly',
        'Coupon item ID is readonly.',
      ]);
      expect(await count()).toBe(before);
    });

    it('removes the coupon with coupon_lines: [] and gives the use back', async () => {
      const { data: o } = await createOrder();
      const uses = async () => (await api.get('coupons', { code: 'ten' })).data[0].usage_count as number;
      const before = await uses();
      const { data: updated } = await api.put(`orders/${o.id}`, { coupon_lines: [] });
      expect(updated.coupon_lines).toEqual([]);
      expect(updated).toMatchObject({
        discount_total: '0.00',
        discount_tax: '0.00',
        cart_tax: '4.68',
        total: '74.51',
      });
      expect(await uses()).toBe(before - 1);
    });
  },
);
