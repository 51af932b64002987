import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesizeSpeech } from '@x/sandbox';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCallScript, scriptText } from '../../src/server/sample-call.js';
import { launch } from '../helpers/browser.js';
import { artifacts, type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  [desk, browser] = await Promise.all([startDesk(), launch()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(desk.server.url);
  await page.locator('.desk[data-realtime="subscribed"]').waitFor();
  await page.locator('tr[data-order="88"]').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
});

describe('a customer call, end to end in Chromium', () => {
  it('uploads a recording about an order, shows it analysed live, and notes it on the order in the store', async () => {
    // Jane Smith (customer 3) complains about order 88.
    const order = await desk.store.orders.get(88);
    const wav = await synthesizeSpeech(
      scriptText(
        sampleCallScript({
          orderNumber: '88',
          firstName: order.billing.first_name ?? '',
          lastName: order.billing.last_name ?? '',
          mood: 'unhappy',
        }),
      ),
    );
    await page.locator('[data-testid="file-input"]').setInputFiles({
      name: 'jane-smith-call.wav',
      mimeType: 'audio/wav',
      buffer: readFileSync(wav),
    });

    const progress = page.getByRole('progressbar', { name: 'Upload progress' });
    await progress.waitFor();
    await expect.poll(() => progress.getAttribute('aria-valuenow')).toBe('100');

    const detail = page.locator('[data-testid="call-detail"][data-sentiment]');
    await detail.waitFor({ timeout: 45_000 });
    expect(await detail.getAttribute('data-sentiment')).toBe('NEGATIVE');
    expect(await page.getByTestId('overall-sentiment').textContent()).toBe('NEGATIVE');
    expect(await page.getByTestId('linked-order').textContent()).toContain('Order #88');
    expect(await page.locator('[data-testid="transcript"] li.negative').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('sentiment-chart').locator('rect').count()).toBeGreaterThan(3);
    expect(await detail.textContent()).toContain('learnt of completion by webhook');
    // The customer list shows the tag the analysis wrote, live.
    await page.locator('[data-customer="3"] .tag').waitFor();
    await page.screenshot({ path: join(artifacts, 'analysed-call.png'), fullPage: true });

    // What the app wrote, read back through @x/store.
    const notes = await desk.store.orders.notes.list(88);
    const note = notes.data.find((n) => n.note.startsWith('Support call analysed'));
    expect(note?.note).toContain('Overall sentiment: NEGATIVE');
    expect(note?.note).toContain('Jane Smith called about order #88');
    expect(note?.note).toContain('Content safety:');
    const customer = await desk.store.customers.get(3);
    expect(customer.meta_data.find((m) => m.key === 'support_desk_unhappy')?.value).toBe('yes');
  });

  it('generates a sample call on the server and shows a happy caller', async () => {
    await page.getByLabel('Order to call about').selectOption('80');
    await page.getByLabel('Caller mood').selectOption('happy');
    await page.getByRole('button', { name: 'Generate a sample call' }).click();
    const detail = page.locator('[data-testid="call-detail"][data-sentiment]', {
      has: page.getByText('Sample call about order #80'),
    });
    await detail.waitFor({ timeout: 45_000 });
    expect(await detail.getAttribute('data-sentiment')).toBe('POSITIVE');
    expect(await detail.getByTestId('linked-order').textContent()).toContain('Order #80');
    await page.screenshot({ path: join(artifacts, 'sample-call.png'), fullPage: true });
    const notes = await desk.store.orders.notes.list(80);
    expect(notes.data.some((n) => n.note.includes('Overall sentiment: POSITIVE'))).toBe(true);
  });
});
