/**
 * ChannelCache against a model, with the injected clock: after every write no expired entry is left, the
 * entries never exceed the caps (one entry larger than them alone stays), the newest write is always there,
 * and the oldest writes are the ones forgotten.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { CACHE_LIMITS, ChannelCache } from '../../src/realtime/model/cache.js';

const TTL = 100;
const LIMITS = { maxChannels: 5, maxChars: 60 };

const op = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    channel: fc.integer({ min: 0, max: 12 }).map((n) => `cache-${n}`),
    data: fc.string({ maxLength: 40 }),
    advance: fc.integer({ min: 0, max: 60 }),
  }),
  fc.record({
    kind: fc.constant('get' as const),
    channel: fc.integer({ min: 0, max: 12 }).map((n) => `cache-${n}`),
    advance: fc.integer({ min: 0, max: 60 }),
  }),
);

/** The latest write to `channel` (es2022 here: no findLast). */
function lastWrite<T extends { channel: string }>(writes: T[], channel: string): T | undefined {
  for (let i = writes.length - 1; i >= 0; i--) if (writes[i]!.channel === channel) return writes[i];
  return undefined;
}

it('holds the caps and drops expired entries on the next write', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
      const cache = new ChannelCache(TTL, LIMITS);
      // The model: every write in order with its time; what the cache may still hold is a suffix of it.
      const writes: { channel: string; data: string; at: number }[] = [];
      let now = 0;
      for (const o of ops) {
        now += o.advance;
        if (o.kind === 'get') {
          const got = cache.get(o.channel, now);
          const last = lastWrite(writes, o.channel);
          if (got) {
            expect(last).toBeDefined();
            expect(got.data).toBe(last!.data);
            expect(got.expiresAt).toBeGreaterThan(now);
          }
          continue;
        }
        cache.set(o.channel, 'e', o.data, now);
        writes.push({ channel: o.channel, data: o.data, at: now });
        const newest = cache.get(o.channel, now);
        expect(newest?.data).toBe(o.data);
        expect(cache.size).toBeLessThanOrEqual(LIMITS.maxChannels);
        const alone = cache.size === 1;
        if (!alone) expect(cache.chars).toBeLessThanOrEqual(LIMITS.maxChars);
        // No expired entry survives a write: every channel still held was written within the TTL.
        for (const w of writes) {
          if (w.at + TTL <= now && lastWrite(writes, w.channel) === w) {
            expect(cache.get(w.channel, now)).toBeUndefined();
          }
        }
      }
    }),
    { numRuns: 300 },
  );
});

it('forgets the oldest write first, and a rewrite makes a channel new again', () => {
  const cache = new ChannelCache(1_000_000, { maxChannels: 3, maxChars: 1_000_000 });
  cache.set('cache-a', 'e', '1', 0);
  cache.set('cache-b', 'e', '2', 1);
  cache.set('cache-c', 'e', '3', 2);
  cache.set('cache-a', 'e', '4', 3); // a is now the newest
  cache.set('cache-d', 'e', '5', 4); // b, the oldest, goes
  expect(cache.get('cache-b', 5)).toBeUndefined();
  expect(['cache-a', 'cache-c', 'cache-d'].map((c) => cache.get(c, 5)?.data)).toEqual(['4', '3', '5']);
  expect(cache.chars).toBe(3 * ('cache-a'.length + 1 + 1));
});

it('an expired entry of a channel nobody reads is gone after a later write to another channel', () => {
  const cache = new ChannelCache(10, CACHE_LIMITS);
  cache.set('cache-old', 'e', 'x'.repeat(10_000), 0);
  cache.set('cache-new', 'e', 'y', 10);
  expect(cache.size).toBe(1);
  expect(cache.chars).toBe('cache-new'.length + 2);
});
