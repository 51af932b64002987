/**
 * In Chromium: the calls a dashboard showed before the app server restarted (a new server on the same
 * port and data directory) are what it shows after, the analysis of an opened call included.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from '../helpers/browser.js';
import { deskApi } from '../helpers/calls.js';
import { artifacts, type Desk, startDesk } from '../helpers/desk.js';

let desk: Desk;
let browser: Browser;

beforeAll(async () => {
  [desk, browser] = await Promise.all([startDesk(), launch()]);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
});

describe('a restart, seen in Chromium', () => {
  it('shows the same calls and the same analysis after the server restarts', async () => {
    const api = deskApi(() => desk.server.url);
    const call = await api.sample('unhappy');
    await api.finished(call.id);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(desk.server.url);
    const entry = page.locator('[data-testid="calls"] button[data-status="done"]', { hasText: call.name });
    await entry.waitFor();
    await entry.click();
    const detail = page.locator('[data-testid="call-detail"][data-sentiment]');
    await detail.waitFor();
    const before = {
      calls: await page.getByTestId('calls').textContent(),
      sentiment: await detail.getAttribute('data-sentiment'),
      transcript: await page.getByTestId('transcript').textContent(),
    };
    expect(before.sentiment).toBe('NEGATIVE');

    await desk.restart();
    await page.reload();
    await entry.waitFor();
    expect(await page.getByTestId('calls').textContent()).toBe(before.calls);
    await entry.click();
    await detail.waitFor();
    expect(await detail.getAttribute('data-sentiment')).toBe(before.sentiment);
    expect(await page.getByTestId('transcript').textContent()).toBe(before.transcript);
    await page.screenshot({ path: join(artifacts, 'call-after-restart.png'), fullPage: true });
  });
});
