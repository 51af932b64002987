import { hmac, type PreparedRequest } from '@x/core';

/**
 * One-legged OAuth 1.0a as WooCommerce verifies it (`WC_REST_Authentication::check_oauth_signature`):
 * the base string is METHOD & the URL without its query & the sorted, RFC 3986 encoded parameters of the
 * query string plus the oauth_* parameters; the key is `consumer_secret&` (no token). JSON bodies are
 * not signed. Every attempt is signed afresh, so a retry never replays a nonce.
 */
export type OAuthSignatureMethod = 'HMAC-SHA256' | 'HMAC-SHA1';

export function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** PHP's strcmp order: by bytes, which for the ASCII keys of a query string is UTF-16 code unit order. */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function oauthBaseString(
  method: string,
  url: URL,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const sorted = [...params].sort(([ka, va], [kb, vb]) => byteOrder(ka, kb) || byteOrder(va, vb));
  const normalized = sorted.map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`).join('&');
  // WooCommerce rebuilds the URL as home_url(path below the WordPress base): for `/?rest_route=...` that
  // path is empty and home_url('') has no trailing slash.
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${method.toUpperCase()}&${rfc3986(`${url.origin}${path}`)}&${rfc3986(normalized)}`;
}

function nonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function signOAuth(
  request: PreparedRequest,
  credentials: { consumerKey: string; consumerSecret: string; method: OAuthSignatureMethod },
  now: () => number = Date.now,
): Promise<void> {
  const { url } = request;
  for (const key of [...url.searchParams.keys()]) if (key.startsWith('oauth_')) url.searchParams.delete(key);
  const oauth: Array<[string, string]> = [
    ['oauth_consumer_key', credentials.consumerKey],
    ['oauth_nonce', nonce()],
    ['oauth_signature_method', credentials.method],
    ['oauth_timestamp', String(Math.floor(now() / 1000))],
  ];
  const base = oauthBaseString(request.method, url, [...url.searchParams, ...oauth]);
  const algorithm = credentials.method === 'HMAC-SHA1' ? 'SHA-1' : 'SHA-256';
  const signature = await hmac(algorithm, `${credentials.consumerSecret}&`, base, 'base64');
  for (const [key, value] of oauth) url.searchParams.set(key, value);
  url.searchParams.set('oauth_signature', signature);
}
