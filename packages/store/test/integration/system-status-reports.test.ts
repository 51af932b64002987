/**
 * client.systemStatus (and .tools) and client.reports against the sandbox over real sockets, following
 * WC_REST_System_Status_V2_Controller, WC_REST_System_Status_Tools_V2_Controller, WC_REST_Reports_Controller,
 * WC_REST_Report_Sales_V1_Controller (WC_Report_Sales_By_Date), WC_REST_Report_Top_Sellers_V1_Controller and
 * the v3 totals controllers.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { type SalesReport, type StoreClient, ValidationError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
let store: StoreClient;
beforeAll(async () => {
  box = await sandbox({ store: { seed: 'none' } });
  store = clientFor(box);
  const mug = await store.products.create({ name: 'Mug', regular_price: '12.00' });
  await store.orders.create({ status: 'completed', line_items: [{ product_id: mug.id, quantity: 2 }] });
});
afterAll(() => box.close());

describe('client.systemStatus', () => {
  it('reads the report, or some sections of it', async () => {
    const status = await store.systemStatus.get();
    expect(status.environment?.version).toMatch(/^\d+\.\d+/);
    expect(status.settings?.currency).toBe('USD');
    expect(status.post_type_counts).toContainEqual({ type: 'shop_order', count: '1' });
    const some = await store.systemStatus.get({ _fields: ['settings.currency'] });
    expect(some).toEqual({ settings: { currency: 'USD' } });
  });

  it('lists, reads and runs tools', async () => {
    const tools = await store.systemStatus.tools.list();
    expect(tools.map((t) => t.id)).toContain('recount_terms');
    expect((await store.systemStatus.tools.get('recount_terms')).action).toBe('Recount terms');
    const ran = await store.systemStatus.tools.run('recount_terms');
    expect(ran).toMatchObject({ success: true, message: 'Terms successfully recounted' });
    await expect(store.systemStatus.tools.run('nope')).rejects.toMatchObject({
      status: 404,
      code: 'woocommerce_rest_system_status_tool_invalid_id',
    });
  });
});

describe('client.reports', () => {
  it('lists reports and reads the sales report of today and of the week', async () => {
    expect((await store.reports.list()).map((r) => r.slug)).toContain('sales');
    const today = await store.reports.sales();
    expectTypeOf(today).toEqualTypeOf<SalesReport>();
    expect(today).toMatchObject({ total_sales: '24.00', total_orders: 1, total_items: 2 });
    const week = await store.reports.sales({ period: 'week' });
    expect(Object.keys(week.totals)).toHaveLength(7);
  });

  it('top sellers and totals', async () => {
    expect(await store.reports.topSellers({ period: 'month' })).toMatchObject([{ name: 'Mug', quantity: 2 }]);
    const orders = await store.reports.ordersTotals();
    expect(orders.find((r) => r.slug === 'completed')?.total).toBe(1);
    expect((await store.reports.productsTotals()).find((r) => r.slug === 'simple')?.total).toBe(1);
    expect(await store.reports.customersTotals()).toHaveLength(2);
    expect(await store.reports.couponsTotals()).toHaveLength(3);
    expect(await store.reports.reviewsTotals()).toHaveLength(5);
  });

  it('refuses a bad period or date before sending', async () => {
    box.store.resetStats();
    await expect(store.reports.sales({ period: 'decade' } as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(store.reports.sales({ date_min: '2024/01/01' })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.systemStatus.tools.run('../x')).rejects.toBeInstanceOf(ValidationError);
    expect(box.store.stats().requests).toBe(0);
  });
});
