import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/client/backoff.js';
import { TokenBucket } from '../../src/client/token-bucket.js';

describe('backoffDelay (full jitter)', () => {
  it('is uniform between 0 and the capped exponential step', () => {
    const top = () => 0.999999;
    expect(backoffDelay(1, DEFAULT_BACKOFF, top)).toBe(999);
    expect(backoffDelay(2, DEFAULT_BACKOFF, top)).toBe(1999);
    expect(backoffDelay(5, DEFAULT_BACKOFF, top)).toBe(15_999);
    expect(backoffDelay(6, DEFAULT_BACKOFF, top)).toBe(29_999);
    expect(backoffDelay(500, DEFAULT_BACKOFF, top)).toBe(29_999);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(0);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.5)).toBe(2000);
  });

  it('keeps a floor the server asked for', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0, 1000)).toBe(1000);
    expect(backoffDelay(4, DEFAULT_BACKOFF, () => 0.5, 1000)).toBe(4000);
  });

  it('honours custom options', () => {
    expect(backoffDelay(10, { baseDelayMs: 10, maxDelayMs: 100 }, () => 0.999)).toBe(99);
  });
});

describe('TokenBucket', () => {
  it('allows a burst of 10, then 10 per second', () => {
    const clock = {
      time: 0,
      advance(ms: number) {
        this.time += ms;
      },
    };
    const bucket = new TokenBucket(10, 10, () => clock.time);
    for (let i = 0; i < 10; i += 1) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.waitMs()).toBe(100);
    clock.advance(100);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    clock.advance(10_000);
    for (let i = 0; i < 10; i += 1) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
  });
});
