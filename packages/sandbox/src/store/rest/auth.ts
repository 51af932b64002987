import type { KeyRecord } from '../data/keys.js';
import { RestError } from '../runtime/errors.js';
import type { PhpArray } from '../runtime/php.js';
import {
  normalizeProvidedSignature,
  oauthBaseString,
  oauthSign,
  parseOAuthHeader,
  safeEqual,
} from './oauth.js';

export interface AuthRequest {
  method: string;
  /** Whether Basic / query-string keys are honoured (WooCommerce: is_ssl()). */
  basicAllowed: boolean;
  /** home_url() with the scheme of this request, used in the OAuth base string. */
  homeUrl: string;
  /** Raw request path (no query), as in REQUEST_URI. */
  rawPath: string;
  /** $_GET */
  query: PhpArray;
  /** $_POST (form-encoded POST bodies only) */
  form: PhpArray | null;
  authorization: string | null;
  nowSeconds: number;
}

export interface AuthResult {
  key: KeyRecord | null;
  error: RestError | null;
}

const WINDOW_SECONDS = 15 * 60;
function first(v: PhpArray[string] | undefined): string {
  return typeof v === 'string' ? v : '';
}

/** A port of WC_REST_Authentication::authenticate(): Basic (when allowed), then one-legged OAuth 1.0a. */
export function authenticate(
  req: AuthRequest,
  findKey: (consumerKey: string) => KeyRecord | undefined,
): AuthResult {
  let error: RestError | null = null;
  if (req.basicAllowed) {
    let ck = '';
    let cs = '';
    if (first(req.query.consumer_key) && first(req.query.consumer_secret)) {
      ck = first(req.query.consumer_key);
      cs = first(req.query.consumer_secret);
    }
    if (!ck && req.authorization && /^basic /i.test(req.authorization.trim())) {
      const decoded = Buffer.from(req.authorization.trim().slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1) {
        ck = decoded.slice(0, colon);
        cs = decoded.slice(colon + 1);
      }
    }
    if (ck && cs) {
      const key = findKey(ck.trim());
      if (key) {
        if (safeEqual(key.consumerSecret, cs)) return { key, error: null };
        // No WWW-Authenticate: send_unauthorized_headers() only adds it when auth_method is 'basic_auth', but
        // authenticate() always falls through to OAuth, which sets auth_method to 'oauth1' first.
        error = new RestError(401, 'woocommerce_rest_authentication_error', 'Consumer secret is invalid.');
      }
    }
  }
  const oauth = oauthAuthenticate(req, findKey);
  if (oauth.error) return oauth;
  if (oauth.key && !error) return oauth;
  return { key: null, error };
}

function oauthAuthenticate(req: AuthRequest, findKey: (ck: string) => KeyRecord | undefined): AuthResult {
  const params: PhpArray = Object.create(null);
  Object.assign(params, req.query);
  if (req.form) Object.assign(params, req.form);
  if (req.authorization) Object.assign(params, parseOAuthHeader(req.authorization));
  const required = [
    'oauth_consumer_key',
    'oauth_timestamp',
    'oauth_nonce',
    'oauth_signature',
    'oauth_signature_method',
  ];
  const missing = required.filter((name) => {
    const v = params[name];
    return v === undefined || v === '' || v === '0';
  });
  if (missing.length === required.length) return { key: null, error: null };
  if (missing.length > 0) {
    const noun = missing.length === 1 ? 'parameter' : 'parameters';
    return {
      key: null,
      error: new RestError(
        401,
        'woocommerce_rest_authentication_missing_parameter',
        `Missing OAuth ${noun} ${missing.join(', ')}`,
      ),
    };
  }
  const key = findKey(first(params.oauth_consumer_key).trim());
  if (!key) {
    return {
      key: null,
      error: new RestError(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.'),
    };
  }
  const method = params.oauth_signature_method;
  const base = oauthBaseString(req.method, req.homeUrl, req.rawPath, params);
  if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256') {
    return {
      key: null,
      error: new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'Invalid signature - signature method is invalid.',
      ),
    };
  }
  const expected = oauthSign(base, key.consumerSecret, method === 'HMAC-SHA1' ? 'sha1' : 'sha256');
  const provided = normalizeProvidedSignature(first(params.oauth_signature));
  if (!safeEqual(expected, provided)) {
    return {
      key: null,
      error: new RestError(
        401,
        'woocommerce_rest_authentication_error',
        'Invalid signature - provided signature does not match.',
      ),
    };
  }
  const timestampText = first(params.oauth_timestamp).trim();
  const timestamp = /^\d+$/.test(timestampText) ? Number(timestampText) : Number.NaN;
  if (
    !Number.isFinite(timestamp) ||
    timestamp < req.nowSeconds - WINDOW_SECONDS ||
    timestamp > req.nowSeconds + WINDOW_SECONDS
  ) {
    return {
      key: null,
      error: new RestError(401, 'woocommerce_rest_authentication_error', 'Invalid timestamp.'),
    };
  }
  const nonce = first(params.oauth_nonce);
  for (const used of key.nonces.values()) {
    if (used === nonce) {
      return {
        key: null,
        error: new RestError(
          401,
          'woocommerce_rest_authentication_error',
          'Invalid nonce - nonce has already been used.',
        ),
      };
    }
  }
  key.nonces.set(String(timestamp), nonce);
  for (const ts of [...key.nonces.keys()]) {
    if (Number(ts) < req.nowSeconds - WINDOW_SECONDS) key.nonces.delete(ts);
  }
  return { key, error: null };
}

/** WC_REST_Authentication::check_permissions(): the key's read/write scope per HTTP method. */
export function checkKeyPermissions(key: KeyRecord, method: string): RestError | null {
  const p = key.permissions;
  switch (method) {
    case 'HEAD':
    case 'GET':
      return p === 'read' || p === 'read_write'
        ? null
        : new RestError(
            401,
            'woocommerce_rest_authentication_error',
            'The API key provided does not have read permissions.',
          );
    case 'POST':
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
      return p === 'write' || p === 'read_write'
        ? null
        : new RestError(
            401,
            'woocommerce_rest_authentication_error',
            'The API key provided does not have write permissions.',
          );
    case 'OPTIONS':
      return null;
    default:
      return new RestError(401, 'woocommerce_rest_authentication_error', 'Unknown request method.');
  }
}
