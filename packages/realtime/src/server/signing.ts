import { md5Hex, type PreparedRequest, ValidationError } from '@x/core';
import { hexHmac } from '#hmac';
import { toHex, utf8 } from './internal/bytes.js';

/**
 * Pusher's request and socket signatures: lowercase hex HMAC-SHA256 with the app secret (pusher.com/docs
 * "auth signatures" and the HTTP API reference; pusher-http-node `lib/requests.js`, `lib/token.js`).
 * Web Crypto, so the server SDK runs on edge runtimes (pusher-http-node#173, #209); in Node, `node:crypto`
 * through the `#hmac` import map (see hmac-node.ts).
 */

/** Signs text with one secret. */
export type HexSigner = (text: string) => Promise<string>;

/** A signer whose key is imported into Web Crypto once, not on every request (the import is the slow part). */
export function hmacSigner(secret: string): HexSigner {
  if (hexHmac) {
    const sign = hexHmac(secret);
    return async (text) => sign(text);
  }
  let key: Promise<CryptoKey> | undefined;
  return async (text) => {
    key ??= crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await key, utf8(text))));
  };
}

/** The query parameters the signature covers; a caller may not set them (as in pusher-http-node). */
export const RESERVED_PARAMS = ['auth_key', 'auth_timestamp', 'auth_version', 'auth_signature', 'body_md5'];

export interface SignRequestInput {
  key: string;
  method: string;
  /** The path as sent, `/apps/{id}/...`, without host or query. */
  path: string;
  /** The request's own query parameters, decoded. */
  params?: ReadonlyArray<readonly [string, string]>;
  /** The exact body text sent, if any. */
  body?: string | Uint8Array | undefined;
  /** Unix seconds. */
  timestamp: number;
}

export interface SignedQuery {
  /** Every parameter, `auth_signature` last, decoded. */
  params: Array<[string, string]>;
  stringToSign: string;
  signature: string;
}

/**
 * `METHOD\npath\nk=v&...` with keys lowercased and sorted and values NOT URL-encoded (the service signs the
 * decoded query; the worked example in its HTTP API reference shows it), then `auth_signature` appended.
 */
export async function signQuery(input: SignRequestInput, sign: HexSigner): Promise<SignedQuery> {
  const params: Array<[string, string]> = [];
  for (const [name, value] of input.params ?? []) {
    if (RESERVED_PARAMS.includes(name.toLowerCase())) {
      throw new ValidationError('request query', [
        { path: name, message: 'is set by the signature and cannot be passed' },
      ]);
    }
    params.push([name.toLowerCase(), value]);
  }
  params.push(['auth_key', input.key], ['auth_timestamp', String(input.timestamp)], ['auth_version', '1.0']);
  if (input.body !== undefined) params.push(['body_md5', md5Hex(input.body)]);
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const stringToSign = `${input.method.toUpperCase()}\n${input.path}\n${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
  const signature = await sign(stringToSign);
  params.push(['auth_signature', signature]);
  return { params, stringToSign, signature };
}

/**
 * Commas stay readable (`info=user_count,subscription_count`, as pusher-http-node sends them); everything
 * else is percent-encoded, which the service decodes before it checks the signature.
 */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',');
}

/** The hook core's `signerAuth` calls for every attempt: a retry is signed afresh with a new timestamp. */
export function requestSigner(
  key: string,
  sign: HexSigner,
  now: () => number = Date.now,
): (request: PreparedRequest) => Promise<void> {
  return async (request) => {
    const body = request.body;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      // Only JSON text is ever sent; anything else could not be hashed byte for byte here.
      throw new TypeError('the realtime signer can only sign string or byte bodies');
    }
    const { url } = request;
    const signed = await signQuery(
      {
        key,
        method: request.method,
        path: url.pathname,
        params: [...url.searchParams],
        body,
        timestamp: Math.floor(now() / 1000),
      },
      sign,
    );
    url.search = signed.params.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&');
  };
}
