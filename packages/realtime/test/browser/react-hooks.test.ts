import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../helpers/sandbox.js';
import { launch, type PageWorld, startPageWorld } from './harness.js';

/**
 * `@x/realtime/react` in Chromium against the sandbox: the page (page.ts) runs in React's development
 * build under StrictMode, so every effect mounts, unmounts and mounts again. What the sandbox counts
 * (sockets accepted, open, subscriptions) is the truth; the page's data attributes are what React rendered.
 */
let world: PageWorld;
let browser: Browser;
const pages: Page[] = [];
/** Console errors and uncaught exceptions of every page, by page. */
const errors = new Map<Page, string[]>();

beforeAll(async () => {
  [world, browser] = await Promise.all([startPageWorld(), launch()]);
});
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
  await waitFor(() => world.box.rt.connections() === 0, 5000);
});
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

async function open(user: string): Promise<Page> {
  const page = await browser.newPage();
  const seen: string[] = [];
  errors.set(page, seen);
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(message.text());
  });
  page.on('pageerror', (error) => seen.push(String(error)));
  pages.push(page);
  await page.goto(world.url(user));
  return page;
}

const attribute = (page: Page, selector: string, name: string, value: string) =>
  page.locator(`${selector}[${name}="${value}"]`).waitFor({ state: 'attached', timeout: 10_000 });

it('connects once under StrictMode: one socket at the sandbox, no "closed before established" error', async () => {
  const { rt } = world.box;
  rt.resetStats();
  const page = await open('u-1');
  await attribute(page, '#state', 'data-state', 'connected');
  await attribute(page, '#room', 'data-subscribed', 'true');
  await attribute(page, '#lobby', 'data-me', 'u-1');
  expect(rt.stats().sockets.opened).toBe(1);
  expect(rt.connections()).toBe(1);
  // Rendered again with new options (as the desk's config, fetched twice): the same client and socket.
  await page.evaluate(() => window.renderAgain());
  await attribute(page, '#renders', 'data-renders', '1');
  await world.box.server().trigger('private-room', 'message', { text: 'same socket' });
  await attribute(page, '#room', 'data-messages', 'same socket');
  expect(rt.stats().sockets.opened).toBe(1);
  // StrictMode's second mount kept the subscriptions: each channel has the one subscriber.
  const counts = Object.fromEntries(rt.channels().map((c) => [c.name, c.subscriptionCount]));
  expect(counts).toEqual({ 'private-room': 1, 'presence-lobby': 1 });
  expect(errors.get(page)).toEqual([]);
});

it('receives an event triggered with the server SDK, and signs the user in', async () => {
  const page = await open('u-1');
  await attribute(page, '#room', 'data-subscribed', 'true');
  await world.box.server().trigger('private-room', 'message', { text: 'hello' });
  await world.box.server().trigger('private-room', 'message', { text: 'again' });
  await attribute(page, '#room', 'data-messages', 'hello|again');
  await attribute(page, '#user', 'data-signin', 'signed-in');
  await attribute(page, '#user', 'data-id', 'u-1');
  expect(errors.get(page)).toEqual([]);
});

it('shows presence members joining and leaving from a second page', async () => {
  const first = await open('u-1');
  await attribute(first, '#lobby', 'data-members', 'u-1');
  const second = await open('u-2');
  await attribute(second, '#lobby', 'data-members', 'u-1,u-2');
  await attribute(second, '#lobby', 'data-me', 'u-2');
  await attribute(first, '#lobby', 'data-members', 'u-1,u-2');
  await second.close();
  await attribute(first, '#lobby', 'data-members', 'u-1');
  expect(errors.get(first)).toEqual([]);
});

it('calls the resubscribed hook with gapMs once after the sandbox drops the connection', async () => {
  const { rt } = world.box;
  const page = await open('u-1');
  await attribute(page, '#room', 'data-subscribed', 'true');
  rt.resetStats();
  expect(rt.dropConnections()).toBe(1);
  await page.waitForFunction(() => window.gaps.length > 0, null, { timeout: 10_000 });
  await attribute(page, '#room', 'data-subscribed', 'true');
  const gaps = await page.evaluate(() => window.gaps);
  expect(gaps).toHaveLength(1);
  expect(gaps[0]).toBeGreaterThanOrEqual(0);
  expect(rt.stats().sockets.opened).toBe(1);
  // Still bound after the gap: an event published now arrives.
  await world.box.server().trigger('private-room', 'message', { text: 'after the gap' });
  await attribute(page, '#room', 'data-messages', 'after the gap');
  // A dropped socket is not a console error of ours; the browser logs nothing for a server-side kill.
  expect(errors.get(page)?.filter((e) => e.includes('closed before the connection'))).toEqual([]);
});

it('shares one subscription between components and leaves it with the last; a late StrictMode mount authorizes once', async () => {
  const { rt } = world.box;
  const page = await open('u-1');
  await attribute(page, '#room', 'data-subscribed', 'true');
  const late = () => world.authRequests.filter((form) => form.channel_name === 'private-late').length;
  const subscribers = () => rt.channels().find((c) => c.name === 'private-late')?.subscriptionCount ?? 0;
  const before = late();
  // Mounted while connected: StrictMode's unmount and remount must not subscribe (and authorize) twice.
  await page.evaluate(() => window.setLate(1));
  await attribute(page, '.late', 'data-subscribed', 'true');
  expect(late() - before).toBe(1);
  await page.evaluate(() => window.setLate(2));
  await page.locator('.late[data-subscribed="true"]').nth(1).waitFor({ state: 'attached' });
  expect(late() - before).toBe(1);
  expect(subscribers()).toBe(1);
  await page.evaluate(() => window.setLate(1));
  await attribute(page, '#lates', 'data-count', '1');
  // Past the lease's deferred release (a task later): the remaining component keeps the subscription.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await attribute(page, '.late', 'data-subscribed', 'true');
  await world.box.server().trigger('private-room', 'message', { text: 'barrier' });
  await attribute(page, '#room', 'data-messages', 'barrier');
  expect(subscribers()).toBe(1);
  await page.evaluate(() => window.setLate(0));
  await waitFor(() => subscribers() === 0, 5000);
  expect(late() - before).toBe(1);
  expect(errors.get(page)).toEqual([]);
});
