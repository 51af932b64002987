/** The emulator kit on its own: no server, no store, injected clocks. Persistence: persistence.test.ts. */
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '../../src/kit/body.js';
import { type FaultMatch, FaultQueue } from '../../src/kit/faults.js';
import { checkRateLimit, RateWindows } from '../../src/kit/rate-windows.js';
import { RequestStats } from '../../src/kit/stats.js';

describe('FaultQueue', () => {
  type F = FaultMatch & { status: number; tag?: string };

  it('answers `times` matching requests, first injected first', () => {
    const q = new FaultQueue<F>();
    q.inject({ status: 503, times: 2 });
    q.inject({ status: 500 });
    expect([q.take('GET', '/a'), q.take('GET', '/a'), q.take('GET', '/a'), q.take('GET', '/a')]).toEqual([
      { status: 503, times: 2 },
      { status: 503, times: 2 },
      { status: 500 },
      null,
    ]);
  });

  it('matches method (any case), path by string equality or RegExp, and a predicate', () => {
    const q = new FaultQueue<F>();
    q.inject({ status: 1, method: 'post', path: '/orders' });
    q.inject({ status: 2, path: /^\/products/ });
    q.inject({ status: 3, tag: 'strip' });
    expect(q.take('GET', '/orders', (f) => f.tag === undefined)).toBeNull();
    expect(q.take('GET', '/products/5')?.status).toBe(2);
    expect(q.take('POST', '/orders/1')).toMatchObject({ status: 3 });
    expect(q.take('POST', '/orders')?.status).toBe(1);
    expect(q.take('GET', '/anything')).toBeNull();
  });

  it('ignores faults with times <= 0 and forgets everything on clear()', () => {
    const q = new FaultQueue<F>();
    q.inject({ status: 1, times: 0 });
    expect(q.take('GET', '/')).toBeNull();
    q.inject({ status: 2, times: 5 });
    q.clear();
    expect(q.take('GET', '/')).toBeNull();
  });
});

describe('RateWindows', () => {
  it('accepts `limit` requests per key in any window, then says how long to wait', () => {
    const w = new RateWindows({ limit: 2, intervalMs: 1000 });
    expect([w.take('a', 0), w.take('a', 100), w.take('a', 200)]).toEqual([0, 0, 800]);
    expect(w.take('b', 200)).toBe(0);
    // The window slides: the request at t=0 leaves it at t=1000, the refused one was never counted.
    expect(w.take('a', 999)).toBe(1);
    expect(w.take('a', 1000)).toBe(0);
    expect(w.take('a', 1001)).toBe(99);
  });

  it('never limits when off, and forgets every window on clear()', () => {
    const off = new RateWindows(false);
    for (let i = 0; i < 1000; i++) expect(off.take('k', 0)).toBe(0);
    const w = new RateWindows({ limit: 1, intervalMs: 60_000 });
    w.take('k', 0);
    expect(w.take('k', 1)).toBeGreaterThan(0);
    w.clear();
    expect(w.take('k', 2)).toBe(0);
  });

  it('rejects limits that could never limit anything (0 requests, a zero or negative window)', () => {
    for (const bad of [
      { limit: 0, intervalMs: 1000 },
      { limit: 1.5, intervalMs: 1000 },
      { limit: 5, intervalMs: 0 },
      { limit: 5, intervalMs: -1 },
      { limit: 5, intervalMs: Number.NaN },
    ]) {
      expect(() => checkRateLimit(bad)).toThrow(RangeError);
      expect(() => new RateWindows(bad)).toThrow(RangeError);
    }
    expect(() => checkRateLimit({ limit: 1, intervalMs: 1 })).not.toThrow();
  });
});

describe('RequestStats', () => {
  it('counts requests and refusals, keeps arrivals in order, and resets', () => {
    const s = new RequestStats();
    s.countRequest();
    s.countRequest();
    s.countRateLimited();
    s.recordArrival(1.5);
    s.recordArrival(2.5);
    expect(s.snapshot()).toEqual({ requests: 2, rateLimited: 1, arrivals: [1.5, 2.5] });
    s.reset();
    expect(s.snapshot()).toEqual({ requests: 0, rateLimited: 0, arrivals: [] });
  });

  it('keeps only the last 100,000 arrivals', () => {
    const s = new RequestStats();
    for (let i = 0; i < 120_000; i++) s.recordArrival(i);
    const { arrivals } = s.snapshot();
    expect(arrivals).toHaveLength(100_000);
    expect(arrivals[0]).toBe(20_000);
    expect(arrivals.at(-1)).toBe(119_999);
  });
});

describe('readBoundedBody', () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
        c.close();
      },
    });
  const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

  it('returns the bytes up to and including the limit', async () => {
    expect((await readBoundedBody(post('12345'), 5))?.toString()).toBe('12345');
    expect((await readBoundedBody(post(null), 5))?.length).toBe(0);
  });

  it('refuses a declared Content-Length over the limit, and a streamed body once it passes it', async () => {
    expect(await readBoundedBody(post('x', { 'content-length': '6' }), 5)).toBeNull();
    expect(await readBoundedBody(post(streamOf(['123', '456'])), 5)).toBeNull();
  });
});
