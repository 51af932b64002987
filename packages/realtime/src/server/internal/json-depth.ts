import type { ValidationIssue } from '@x/core';

/**
 * Nesting depth of the JSON this SDK encodes (event data, presence data, user data) or decodes (webhook
 * bodies). `JSON.stringify` recurses and runs out of stack a few thousand levels down, with a raw `RangeError`
 * that names nothing; so depth is measured first, with loops, never recursion, so that measuring cannot
 * overflow either. (The same measure lives in @x/transcription's webhooks and in the sandbox: it belongs in
 * @x/core, and is kept here until it moves there.)
 *
 * Pusher documents no depth limit; 100 levels is far beyond any real payload (10 KB of data cannot usefully
 * hold more) and far below where serialising fails. The sandbox refuses client data past the same depth.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * The deepest nesting of arrays and objects in JSON text, brackets inside strings not counted; one pass.
 * Stops at `limit + 1`: that is enough to refuse it.
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
 * Why `JSON.stringify(value)` would fail, as an issue under `path`, or undefined when it will not: nesting
 * deeper than `MAX_JSON_DEPTH`, a value that contains itself, or a BigInt. Walks what `JSON.stringify` walks (own
 * enumerable values, after `toJSON`) with an explicit stack; only the ancestors of each value are kept, so a
 * value shared by two branches is not taken for a cycle.
 */
export function jsonValueIssue(value: unknown, path: string): ValidationIssue | undefined {
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
    if (ancestors.length >= MAX_JSON_DEPTH) {
      return {
        path,
        message: `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects; flatten it (nothing was sent)`,
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
