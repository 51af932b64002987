/**
 * The storefront page (src/storefront) in Chromium against the sandbox's Store API, from the desk's origin
 * (which the sandbox allows, as `pnpm dev`'s does): browse, add to cart, reload (the cart token in
 * localStorage keeps the cart), apply a coupon made through REST v3, check out with cash on delivery; then
 * the order as REST v3 has it (created via the Store API, the coupon line, stock reduced), and the desk
 * tab, open all along, showing the order once the store's webhook reached the desk.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cartTokenKey } from '../../src/storefront/params.js';
import { launch } from '../helpers/browser.js';
import { artifacts, type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  [desk, browser] = await Promise.all([startDesk(), launch()]);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
});

/** The cart session a `Cart-Token` (a JWT, StoreApi/Utilities/CartTokenUtils.php) names: its `user_id`. */
function cartSession(token: string | null): string {
  const payload = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8'));
  expect(typeof payload.user_id).toBe('string');
  return payload.user_id;
}

/** A row of the cart's totals, in minor units (`data-minor`), or null when the page shows none. */
async function total(page: Page, field: string): Promise<number | null> {
  const row = page.locator(`[data-testid="cart"] [data-total="${field}"]`);
  return (await row.count()) === 0 ? null : Number(await row.getAttribute('data-minor'));
}

