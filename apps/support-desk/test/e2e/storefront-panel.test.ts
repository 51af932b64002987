/**
 * The call's cart panel in Chromium: the agent types the customer's support code into a live call, the cart
 * shows with its lines and total formatted in the shop's currency, a second tab shows it too (the call's
 * realtime update), and the agent's refresh brings the customer's change to both.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Cart, MemoryCartTokenStore, money, StorefrontClient } from '@x/store/storefront';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

/** The lines as the panel lists them, and its total, for `cart` as the Store API gave it. */
function shown(cart: Cart) {
  return {
    lines: cart.items.map((i) => [i.name, String(i.quantity), money(i.totals, 'line_total')!.formatted]),
    total: money(cart.totals, 'total_price')!.formatted,
  };
}

it('shows the linked cart in every tab, and the customer’s change after a refresh', async () => {
  const tokens = new MemoryCartTokenStore();
  const customer = new StorefrontClient({ url: desk.sandbox.store.url, cartTokenStore: tokens });
  const products = (await customer.products.list({ per_page: 20, type: 'simple' })).data
    .filter((p) => p.is_purchasable && p.is_in_stock)
    .map((p) => p.id);
  await customer.cart.addItem({ id: products[0]!, quantity: 2 });
  let cart = await customer.cart.addItem({ id: products[1]!, quantity: 1 });

  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const [agent, colleague] = await Promise.all([context.newPage(), context.newPage()]);
  for (const tab of [agent, colleague]) {
    await tab.goto(desk.server.url);
    await tab.locator('.desk[data-realtime="subscribed"]').waitFor();
  }
  const start = await fetch(`${desk.server.url}/api/live-calls`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Question about my cart' }),
  });
  expect(start.status).toBe(201);
  for (const tab of [agent, colleague]) {
    await tab.getByText('Question about my cart').first().click();
    await tab.getByTestId('support-code').waitFor();
  }
  const help = await fetch(`${desk.server.url}/api/storefront/help`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cart_token: tokens.get(), order: null }),
  });
  const { code } = (await help.json()) as { code: string };

  await agent.getByTestId('support-code').fill(code);
  await agent.getByTestId('link-cart').click();
  const read = async (tab: typeof agent, lines: number) => {
    await tab
      .locator('[data-testid=cart-line]')
      .nth(lines - 1)
      .waitFor();
    expect(await tab.getByTestId('cart-line').count()).toBe(lines);
    return {
      lines: await tab
        .getByTestId('cart-line')
        .evaluateAll((rows) =>
          rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')),
        ),
      total: await tab.getByTestId('total-total_price').textContent(),
    };
  };
  const expected = shown(cart);
  for (const tab of [agent, colleague]) {
    const panel = await read(tab, 2);
    expect(panel.total).toBe(expected.total);
    expect(panel.lines.map(([name, quantity, , line]) => [name, quantity, line])).toEqual(
      expected.lines.map(([name, quantity, line]) => [expect.stringContaining(name!), quantity, line]),
    );
  }

  cart = await customer.cart.addItem({ id: products[2]!, quantity: 3 });
  await agent.getByTestId('refresh-cart').click();
  for (const tab of [agent, colleague]) expect((await read(tab, 3)).total).toBe(shown(cart).total);
  await agent.screenshot({ path: join(artifacts, 'storefront-panel.png'), fullPage: true });
  // The page never had the token.
  for (const tab of [agent, colleague]) expect(await tab.content()).not.toContain(tokens.get()!);
});

it('shows the store’s strings as text: a product named with markup runs nothing', async () => {
  const markup = '<img src=x onerror="window.__storeXss=1"><b>bold</b>';
  const product = await desk.store.products.create({ name: markup, type: 'simple', regular_price: '3.00' });
  const tokens = new MemoryCartTokenStore();
  const customer = new StorefrontClient({ url: desk.sandbox.store.url, cartTokenStore: tokens });
  await customer.cart.addItem({ id: product.id, quantity: 1 });
  const page = await browser.newPage();
  await page.goto(desk.server.url);
  await page.locator('.desk[data-realtime="subscribed"]').waitFor();
  const start = await fetch(`${desk.server.url}/api/live-calls`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Odd product' }),
  });
  expect(start.status).toBe(201);
  await page.getByText('Odd product').first().click();
  const help = await fetch(`${desk.server.url}/api/storefront/help`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cart_token: tokens.get(), order: null }),
  });
  const { code } = (await help.json()) as { code: string };
  await page.getByTestId('support-code').fill(code);
  await page.getByTestId('link-cart').click();
  const line = page.getByTestId('cart-line').first();
  await line.waitFor();
  // The Store API sends names as HTML: the panel shows their text, as a shop page does, and renders no markup.
  expect(await line.locator('td').first().textContent()).toContain('bold');
  expect(await line.locator('td').first().textContent()).not.toContain('<b>');
  expect(
    await page.locator('[data-testid=storefront-cart] img, [data-testid=storefront-cart] b').count(),
  ).toBe(0);
  expect(await page.evaluate(() => (window as { __storeXss?: number }).__storeXss)).toBeUndefined();
  await page.close();
});
