/** PHP's request parsing as WordPress sees it: $_GET / $_POST arrays from raw query and form strings. */

export type PhpValue = string | PhpArray;

export interface PhpArray {
  [key: string]: PhpValue;
}

/** php.ini's max_input_nesting_level (default 64): deeper `a[b][c]...` names are not registered at all. */
const MAX_INPUT_NESTING_LEVEL = 64;

/**
 * PHP's parse_str() for a list of decoded pairs: `a[]=1&a[]=2` → `{a: {0: '1', 1: '2'}}`, `a[b]=c` → `{a: {b: 'c'}}`.
 * Key order is insertion order, as PHP arrays keep it (this matters for OAuth signing).
 */
export function parsePhpPairs(pairs: Iterable<[string, string]>): PhpArray {
  const root: PhpArray = Object.create(null);
  // Each array's next `[]` index, as PHP keeps it (nNextFreeElement): one past the largest integer key so far.
  // Scanning the keys for it at every `a[]=` made a form of many of them quadratic.
  const nextFree = new WeakMap<PhpArray, number>();
  const put = (node: PhpArray, key: string, value: PhpValue) => {
    node[key] = value;
    if (/^(0|[1-9]\d*)$/.test(key)) nextFree.set(node, Math.max(nextFree.get(node) ?? 0, Number(key) + 1));
  };
  for (const [rawKey, value] of pairs) {
    if (rawKey === '') continue;
    const open = rawKey.indexOf('[');
    let base = open > 0 ? rawKey.slice(0, open) : rawKey;
    base = base.replace(/[ .]/g, '_');
    const subs: string[] = [];
    if (open > 0) {
      const re = /\[([^\]]*)\]/gy;
      re.lastIndex = open;
      let m: RegExpExecArray | null = re.exec(rawKey);
      while (m !== null) {
        subs.push(m[1]!);
        m = re.exec(rawKey);
      }
      if (subs.length === 0) base = rawKey.replace(/[ .]/g, '_');
    }
    if (subs.length === 0) {
      root[base] = value;
      continue;
    }
    if (subs.length > MAX_INPUT_NESTING_LEVEL) {
      // php_register_variable_ex(): the variable is dropped, and so is everything already under its name.
      delete root[base];
      continue;
    }
    let node: PhpArray = root;
    let key = base;
    for (const sub of subs) {
      let child = node[key];
      if (child === undefined || typeof child === 'string') {
        child = Object.create(null) as PhpArray;
        put(node, key, child);
      }
      node = child;
      key = sub === '' ? String(nextFree.get(node) ?? 0) : sub;
    }
    put(node, key, value);
  }
  return root;
}

/** Splits a raw query/form string into decoded pairs the way PHP does (`+` is a space). */
export function decodePairs(raw: string): [string, string][] {
  const out: [string, string][] = [];
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = eq === -1 ? part : part.slice(0, eq);
    const v = eq === -1 ? '' : part.slice(eq + 1);
    out.push([phpUrlDecode(k), phpUrlDecode(v)]);
  }
  return out;
}

export function phpUrlDecode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
}

/**
 * Converts PHP-style associative arrays with 0..n keys into JS arrays, recursively (for request params). The
 * other arrays keep every key the client sent: null-prototype objects, so `a[__proto__]=1` is an entry named
 * `__proto__` as in PHP, not an assignment to the object's prototype that drops it.
 */
export function phpToJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  const keys = Object.keys(value);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  if (isList) return keys.map((k) => phpToJs(value[k]!));
  const out: Record<string, unknown> = Object.create(null);
  for (const k of keys) out[k] = phpToJs(value[k]!);
  return out;
}
