import type { ValidationIssue } from './errors.js';

/**
 * Nesting depth of JSON, for the service packages that take user JSON in (webhook bodies) or send it out
 * (event data). `JSON.parse` reads any depth, but `JSON.stringify`, zod and loggers recurse and run out of
 * stack a few thousand levels down with a raw `RangeError` that names nothing; so depth is measured first,
 * with loops, never recursion, so that measuring cannot overflow either. Each package picks its own limit.
 */

/**
 * The deepest nesting of arrays and objects in JSON text, brackets inside strings not counted; one pass.
 * Stops counting at `limit + 1`: that is enough to refuse it.
 */
export function jsonTextDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Why `JSON.stringify(value)` would fail or nest deeper than `maxDepth`, as an issue under `path`; undefined
 * when it will not: nesting deeper than `maxDepth`, a value that contains itself, or a BigInt. Walks what
 * `JSON.stringify` walks (own enumerable values, after `toJSON`) with an explicit stack; only the ancestors of
 * each value are kept, so a value shared by two branches is not taken for a cycle.
 */
export function jsonValueIssue(value: unknown, path: string, maxDepth: number): ValidationIssue | undefined {
  // Each entry is a value to enter, or `exit` closing the value entered before its children.
  const exit = Symbol('exit');
  const stack: unknown[] = [value];
  const ancestors: object[] = [];
  while (stack.length > 0) {
    let node = stack.pop();
    if (node === exit) {
      ancestors.pop();
      continue;
    }
    if (typeof (node as { toJSON?: unknown } | null)?.toJSON === 'function')
      node = (node as { toJSON(): unknown }).toJSON();
    if (typeof node === 'bigint') {
      return { path, message: 'contains a BigInt, which JSON cannot encode; send it as a string' };
    }
    if (typeof node !== 'object' || node === null) continue;
    if (ancestors.includes(node)) {
      return { path, message: 'contains itself (a circular reference), which JSON cannot encode' };
    }
    if (ancestors.length >= maxDepth) {
      return {
        path,
        message: `nests deeper than ${maxDepth} levels of arrays and objects; flatten it`,
      };
    }
    ancestors.push(node);
    stack.push(exit);
    for (const child of Object.values(node)) {
      if ((typeof child === 'object' && child !== null) || typeof child === 'bigint') stack.push(child);
    }
  }
  return undefined;
}

/**
 * Whether a value nests arrays and objects deeper than `limit`, walked with an explicit stack. Each object
 * is entered once, so a cycle ends the walk instead of counting as depth (use `jsonValueIssue` to refuse one).
 */
export function valueDeeperThan(value: unknown, limit: number): boolean {
  const seen = new Set<object>();
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (depth + 1 > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
