import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

it('shows an order created in the store live in two open tabs (store webhook → server → realtime)', async () => {
  expect(desk.server.storeWebhooks).toBe(true);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const tabs = await Promise.all([context.newPage(), context.newPage()]);
  for (const tab of tabs) {
    await tab.goto(desk.server.url);
    await tab.locator('.desk[data-realtime="subscribed"]').waitFor();
    await tab.locator('tr[data-order="92"]').waitFor();
  }

  // Created elsewhere (here, by the test through @x/store): the page learns of it only from the webhook.
  const product = (await desk.store.products.list({ per_page: 1, type: 'simple', status: 'publish' }))
    .data[0]!;
  const order = await desk.store.orders.create({
    status: 'processing',
    billing: { first_name: 'Webhook', last_name: 'Walker', email: 'webhook.walker@example.com' },
    line_items: [{ product_id: product.id, quantity: 2 }],
  });

  for (const [i, tab] of tabs.entries()) {
    const row = tab.locator(`tr[data-order="${order.number}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect(await row.textContent()).toContain('Webhook Walker');
    expect(await row.getAttribute('class')).toContain('fresh');
    await tab.screenshot({ path: join(artifacts, `webhook-order-tab${i + 1}.png`) });
  }

  // An update is pushed too.
  await desk.store.orders.update(order.id, { status: 'completed' });
  for (const tab of tabs) {
    await expect
      .poll(() => tab.locator(`tr[data-order="${order.number}"] .status`).textContent(), { timeout: 10_000 })
      .toBe('completed');
  }
  await context.close();
});
