import { describe, expect, it } from 'vitest';
import { jsonTextDepth, jsonValueIssue, valueDeeperThan } from '../../src/index.js';

const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
function nested(n: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < n; i++) value = { a: value };
  return value;
}

describe('jsonTextDepth', () => {
  it('counts arrays and objects, not brackets inside strings or after escapes', () => {
    expect(jsonTextDepth('{"a":[1,{"b":[]}]}', 10)).toBe(4);
    expect(jsonTextDepth('{"a":"[[[{{{\\"[["}', 10)).toBe(1);
    expect(jsonTextDepth('"plain"', 10)).toBe(0);
  });

  it('stops one past the limit, so a million levels cost one short scan', () => {
    expect(jsonTextDepth(arrays(1_000_000), 64)).toBe(65);
  });
});

describe('jsonValueIssue', () => {
  it('passes what JSON.stringify encodes, including one object shared by two branches', () => {
    const shared = { x: [1, 2] };
    expect(jsonValueIssue({ a: shared, b: shared, c: nested(99) }, 'data', 100)).toBeUndefined();
  });

  it('names the path for nesting past the limit, a cycle and a BigInt, without recursing', () => {
    expect(jsonValueIssue(nested(100_000), 'data', 100)?.message).toMatch(/^nests deeper than 100 levels/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(jsonValueIssue(cyclic, 'user', 100)).toMatchObject({ path: 'user', message: /contains itself/ });
    expect(jsonValueIssue({ n: 1n }, 'data', 100)?.message).toMatch(/BigInt/);
  });

  it('follows toJSON as JSON.stringify does', () => {
    expect(jsonValueIssue({ toJSON: () => nested(200) }, 'data', 100)).toBeDefined();
    expect(jsonValueIssue({ deep: nested(200), toJSON: () => 'flat' }, 'data', 100)).toBeUndefined();
  });
});

describe('valueDeeperThan', () => {
  it('measures depth with an explicit stack, and a cycle ends the walk', () => {
    expect(valueDeeperThan(nested(64), 64)).toBe(false);
    expect(valueDeeperThan(nested(100_000), 64)).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(valueDeeperThan(cyclic, 64)).toBe(false);
  });
});
