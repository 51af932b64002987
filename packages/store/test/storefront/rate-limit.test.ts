/**
 * The Store API's optional rate limit (StoreApi/Utilities/RateLimits.php) answers HTTP 400
 * `rate_limit_exceeded` with `RateLimit-*` headers: the client makes it core's RateLimitError with the
 * retry-after, and retries it as core retries a 429 when the caller's retry options allow the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/storefront/index.js';
import { clientFor, rejection, type Sandbox, sandbox } from '../helpers/sandbox.js';
import { storefrontFor } from './helpers.js';

let strict: Sandbox;
let brief: Sandbox;

beforeAll(async () => {
  [strict, brief] = await Promise.all([
    sandbox({ store: { storeApi: { rateLimit: { limit: 2, seconds: 60 } } } }),
    sandbox({ store: { storeApi: { rateLimit: { limit: 2, seconds: 2 } } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([strict?.close(), brief?.close()]);
});

describe('Store API rate limit', () => {
  it('is a RateLimitError with status 400, its code and the retry-after, not retried past maxRetryAfterMs', async () => {
    const statuses: number[] = [];
    const shop = storefrontFor(strict, {
      retry: { maxRetryAfterMs: 1_000 },
      hooks: { afterResponse: ({ status }) => void statuses.push(status) },
    });
    await shop.products.list();
    await shop.cart.get();
    const error = await rejection(shop.products.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 400, code: 'rate_limit_exceeded' });
    expect(error.retryAfterMs).toBeGreaterThan(1_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(error.message).toContain('Too many requests');
    // The server asked for longer than the caller allows: one answer, no retry.
    expect(statuses).toEqual([200, 200, 400]);

    // A wait the retry policy allows but the call's totalTimeout does not: refused at once, not slept out.
    const patient = storefrontFor(strict, {
      retry: { maxRetryAfterMs: 120_000 },
      totalTimeout: 5_000,
      hooks: { afterResponse: ({ status }) => void statuses.push(status) },
    });
    await expect(patient.products.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(statuses).toEqual([200, 200, 400, 400]);
  });

  it('is retried after the wait the server asks for, POSTs included (refused before the route ran)', async () => {
    const id = (await clientFor(brief).products.create({ name: 'Limited', regular_price: '2.00' })).id;
    const statuses: number[] = [];
    const shop = storefrontFor(brief, {
      maxRetries: 5,
      hooks: { afterResponse: ({ status }) => void statuses.push(status) },
    });
    // Limit 2 per 2-second window: a run of adds meets the limit (RateLimits.php serves the second the window
    // resets in, so a few more may pass first), and every add still lands exactly once.
    let quantity = 0;
    for (let i = 0; i < 40 && !statuses.includes(400); i++) {
      const cart = await shop.cart.addItem({ id });
      quantity++;
      expect(cart.items[0]?.quantity).toBe(quantity);
    }
    expect(statuses).toContain(400);
    expect((await shop.cart.get()).items[0]?.quantity).toBe(quantity);
  });
});