it('shops through the Store API in Chromium, and the order reaches REST v3 and the desk live', async () => {
  const { store } = desk;
  // What a shop owner sets up through REST v3: cash on delivery, two flat rates to the UK, a 10% coupon.
  await store.paymentGateways.update('cod', { enabled: true });
  const zone = await store.shippingZones.create({ name: 'United Kingdom' });
  await store.shippingZones.locations.update(zone.id, [{ code: 'GB', type: 'country' }]);
  await store.shippingZones.methods.create(zone.id, {
    method_id: 'flat_rate',
    settings: { title: 'Standard', cost: '5.00' },
  });
  const express = await store.shippingZones.methods.create(zone.id, {
    method_id: 'flat_rate',
    settings: { title: 'Express', cost: '12.00' },
  });
  const coupon = await store.coupons.create({ code: 'storefront10', discount_type: 'percent', amount: '10' });
  const candidates = await store.products.list({ type: 'simple', status: 'publish', per_page: 50 });
  const product = candidates.data.find(
    (p) => p.manage_stock && (p.stock_quantity ?? 0) >= 5 && Number(p.price) > 0 && !p.virtual,
  )!;
  expect(product).toBeDefined();
  const stockBefore = product.stock_quantity!;

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The desk, open before anything is bought: the order can only reach it live.
  const deskTab = await context.newPage();
  await deskTab.goto(desk.server.url);
  await deskTab.locator('.desk[data-realtime="subscribed"]').waitFor();
  await deskTab.locator('[data-testid="orders"] tr[data-order]').first().waitFor();

  const shop = await context.newPage();
  const storeUrl = desk.sandbox.store.url;
  await shop.goto(`${desk.server.url}/storefront/?store=${encodeURIComponent(storeUrl)}`);
  const row = shop.locator(`[data-product="${product.id}"]`);
  await row.waitFor();
  expect(await row.locator('.name').textContent()).toBe(product.name);
  // The Store API's minor units, formatted by the page: the REST price in cents.
  expect(Number(await row.locator('.price').getAttribute('data-minor'))).toBe(
    Math.round(Number(product.price) * 100),
  );

  // Two of it, one click at a time (each click waits for the cart the API answers with).
  const line = shop.locator(`[data-testid="cart"] [data-cart-item="${product.id}"]`);
  await row.getByRole('button', { name: 'Add to cart' }).click();
  await line.waitFor();
  await shop.locator('.shop[data-busy=""]').waitFor();
  await row.getByRole('button', { name: 'Add to cart' }).click();
  await expect.poll(() => line.locator('.qty').textContent()).toBe('× 2');
  const token = await shop.evaluate((key) => localStorage.getItem(key), cartTokenKey(storeUrl));
  expect(token).toBeTruthy();

  // A reload starts from nothing but the token in localStorage: the cart is the Store API's.
  await shop.reload();
  await line.waitFor();
  expect(await line.locator('.qty').textContent()).toBe('× 2');
  // Each answer carries a fresh token (a new `iat`/`exp`) for the same cart session (`user_id`).
  const reloaded = await shop.evaluate((key) => localStorage.getItem(key), cartTokenKey(storeUrl));
  expect(cartSession(reloaded)).toBe(cartSession(token));

  await shop.getByLabel('Coupon code').fill(coupon.code);
  await shop.getByRole('button', { name: 'Apply' }).click();
  await shop.locator(`[data-testid="cart"] [data-coupon="${coupon.code}"]`).waitFor();

  const checkout = shop.getByTestId('checkout');
  const email = 'storefront.shopper@example.com';
  for (const [label, value] of [
    ['Email', email],
    ['First name', 'Sam'],
    ['Last name', 'Shopper'],
    ['Address', '1 High Street'],
    ['City', 'London'],
    ['Postcode', 'SW1A 1AA'],
    ['Country (two letters)', 'GB'],
  ] as const) {
    await checkout.getByLabel(label, { exact: true }).fill(value);
  }
  await checkout.getByRole('button', { name: 'Save address and see shipping' }).click();
  // WooCommerce picks the first rate; the shopper switches to express.
  const rates = checkout.locator('[data-testid="shipping-rates"] [data-rate]');
  await expect.poll(() => rates.count()).toBe(2);
  const rate = checkout.locator(`[data-rate="flat_rate:${express.instance_id}"] input`);
  expect(await rate.isChecked()).toBe(false);
  // A controlled radio: it shows the rate the Store API answers with, once it has answered.
  await rate.click();
  await expect.poll(() => rate.isChecked()).toBe(true);
  await shop.locator('.shop[data-busy=""]').waitFor();

  // The totals the Store API computed, as the page shows them: 10% off the items, then express shipping.
  const items = (await total(shop, 'total_items'))!;
  const discount = (await total(shop, 'total_discount'))!;
  const shipping = (await total(shop, 'total_shipping'))!;
  const tax = (await total(shop, 'total_tax')) ?? 0;
  const price = (await total(shop, 'total_price'))!;
  expect(items).toBe(2 * Math.round(Number(product.price) * 100));
  expect(discount).toBe(Math.round(items / 10));
  expect(shipping).toBe(1200);
  expect(price).toBe(items - discount + shipping + tax);

  await shop.screenshot({ path: join(artifacts, 'storefront-cart.png'), fullPage: true });

  await checkout.getByRole('button', { name: 'Place order' }).click();
  const placed = shop.getByTestId('placed-order');
  await placed.waitFor();
  const orderId = Number(await placed.getAttribute('data-order-id'));
  const number = (await shop.getByTestId('order-number').textContent())!.replace('#', '');
  expect(orderId).toBeGreaterThan(0);
  // The cart the API answers after checkout is empty; the token stays.
  await shop.getByText('Your cart is empty.').waitFor();
  await shop.screenshot({ path: join(artifacts, 'storefront-order.png'), fullPage: true });

  // The same order through REST v3.
  const order = await store.orders.get(orderId);
  expect(order.number).toBe(number);
  expect(order.created_via).toBe('store-api');
  expect(order.status).toBe('processing');
  expect(order.payment_method).toBe('cod');
  expect(order.billing.email).toBe(email);
  expect(order.line_items.map((l) => [l.product_id, l.quantity])).toEqual([[product.id, 2]]);
  expect(order.coupon_lines.map((c) => c.code)).toEqual([coupon.code]);
  expect(Math.round(Number(order.discount_total) * 100)).toBe(discount);
  expect(Math.round(Number(order.shipping_total) * 100)).toBe(shipping);
  expect(order.shipping_lines.map((l) => [l.method_id, l.instance_id, l.method_title])).toEqual([
    ['flat_rate', String(express.instance_id), 'Express'],
  ]);
  expect(Math.round(Number(order.total) * 100)).toBe(price);
  expect((await store.products.get(product.id)).stock_quantity).toBe(stockBefore - 2);
  expect((await store.coupons.get(coupon.id)).usage_count).toBe(1);

  // "Get help with this cart": the page sends the desk its cart token and the order it placed, and shows the code.
  const asked = shop.waitForRequest((r) => r.url().endsWith('/api/storefront/help') && r.method() === 'POST');
  await shop.getByRole('button', { name: 'Get help with this cart' }).click();
  const sent = (await asked).postDataJSON();
  expect(sent).toEqual({
    cart_token: await shop.evaluate((key) => localStorage.getItem(key), cartTokenKey(storeUrl)),
    order: { id: orderId, key: order.order_key, billing_email: email },
  });
  expect(await shop.getByTestId('help-code').locator('strong').textContent()).toMatch(/^\d{6}$/);
  await shop.screenshot({ path: join(artifacts, 'storefront-help-code.png'), fullPage: true });

  // The desk tab never reloaded: the order came by webhook → app server → realtime.
  const deskRow = deskTab.locator(`tr[data-order="${number}"]`);
  await deskRow.waitFor({ timeout: 20_000 });
  expect(await deskRow.textContent()).toContain('Sam Shopper');
  await deskTab.screenshot({ path: join(artifacts, 'storefront-order-on-desk.png') });
  await context.close();
});
