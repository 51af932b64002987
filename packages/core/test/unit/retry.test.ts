import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY,
  decideRetry,
  parseRetryAfter,
  RetryBudget,
  serverBackoffMs,
} from '../../src/retry.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ctx = (over: Partial<Parameters<typeof decideRetry>[1]> = {}) => ({
  method: 'GET',
  retryIndex: 0,
  safeToRepeat: false,
  elapsedMs: 0,
  now: NOW,
  options: DEFAULT_RETRY,
  random: () => 0.5,
  ...over,
});
const response = (status: number, headers: Record<string, string> = {}) => ({
  kind: 'response' as const,
  status,
  headers: new Headers(headers),
});

describe('backoffDelay', () => {
  it('draws uniformly below an exponentially growing, capped ceiling', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, opts, () => 0.999)).toBe(99);
    expect(backoffDelay(3, opts, () => 0.999)).toBe(799);
    expect(backoffDelay(10, opts, () => 0.999)).toBe(999);
    expect(backoffDelay(10, opts, () => 0)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:10 GMT', NOW)).toBe(10_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});

describe('serverBackoffMs', () => {
  it('prefers Retry-After, then RateLimit-Reset when exhausted (delta or epoch), then the structured header', () => {
    expect(serverBackoffMs(new Headers({ 'retry-after': '2', 'ratelimit-reset': '9' }), 429, NOW)).toBe(2000);
    expect(
      serverBackoffMs(new Headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '7' }), 200, NOW),
    ).toBe(7000);
    expect(
      serverBackoffMs(
        new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 30) }),
        200,
        NOW,
      ),
    ).toBe(30_000);
    expect(
      serverBackoffMs(new Headers({ 'ratelimit-remaining': '5', 'ratelimit-reset': '7' }), 200, NOW),
    ).toBeUndefined();
    expect(serverBackoffMs(new Headers({ ratelimit: 'limit=100, remaining=0, reset=4' }), 200, NOW)).toBe(
      4000,
    );
    expect(serverBackoffMs(new Headers({ 'ratelimit-retry-after': '6' }), 400, NOW)).toBe(6000);
    expect(serverBackoffMs(new Headers(), 429, NOW)).toBeUndefined();
  });
});

describe('decideRetry', () => {
  it('retries the retryable statuses for idempotent methods', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(decideRetry(response(status), ctx()).retry).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422, 501])
      expect(decideRetry(response(status), ctx()).retry).toBe(false);
  });

  it('repeats POST and PATCH only when provably unprocessed or made safe', () => {
    expect(decideRetry(response(503), ctx({ method: 'POST' })).retry).toBe(false);
    expect(decideRetry(response(500), ctx({ method: 'PATCH' })).retry).toBe(false);
    expect(decideRetry(response(429), ctx({ method: 'POST' })).retry).toBe(true);
    expect(decideRetry(response(503), ctx({ method: 'POST', safeToRepeat: true })).retry).toBe(true);
    expect(
      decideRetry({ kind: 'connection', timedOut: false, unsent: true }, ctx({ method: 'POST' })).retry,
    ).toBe(true);
    expect(
      decideRetry({ kind: 'connection', timedOut: false, unsent: false }, ctx({ method: 'POST' })).retry,
    ).toBe(false);
    expect(
      decideRetry({ kind: 'connection', timedOut: true, unsent: false }, ctx({ method: 'PUT' })).retry,
    ).toBe(true);
  });

  it('uses the server-requested wait and refuses one longer than allowed', () => {
    expect(decideRetry(response(429, { 'retry-after': '3' }), ctx())).toEqual({
      retry: true,
      delayMs: 3000,
      reason: 'status 429',
    });
    const tooLong = decideRetry(response(429, { 'retry-after': '3600' }), ctx());
    expect(tooLong.retry).toBe(false);
    expect(tooLong.reason).toContain('maxRetryAfterMs');
  });

  it('stops at maxRetries and before the deadline', () => {
    expect(decideRetry(response(500), ctx({ retryIndex: 2 })).retry).toBe(false);
    const deadline = decideRetry(
      response(503, { 'retry-after': '5' }),
      ctx({ options: { ...DEFAULT_RETRY, deadlineMs: 6000 }, elapsedMs: 2000 }),
    );
    expect(deadline).toEqual({ retry: false, reason: 'deadline of 6000 ms would pass' });
  });
});

describe('RetryBudget', () => {
  it('spends per retry, more for timeouts, refunds on success, never exceeds capacity', () => {
    const budget = new RetryBudget({ capacity: 12, retryCost: 5, timeoutCost: 10, successRefund: 1 });
    expect(budget.trySpend(false)).toBe(true);
    expect(budget.tokens).toBe(7);
    expect(budget.trySpend(true)).toBe(false);
    expect(budget.trySpend(false)).toBe(true);
    expect(budget.trySpend(false)).toBe(false);
    budget.refund();
    expect(budget.tokens).toBe(3);
    for (let i = 0; i < 50; i++) budget.refund();
    expect(budget.tokens).toBe(12);
  });
});
