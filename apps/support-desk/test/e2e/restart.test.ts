/**
 * In Chromium: the calls a dashboard showed before the app server restarted (a new server on the same
 * port and storage) are what it shows after, the analysis of an opened call included, on both backends:
 * the embedded PGlite directory and a PostgreSQL server (a throwaway one, started here).
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageConfig } from '../../src/server/index.js';
import { launch } from '../helpers/browser.js';
import { deskApi } from '../helpers/calls.js';
import { artifacts, type Desk, freshDataDir, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

let browser: Browser;
let postgres: Postgres;

beforeAll(async () => {
  [browser, postgres] = await Promise.all([launch(), startPostgres()]);
});

afterAll(async () => {
  await browser?.close();
  await postgres?.close();
});

const backends = {
  PGlite: async (): Promise<StorageConfig> => ({ dataDir: await freshDataDir() }),
  PostgreSQL: async (): Promise<StorageConfig> => ({ databaseUrl: await postgres.createDatabase() }),
};

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a restart on %s, seen in Chromium',
  (backend) => {
    let desk: Desk;
    beforeAll(async () => {
      const storage = await backends[backend]();
      desk = await startDesk(() => ({ storage }));
    });
    afterAll(() => desk?.close());

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
      await page.screenshot({ path: join(artifacts, `call-after-restart-${backend}.png`), fullPage: true });
      await page.close();
    });
  },
);
