/**
 * The whole storefront path over real sockets against the sandbox: browse, add, coupon, address, shipping
 * rate, checkout; then the admin client (REST v3) sees the order with the cart's totals, the stock taken and
 * the coupon counted: one model, two APIs.
 */
import { describe, expect, it } from 'vitest';
import { money, NotFoundError } from '../../src/storefront/index.js';
import { clientFor, sandboxForFile } from '../helpers/sandbox.js';
import { FRANCE, storefrontFor } from './helpers.js';

const box = sandboxForFile();

describe('StorefrontClient: browse → cart → checkout', () => {
  it('places an order REST v3 sees with the same totals, stock and coupon usage', async () => {
    const admin = clientFor(box);
    const mug = await admin.products.create({
      name: 'Flow Mug',
      regular_price: '12.50',
      manage_stock: true,
      stock_quantity: 5,
    });
    await admin.products.create({ name: 'Flow Poster', regular_price: '3.00' });
    const coupon = await admin.coupons.create({ code: 'flow5', amount: '5', discount_type: 'fixed_cart' });
    const zone = await admin.shippingZones.create({ name: 'France' });
    await admin.shippingZones.locations.update(zone.id, [{ code: 'FR', type: 'country' }]);
    await admin.shippingZones.methods.create(zone.id, { method_id: 'flat_rate', settings: { cost: '4' } });
    await admin.shippingZones.methods.create(zone.id, { method_id: 'local_pickup', settings: { cost: '0' } });
    await admin.paymentGateways.update('cod', { enabled: true });

    const shop = storefrontFor(box);
    const page = await shop.products.list({ search: 'Flow', orderby: 'title', order: 'asc' });
    expect(page.total).toBe(2);
    expect(page.data.map((p) => p.name)).toEqual(['Flow Mug', 'Flow Poster']);
    const listed = page.data[0]!;
    expect(money(listed.prices, 'price')).toEqual({
      amount_minor: 1250,
      currency_code: 'USD',
      currency_minor_unit: 2,
      formatted: '$12.50',
    });
    // Pages as the admin client's: X-WP-Total, X-WP-TotalPages, `for await` over every page.
    const paged = await shop.products.list({ search: 'Flow', per_page: 1, orderby: 'title', order: 'asc' });
    expect([paged.total, paged.totalPages, paged.data.length]).toEqual([2, 2, 1]);
    const walked: string[] = [];
    for await (const product of shop.products.list({ search: 'Flow', per_page: 1, orderby: 'title' }))
      walked.push(product.name);
    expect(walked.sort()).toEqual(['Flow Mug', 'Flow Poster']);
    expect((await shop.products.list({ search: 'Flow', min_price: 1000 })).data.map((p) => p.name)).toEqual([
      'Flow Mug',
    ]);
    expect((await shop.products.get(mug.id)).id).toBe(mug.id);
    expect((await shop.products.get(listed.slug)).id).toBe(mug.id);
    await expect(shop.products.get('no-such-product')).rejects.toBeInstanceOf(NotFoundError);

    let cart = await shop.cart.addItem({ id: mug.id, quantity: 2 });
    expect(cart.items_count).toBe(2);
    expect(cart.items[0]).toMatchObject({ id: mug.id, quantity: 2, totals: { line_total: '2500' } });

    cart = await shop.cart.applyCoupon('flow5');
    expect(cart.coupons.map((c) => c.code)).toEqual(['flow5']);
    expect(cart.totals.total_discount).toBe('500');

    cart = await shop.cart.updateCustomer({ billing_address: FRANCE, shipping_address: FRANCE });
    const rates = cart.shipping_rates[0]!.shipping_rates;
    const flat = rates.find((r) => r.method_id === 'flat_rate')!;
    expect(flat).toBeDefined();
    cart = await shop.cart.selectShippingRate({ package_id: 0, rate_id: flat.rate_id });
    expect(cart.shipping_rates[0]!.shipping_rates.find((r) => r.selected)?.rate_id).toBe(flat.rate_id);
    expect(cart.totals.total_shipping).toBe('400');
    // 2 × 12.50 − 5.00 + 4.00 shipping, no tax configured.
    expect(money(cart.totals, 'total_price')?.amount_minor).toBe(2400);

    expect(cart.payment_methods).toContain('cod');
    const placed = await shop.checkout.place({ billing_address: FRANCE, payment_method: 'cod' });
    expect(placed.order_id).toBeGreaterThan(0);
    expect(placed.order_key).toMatch(/^wc_order_/);

    const order = await admin.orders.get(placed.order_id);
    expect(order.total).toBe('24.00');
    expect(order.discount_total).toBe('5.00');
    expect(order.shipping_total).toBe('4.00');
    expect(order.line_items.map((l) => [l.product_id, l.quantity])).toEqual([[mug.id, 2]]);
    expect(order.coupon_lines.map((c) => c.code)).toEqual(['flow5']);
    expect(order.billing.email).toBe(FRANCE.email);
    expect((await admin.products.get(mug.id)).stock_quantity).toBe(3);
    expect((await admin.coupons.get(coupon.id)).usage_count).toBe(1);

    // The order emptied the cart the token names.
    expect((await shop.cart.get()).items).toEqual([]);
  });
});
