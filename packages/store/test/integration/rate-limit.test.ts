import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox({ store: { rateLimit: { limit: 20, intervalMs: 1000 } } });
});
afterAll(() => box.close());

const burst = (store: ReturnType<typeof clientFor>, n: number) =>
  Promise.all(Array.from({ length: n }, () => store.products.list({ per_page: 1 })));

it('under its own limiter the client never sees a 429', async () => {
  box.store.resetStats();
  const store = clientFor(box, { rateLimit: { limit: 20, interval: '1s' } });
  const pages = await burst(store, 50);
  expect(pages).toHaveLength(50);
  expect(box.store.stats().rateLimited).toBe(0);
  expect(box.store.stats().requests).toBe(50);
});

it('with the limiter off, 429s are retried after Retry-After and every call succeeds', async () => {
  await new Promise((r) => setTimeout(r, 1100));
  box.store.resetStats();
  const retries: string[] = [];
  const store = clientFor(box, {
    rateLimit: false,
    maxRetries: 6,
    hooks: { beforeRetry: (e) => void retries.push(e.reason) },
  });
  const pages = await burst(store, 40);
  expect(pages).toHaveLength(40);
  expect(box.store.stats().rateLimited).toBeGreaterThan(0);
  expect(retries.length).toBe(box.store.stats().rateLimited);
  expect(new Set(retries)).toEqual(new Set(['status 429']));
});
