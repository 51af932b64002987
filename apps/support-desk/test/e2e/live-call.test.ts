/**
 * The live call in Chromium: a flite WAV as the fake microphone, streamed by the page straight to the
 * sandbox's streaming socket with the desk's temporary token; the partials and finals shown as they come in
 * the capturing tab and in a second tab; Stop; the call analysed and noted on its order.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { wordErrorRate } from '@x/sandbox';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeMicrophone, launch } from '../helpers/browser.js';
import { artifacts, type Desk, startDesk } from '../helpers/desk.js';
import { spokenCall } from '../helpers/speech.js';

const SENTENCES = [
  'Hello, my name is Jane Smith.',
  'I am calling about order number 88.',
  'The box was damaged and I am very unhappy.',
];

let desk: Desk;
let browser: Browser;
let context: BrowserContext;

/**
 * Records, in the page, each new state of the live transcript's items (kind, turn, text) in the order
 * they appeared, so the test can tell what was shown before what without watching the clock.
 */
function recordLiveTurns(): void {
  const seen = new Set<string>();
  const log: { kind: string; turn: number; text: string }[] = [];
  (window as unknown as { liveLog: typeof log }).liveLog = log;
  new MutationObserver(() => {
    for (const li of document.querySelectorAll<HTMLElement>('[data-live-turn]')) {
      const entry = { kind: li.dataset.liveTurn!, turn: Number(li.dataset.turn), text: li.textContent ?? '' };
      const key = JSON.stringify(entry);
      if (seen.has(key)) continue;
      seen.add(key);
      log.push(entry);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

type LogEntry = { kind: string; turn: number; text: string };
const liveLog = (page: Page) => page.evaluate(() => (window as unknown as { liveLog: LogEntry[] }).liveLog);
const finalText = (page: Page) =>
  page.$$eval('[data-live-turn="final"]', (items) => items.map((li) => li.textContent ?? '').join(' '));

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  // Six seconds of silence close the call's audio: the last turn settles before Chromium loops the file.
  const wav = await spokenCall(SENTENCES, { pauseMs: 1500, tailMs: 6000 });
  [desk, browser] = await Promise.all([startDesk(), launch(fakeMicrophone(wav))]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(recordLiveTurns);
});

afterAll(async () => {
  await browser?.close();
  await desk?.close();
});

it('streams the microphone live, shows partials then finals in both tabs, and analyses the call', async () => {
  const [capturing, watching] = await Promise.all([context.newPage(), context.newPage()]);
  for (const tab of [capturing, watching]) {
    await tab.goto(desk.server.url);
    await tab.locator('.desk[data-realtime="subscribed"]').waitFor();
  }

  await capturing.getByRole('button', { name: 'Live call' }).click();
  // The other tab lists the call without opening it (it keeps what it shows); its user opens it.
  const listed = watching.locator('[data-testid="calls"] button[data-status="live"]');
  await listed.waitFor({ timeout: 20_000 });
  expect(await watching.getByTestId('call-detail').count()).toBe(0);
  await listed.click();
  await watching.locator('[data-testid="call-detail"][data-live]').waitFor();
  await capturing
    .locator('[data-testid="live-control"][data-status="listening"]')
    .waitFor({ timeout: 20_000 });
  // Both tabs follow the call; hang up once the first pass of the recording is transcribed.
  const spoken = SENTENCES.join(' ');
  await expect
    .poll(async () => wordErrorRate(spoken, await finalText(capturing)), { timeout: 45_000 })
    .toBeLessThanOrEqual(0.15);
  await expect.poll(() => finalText(watching), { timeout: 10_000 }).toBe(await finalText(capturing));
  await capturing.screenshot({ path: join(artifacts, 'live-call-capturing.png'), fullPage: true });
  await watching.screenshot({ path: join(artifacts, 'live-call-watching.png'), fullPage: true });
  await capturing.getByRole('button', { name: 'Stop' }).click();

  for (const tab of [capturing, watching]) {
    const log = await liveLog(tab);
    const firstFinal = log.findIndex((e) => e.kind === 'final');
    expect(firstFinal, 'a final turn was shown').toBeGreaterThan(0);
    // The first turn was shown partial, and growing, before it was final.
    const partials = log
      .slice(0, firstFinal)
      .filter((e) => e.kind === 'partial' && e.turn === log[firstFinal]!.turn);
    expect(partials.length, JSON.stringify(log.slice(0, firstFinal + 1))).toBeGreaterThan(0);
    // Each turn's final shown after its partials, never a partial of a settled turn.
    log.forEach((entry, i) => {
      if (entry.kind !== 'partial') return;
      expect(log.slice(0, i).some((e) => e.kind === 'final' && e.turn >= entry.turn)).toBe(false);
    });
  }

  // Analysed like an uploaded call, in both tabs, and noted on the order.
  for (const tab of [capturing, watching]) {
    const detail = tab.locator('[data-testid="call-detail"][data-sentiment]');
    await detail.waitFor({ timeout: 30_000 });
    expect(await detail.getAttribute('data-sentiment')).toBe('NEGATIVE');
    expect(await detail.getByTestId('linked-order').textContent()).toContain('Order #88');
  }
  expect(await capturing.getByTestId('live-status').textContent()).toContain('Call ended');
  await capturing.screenshot({ path: join(artifacts, 'live-call-analysed.png'), fullPage: true });
  const notes = await desk.store.orders.notes.list(88);
  const note = notes.data.find((n) => n.note.startsWith('Support call analysed'));
  expect(note?.note).toContain('Jane Smith called about order #88');
  expect(note?.note).toContain('Overall sentiment: NEGATIVE (all sentences;');
  expect(desk.sandbox.transcription!.streaming.stats().open).toBe(0);
});
