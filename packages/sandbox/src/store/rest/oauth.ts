import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PhpArray, PhpValue } from '../runtime/php.js';

/** PHP rawurlencode(): RFC 3986, everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function rawurlencode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** PHP urldecode(): `+` is a space. */
function urldecode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** PHP rawurldecode(): `+` stays. */
function rawurldecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** WC_REST_Authentication::parse_header(): `oauth_*` pairs of an `Authorization: OAuth ...` header. */
export function parseOAuthHeader(header: string): Record<string, string> {
  const trimmed = header.trim();
  if (!trimmed.startsWith('OAuth ')) return {};
  const out: Record<string, string> = {};
  const re = /(oauth_[a-z_-]*)=(:?"([^"]*)"|([^,]*))/g;
  let m: RegExpExecArray | null = re.exec(trimmed);
  while (m !== null) {
    out[m[1]!] = urldecode(m[3] ? m[3] : (m[4] ?? ''));
    m = re.exec(trimmed);
  }
  return out;
}

function strcmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function encodeValues(value: PhpValue): PhpValue {
  if (typeof value === 'string') return rawurlencode(value);
  const out: PhpArray = Object.create(null);
  for (const [k, v] of Object.entries(value)) out[k] = encodeValues(v);
  return out;
}

function joinWithEquals(params: PhpArray, acc: string[], prefix: string): string[] {
  for (const [k, v] of Object.entries(params)) {
    const key = prefix ? `${prefix}%5B${k}%5D` : k;
    if (typeof v === 'string') acc.push(rawurlencode(`${key}=${v}`));
    else joinWithEquals(v, acc, key);
  }
  return acc;
}

/**
 * The string WooCommerce signs: `METHOD&rawurlencode(home_url(path))&<params>` where params are the request's
 * GET ∪ POST(form) ∪ OAuth-header parameters minus `oauth_signature`, top-level keys sorted with strcmp, keys and
 * values RFC 3986-encoded, nested arrays flattened as `k%5Bsub%5D`, each `k=v` encoded again and joined by `%26`.
 */
export function oauthBaseString(
  method: string,
  homeUrl: string,
  requestPath: string,
  params: PhpArray,
): string {
  let path = requestPath;
  if (path.startsWith('/')) path = path.slice(1);
  const url = path ? `${homeUrl.replace(/\/$/, '')}/${path}` : homeUrl.replace(/\/$/, '');
  const keys = Object.keys(params)
    .filter((k) => k !== 'oauth_signature')
    .sort(strcmp);
  const normalized: PhpArray = Object.create(null);
  for (const k of keys) normalized[rawurlencode(k)] = encodeValues(params[k]!);
  const pairs = joinWithEquals(normalized, [], '');
  return `${method.toUpperCase()}&${rawurlencode(url)}&${pairs.join('%26')}`;
}

export function oauthSign(baseString: string, consumerSecret: string, algorithm: 'sha1' | 'sha256'): string {
  return createHmac(algorithm, `${consumerSecret}&`).update(baseString).digest('base64');
}

/** The signature as the server reads it: `rawurldecode(str_replace(' ', '+', $sig))`. */
export function normalizeProvidedSignature(sig: string): string {
  return rawurldecode(sig.replace(/ /g, '+'));
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
