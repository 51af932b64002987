/** The depth bound on user JSON: measured by scanning text or walking a value, never by recursion. */
import { describe, expect, it } from 'vitest';
import {
  jsonTextDepth,
  MAX_USER_JSON_DEPTH,
  valueDeeperThan,
} from '../../src/realtime/protocol/json-depth.js';

describe('jsonTextDepth', () => {
  it('counts arrays and objects, not brackets inside strings or after escaped quotes', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonTextDepth('["[[[[", "{{{"]')).toBe(1);
    expect(jsonTextDepth('["\\"[[[", "\\\\", [2]]')).toBe(2);
  });

  it('stops one past the limit, whatever the depth, without overflowing', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonTextDepth(deep)).toBe(MAX_USER_JSON_DEPTH + 1);
    expect(jsonTextDepth(deep, 5)).toBe(6);
    expect(jsonTextDepth(deep, Number.POSITIVE_INFINITY)).toBe(1_000_000);
  });
});

describe('valueDeeperThan', () => {
  it('is true only past the limit', () => {
    expect(valueDeeperThan('x', 0)).toBe(false);
    expect(valueDeeperThan([], 0)).toBe(true);
    expect(valueDeeperThan({ a: [1, { b: null }] }, 3)).toBe(false);
    expect(valueDeeperThan({ a: [1, { b: [] }] }, 3)).toBe(true);
  });

  it('walks a value nested 200,000 deep (which JSON.stringify cannot) without overflowing', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(valueDeeperThan(deep)).toBe(true);
    expect(valueDeeperThan(deep, 200_000)).toBe(false);
  });
});
