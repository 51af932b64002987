import { randomBytes } from 'node:crypto';

/** `YYYY-MM-DDTHH:MM:SS` without offset, as wc_rest_prepare_date_response(). The emulated site runs on UTC. */
export function wcDate(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().slice(0, 19);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses an RFC 3339 / WordPress date-time; strings without an offset are site time (UTC here). */
export function parseWcDate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = DATE_RE.exec(value.trim());
  if (!m) return null;
  const zone = m[8] && m[8] !== 'z' && m[8] !== 'Z' ? m[8] : 'Z';
  const normalized = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${
    zone.length === 3 ? `${zone}:00` : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone
  }`;
  const ms = Date.parse(normalized);
  return Number.isFinite(ms) ? ms : null;
}

/** wc_format_decimal($n, $dp): fixed decimals as a string; `dp` false keeps the value trimmed. */
export function money(n: number, dp = 2): string {
  const v = Number.isFinite(n) ? n : 0;
  const fixed = v.toFixed(Math.max(0, Math.min(dp, 20)));
  return fixed === `-${(0).toFixed(dp)}` ? fixed.slice(1) : fixed;
}

export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** A loose sanitize_title(): lower-case, ASCII-ish, dashes. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  if (slug) return slug;
  try {
    return encodeURIComponent(text.toLowerCase()).toLowerCase().slice(0, 190);
  } catch {
    return '';
  }
}

export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[bytes[i]! % ALNUM.length];
  return out;
}

export type PhpValue = string | PhpArray;
export interface PhpArray {
  [key: string]: PhpValue;
}

/**
 * PHP's parse_str() for a list of decoded pairs: `a[]=1&a[]=2` → `{a: {0: '1', 1: '2'}}`, `a[b]=c` → `{a: {b: 'c'}}`.
 * Key order is insertion order, as PHP arrays keep it (this matters for OAuth signing).
 */
export function parsePhpPairs(pairs: Iterable<[string, string]>): PhpArray {
  const root: PhpArray = Object.create(null);
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
    let node: PhpArray = root;
    let key = base;
    for (const sub of subs) {
      let child = node[key];
      if (child === undefined || typeof child === 'string') {
        child = Object.create(null) as PhpArray;
        node[key] = child;
      }
      node = child;
      key = sub === '' ? String(nextIndex(node)) : sub;
    }
    node[key] = value;
  }
  return root;
}

function nextIndex(node: PhpArray): number {
  let max = -1;
  for (const k of Object.keys(node)) {
    if (/^(0|[1-9]\d*)$/.test(k)) max = Math.max(max, Number(k));
  }
  return max + 1;
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

/** Converts PHP-style associative arrays with 0..n keys into JS arrays, recursively (for request params). */
export function phpToJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  const keys = Object.keys(value);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  if (isList) return keys.map((k) => phpToJs(value[k]!));
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = phpToJs(value[k]!);
  return out;
}

/** Deterministic PRNG (mulberry32) for the demo seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function clone<T>(value: T): T {
  return structuredClone(value);
}
