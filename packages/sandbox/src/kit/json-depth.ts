/**
 * Nesting depth of JSON that clients send, for every emulator. `JSON.parse` reads any depth, but
 * `JSON.stringify` recurses and runs out of stack a few thousand levels down, and emulators serialise what
 * they keep (journals, answers, fan-out to receivers); so depth is bounded where data arrives, and measured
 * with loops, never recursion, so that measuring cannot overflow either. Each emulator picks its limit where
 * its service would refuse the input (or, where it documents none, far beyond any real payload).
 */

/**
 * The deepest nesting of arrays and objects in JSON text, found by scanning it (brackets inside strings do not
 * count). Stops at `limit + 1`: that is enough to refuse it.
 */
export function jsonTextDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return max;
}

/** Whether a parsed JSON value nests arrays and objects deeper than `limit`, walked with an explicit stack. */
export function valueDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    const depth = item.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(item.value)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth });
    }
  }
  return false;
}
