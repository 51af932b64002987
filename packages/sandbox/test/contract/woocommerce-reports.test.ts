/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` against /reports, following
 * WC_REST_Reports_Controller (v3 over V2/V1), WC_REST_Report_Sales_V1_Controller with the legacy
 * WC_Report_Sales_By_Date it runs, WC_REST_Report_Top_Sellers_V1_Controller, and the v3 totals controllers
 * (WC_REST_Report_{Orders,Products,Customers,Coupons,Reviews}_Totals_Controller).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const today = () => new Date().toISOString().slice(0, 10);

describe('official client, reports', () => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;
  let mug: { id: number };
  let hat: { id: number };

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({ https: true }));
    mug = (await api.post('products', { name: 'Mug', regular_price: '10.00' })).data;
    hat = (await api.post('products', { name: 'Hat', regular_price: '25.00' })).data;
    await api.post('orders', {
      status: 'completed',
      line_items: [{ product_id: mug.id, quantity: 3 }],
      shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
    });
    await api.post('orders', { status: 'processing', line_items: [{ product_id: hat.id, quantity: 1 }] });
    // Pending and cancelled orders are not sales.
    await api.post('orders', { status: 'pending', line_items: [{ product_id: hat.id, quantity: 9 }] });
    await api.post('orders', { status: 'cancelled', line_items: [{ product_id: mug.id, quantity: 9 }] });
    await api.post('customers', { email: 'report-buyer@example.com' });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('index: every report slug, the totals ones included', async () => {
    const res = await api.get('reports');
    expect(res.data.map((r: any) => r.slug)).toEqual([
      'sales',
      'top_sellers',
      'orders/totals',
      'products/totals',
      'customers/totals',
      'coupons/totals',
      'reviews/totals',
      'categories/totals',
      'tags/totals',
      'attributes/totals',
    ]);
    expect(res.data[0]._links.self[0].href).toMatch(/\/wp-json\/wc\/v3\/reports\/sales$/);
  });

  it('sales: today by default; completed + processing count, pending and cancelled do not', async () => {
    const res = await api.get('reports/sales');
    expect(res.data).toHaveLength(1);
    const report = res.data[0];
    // 3 x 10 + 5 shipping, and 25: total_sales includes shipping, net_sales does not.
    expect(report).toMatchObject({
      total_sales: '60.00',
      net_sales: '55.00',
      average_sales: '55.00',
      total_orders: 2,
      total_items: 4,
      total_tax: '0.00',
      total_shipping: '5.00',
      total_refunds: 0,
      total_discount: '0.00',
      totals_grouped_by: 'day',
      total_customers: 1,
    });
    expect(report.totals[today()]).toEqual({
      sales: '60.00',
      orders: 2,
      items: 4,
      tax: '0.00',
      shipping: '5.00',
      discount: '0.00',
      customers: 1,
    });
  });

  it('sales: period=week spreads over 7 days; a range in the past is empty', async () => {
    const week = (await api.get('reports/sales', { period: 'week' })).data[0];
    expect(Object.keys(week.totals)).toHaveLength(7);
    expect(week.total_orders).toBe(2);
    const past = (await api.get('reports/sales', { date_min: '2024-01-01', date_max: '2024-01-05' })).data[0];
    expect(past).toMatchObject({ total_sales: '0.00', total_orders: 0 });
    expect(Object.keys(past.totals)).toEqual([
      '2024-01-01',
      '2024-01-02',
      '2024-01-03',
      '2024-01-04',
      '2024-01-05',
    ]);
  });

  it('sales: a bad period or date is rest_invalid_param', async () => {
    const bad = await failure(api.get('reports/sales', { period: 'decade', date_min: '01/02/2024' }));
    expect(bad.status).toBe(400);
    expect(bad.data.code).toBe('rest_invalid_param');
    expect(bad.data.data.params).toEqual({
      period: 'period is not one of week, month, last_month, and year.',
      date_min: 'The date you provided is invalid.',
    });
  });

  it('top_sellers: quantities by product, most sold first', async () => {
    const res = await api.get('reports/top_sellers', { period: 'week' });
    expect(res.data.map((r: any) => [r.name, r.product_id, r.quantity])).toEqual([
      ['Mug', mug.id, 3],
      ['Hat', hat.id, 1],
    ]);
    expect(res.data[0]._links.product[0].href).toMatch(new RegExp(`/products/${mug.id}$`));
  });

  it('totals: orders by status, products by type, customers, coupons, reviews', async () => {
    const orders = (await api.get('reports/orders/totals')).data;
    expect(orders.find((r: any) => r.slug === 'completed')).toEqual({
      slug: 'completed',
      name: 'Completed',
      total: 1,
    });
    expect(orders.find((r: any) => r.slug === 'pending').total).toBe(1);
    const products = (await api.get('reports/products/totals')).data;
    expect(products.find((r: any) => r.slug === 'simple')).toEqual({
      slug: 'simple',
      name: 'Simple product',
      total: 2,
    });
    const customers = (await api.get('reports/customers/totals')).data;
    expect(customers).toEqual([
      { slug: 'paying', name: 'Paying customer', total: 0 },
      { slug: 'non_paying', name: 'Non-paying customer', total: 1 },
    ]);
    const coupons = (await api.get('reports/coupons/totals')).data;
    expect(coupons.map((r: any) => r.slug)).toEqual(['percent', 'fixed_cart', 'fixed_product']);
    const reviews = (await api.get('reports/reviews/totals')).data;
    expect(reviews[4]).toEqual({ slug: 'rated_5_out_of_5', name: 'Rated 5 out of 5', total: 0 });
  });

  it('sales: a partial refund made today subtracts its amount; a full refund the whole order', async () => {
    const orders = (await api.get('orders', { status: 'completed' })).data;
    const completed = orders[0];
    const partial = await api.post(`orders/${completed.id}/refunds`, { amount: '6.00', api_refund: false });
    expect(partial.status).toBe(201);
    let report = (await api.get('reports/sales')).data[0];
    // WC_Report_Sales_By_Date: total_sales = gross - refunds; total_refunds is the unformatted sum.
    expect(report).toMatchObject({
      total_sales: '54.00',
      net_sales: '49.00',
      total_refunds: 6,
      total_orders: 2,
    });

    const processing = (await api.get('orders', { status: 'processing' })).data[0];
    await api.post(`orders/${processing.id}/refunds`, { amount: '25.00', api_refund: false });
    expect((await api.get(`orders/${processing.id}`)).data.status).toBe('refunded');
    report = (await api.get('reports/sales')).data[0];
    // A refunded order still counts as placed; its whole total comes off the sales.
    expect(report).toMatchObject({ total_sales: '29.00', total_refunds: 31, total_orders: 2 });
  });
});
