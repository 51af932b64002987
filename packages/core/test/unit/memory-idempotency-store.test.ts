import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore, ValidationError } from '../../src/index.js';

const ask = (fingerprint: string) => ({ fingerprint, owner: 'o', sent: 'a', leaseMs: 1000, ttlMs: 60_000 });

describe('MemoryIdempotencyStore maxEntries', () => {
  it('keeps at most maxEntries keys, dropping the least recently changed, and expires keys after ttlMs', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore({ maxEntries: 2, now: () => now });
    expect((await store.reserve('a', ask('fa'))).outcome).toBe('reserved');
    expect((await store.reserve('b', ask('fb'))).outcome).toBe('reserved');
    // Changing `a` makes `b` the least recently changed, so `c` pushes `b` out.
    expect(await store.complete('a', 'o', 'done-a', 60_000)).toBe(true);
    expect((await store.reserve('c', ask('fc'))).outcome).toBe('reserved');
    expect(store.size).toBe(2);
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.state).toBe('done');
    expect((await store.reserve('a', ask('fa'))).outcome).toBe('done');
    now += 60_001;
    expect(await store.get('a')).toBeUndefined();
  });

  it('is unbounded by default and refuses a bound that is not a positive integer, naming maxEntries', async () => {
    const store = new MemoryIdempotencyStore();
    for (let i = 0; i < 1000; i++) await store.reserve(`k${i}`, ask(`f${i}`));
    expect(store.size).toBe(1000);
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      const attempt = () => new MemoryIdempotencyStore({ maxEntries });
      expect(attempt).toThrow(ValidationError);
      expect(attempt).toThrow(/maxEntries/);
    }
  });
});
