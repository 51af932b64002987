/**
 * A minimal, independent OAuth 1.0a one-legged signer that follows WooCommerce's own verifier
 * (plugins/woocommerce/includes/class-wc-rest-authentication.php, check_oauth_signature()):
 *
 * - base string = UPPER(method) & rawurlencode(home_url(path)) & pairs joined by %26, where each pair is
 *   rawurlencode(rawurlencode(key) . '=' . rawurlencode(value)); nested arrays become key%5Bsub%5D;
 * - parameters are the PHP-parsed $_GET (so `include[]=1&include[]=2` is signed as include[0], include[1]),
 *   plus the oauth_* parameters; sorted by top-level key with strcmp, nested keys in PHP array order;
 * - key = consumer_secret + '&'; HMAC-SHA1 or HMAC-SHA256; signature base64.
 *
 * Written for the tests; it deliberately shares no code with the emulator or with `oauth-1.0a`.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** PHP rawurlencode(): everything except A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function rawurlencode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export type Pair = [key: string, value: string];

/**
 * Turn query pairs into what PHP's $_GET holds, flattened back to `top[sub]` keys: `k[]` entries are
 * numbered 0, 1, ... per top-level key; a repeated plain key keeps only its last value (PHP last-wins).
 */
export function phpNormalizePairs(pairs: Pair[]): Pair[] {
  const groups = new Map<string, Pair[] | string>();
  const counters = new Map<string, number>();
  for (const [key, value] of pairs) {
    const bracket = key.indexOf('[');
    if (bracket <= 0) {
      groups.set(key, value);
      continue;
    }
    const top = key.slice(0, bracket);
    let rest = key.slice(bracket);
    if (rest.startsWith('[]')) {
      const n = counters.get(top) ?? 0;
      counters.set(top, n + 1);
      rest = `[${n}]${rest.slice(2)}`;
    }
    const existing = groups.get(top);
    const list = Array.isArray(existing) ? existing : [];
    list.push([`${top}${rest}`, value]);
    groups.set(top, list);
  }
  const out: Pair[] = [];
  for (const [top, entry] of groups) {
    if (Array.isArray(entry)) out.push(...entry);
    else out.push([top, entry]);
  }
  return out;
}

function topKey(key: string): string {
  const bracket = key.indexOf('[');
  return bracket <= 0 ? key : key.slice(0, bracket);
}

function strcmp(a: string, b: string): number {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return Buffer.compare(ab, bb);
}

/** The WooCommerce signature base string for already PHP-normalized pairs (oauth_signature excluded). */
export function wcBaseString(method: string, baseUrl: string, pairs: Pair[]): string {
  // Stable sort on the top-level key only (uksort on $params); nested entries keep their order.
  const sorted = pairs
    .map((pair, index) => ({ pair, index }))
    .sort((a, b) => strcmp(topKey(a.pair[0]), topKey(b.pair[0])) || a.index - b.index)
    .map(({ pair }) => pair);
  const encoded = sorted.map(([key, value]) => {
    const bracket = key.indexOf('[');
    const encodedKey =
      bracket <= 0
        ? rawurlencode(key)
        : rawurlencode(key.slice(0, bracket)) +
          key.slice(bracket).replace(/\[/g, '%5B').replace(/\]/g, '%5D');
    return rawurlencode(`${encodedKey}=${rawurlencode(value)}`);
  });
  return `${method.toUpperCase()}&${rawurlencode(baseUrl)}&${encoded.join('%26')}`;
}

export interface SignInput {
  method: string;
  /** The URL the server reconstructs: home URL + request path, no query string. */
  baseUrl: string;
  /** Query pairs exactly as they will be sent on the wire (e.g. `include[]`). */
  query: Pair[];
  consumerKey: string;
  consumerSecret: string;
  signatureMethod?: 'HMAC-SHA1' | 'HMAC-SHA256';
  timestamp?: number;
  nonce?: string;
  /** Sign these pairs instead of the PHP-normalized query (to build deliberately wrong signatures). */
  signedQueryOverride?: Pair[];
}

export interface Signed {
  /** oauth_* parameters including oauth_signature. */
  oauth: Record<string, string>;
  signature: string;
  baseString: string;
}

export function signWc(input: SignInput): Signed {
  const signatureMethod = input.signatureMethod ?? 'HMAC-SHA1';
  const oauth: Record<string, string> = {
    oauth_consumer_key: input.consumerKey,
    oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: signatureMethod,
    oauth_timestamp: String(input.timestamp ?? Math.floor(Date.now() / 1000)),
  };
  const signedQuery = input.signedQueryOverride ?? phpNormalizePairs(input.query);
  const pairs: Pair[] = [...signedQuery, ...Object.entries(oauth)];
  const baseString = wcBaseString(input.method, input.baseUrl, pairs);
  const algorithm = signatureMethod === 'HMAC-SHA1' ? 'sha1' : 'sha256';
  const signature = createHmac(algorithm, `${input.consumerSecret}&`).update(baseString).digest('base64');
  return { oauth: { ...oauth, oauth_signature: signature }, signature, baseString };
}

/** Serialize pairs into a query string, percent-encoding keys and values (brackets kept readable). */
export function toQueryString(pairs: Pair[]): string {
  return pairs
    .map(([k, v]) => `${rawurlencode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${rawurlencode(v)}`)
    .join('&');
}
