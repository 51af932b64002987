import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCallScript } from '../../src/server/sample-call.js';
import { findSpeechTool, synthesize } from '../../src/server/speech.js';
import { launch } from '../helpers/browser.js';
import { artifacts, type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
let browser: Browser;
let context: BrowserContext;
/** `mine` starts the calls; `other` is a colleague's tab reading a call of its own. */
let mine: Page;
let other: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  [desk, browser] = await Promise.all([startDesk(), launch()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  [mine, other] = await Promise.all([context.newPage(), context.newPage()]);
  for (const tab of [mine, other]) {
    await tab.goto(desk.server.url);
    await tab.locator('.desk[data-realtime="subscribed"]').waitFor();
    await tab.locator('tr[data-order="85"]').waitFor();
  }
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await desk?.close();
});

const analysed = (tab: Page) => tab.locator('[data-testid="call-detail"][data-sentiment]');

describe('a call between an agent and a customer, in Chromium', () => {
  it("shows who said what, the customer's sentiment, the name that does not match the order, and the note as saved", async () => {
    const order = await desk.store.orders.get(85);
    const onRecord = `${order.billing.first_name} ${order.billing.last_name}`;
    const lines = sampleCallScript({
      orderNumber: '85',
      firstName: order.billing.first_name ?? '',
      lastName: order.billing.last_name ?? '',
      callerName: 'Tom Baker',
      mood: 'unhappy',
    });
    const wav = await synthesize((await findSpeechTool())!, lines);
    await mine.locator('[data-testid="file-input"]').setInputFiles({
      name: 'tom-baker.wav',
      mimeType: 'audio/wav',
      buffer: readFileSync(wav),
    });
    const detail = analysed(mine);
    await detail.waitFor({ timeout: 45_000 });
    expect(await detail.getAttribute('data-sentiment')).toBe('NEGATIVE');

    const utterances = mine.getByTestId('utterances').locator('li');
    expect(await utterances.first().getAttribute('data-speaker')).toBe('Agent');
    expect(await utterances.first().textContent()).toMatch(/Agent.*thank you for calling/i);
    const customer = await mine
      .locator('[data-testid="utterances"] li[data-speaker="Customer"]')
      .allTextContents();
    expect(customer.join(' ')).toMatch(/tom baker/i);
    expect(customer.join(' ')).toMatch(/arrived broken/i);
    expect(await mine.locator('[data-testid="transcript"] li[data-speaker="Agent"]').count()).toBeGreaterThan(
      0,
    );

    expect(await mine.getByTestId('identity-mismatch').textContent()).toBe(
      `Caller said Tom Baker; order #85 belongs to ${onRecord}.`,
    );
    const stored = (await desk.store.orders.notes.list(85)).data.find((n) =>
      n.note.startsWith('Support call analysed'),
    );
    expect(stored).toBeDefined();
    // The page shows the note as the store returns it, character for character.
    expect(await mine.getByTestId('order-note').evaluate((el) => el.textContent)).toBe(stored!.note);
    expect(stored!.note).toContain(
      `Caller identity: caller said Tom Baker; order #85 belongs to ${onRecord}.`,
    );
    await mine.screenshot({ path: join(artifacts, 'two-speaker-call.png'), fullPage: true });
  });

  it('lists a call started in another tab without taking away the one this tab shows; only the starting tab opens it', async () => {
    const first = (await desk.store.orders.notes.list(85)).data.length;
    expect(first).toBeGreaterThan(0);
    // The colleague's tab listed the first call without opening it, then opens it.
    const firstCall = other.locator('[data-testid="calls"] button[data-status="done"]');
    await firstCall.waitFor();
    expect(await other.getByTestId('call-detail').count()).toBe(0);
    await firstCall.click();
    await analysed(other).waitFor();
    const reading = await other.locator('[data-testid="call-detail"] h2').textContent();
    expect(reading).toContain('tom-baker.wav');

    await mine.getByLabel('Order to call about').selectOption('80');
    await mine.getByLabel('Caller mood').selectOption('happy');
    await mine.getByRole('button', { name: 'Generate a sample call' }).click();
    await mine
      .locator('[data-testid="call-detail"][data-sentiment]', {
        has: mine.getByText('Sample call about order #80'),
      })
      .waitFor({ timeout: 45_000 });

    // The other tab has the new call in its list, finished, and still shows what it was reading.
    const listed = other.locator('[data-testid="calls"] button', { hasText: 'Sample call about order #80' });
    await listed.and(other.locator('[data-status="done"]')).waitFor({ timeout: 15_000 });
    expect(await other.locator('[data-testid="calls"] button').count()).toBe(2);
    expect(await other.locator('[data-testid="call-detail"] h2').textContent()).toBe(reading);
    expect(await other.locator('[data-testid="calls"] button.selected').textContent()).toContain(
      'tom-baker.wav',
    );
    await other.screenshot({ path: join(artifacts, 'other-tab-stays.png'), fullPage: true });
  });
});
