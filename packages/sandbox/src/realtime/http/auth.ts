import type { RealtimeApp } from '../model/apps.js';
import { hmacHex, md5Hex, requestStringToSign, signaturesEqual } from '../protocol/signatures.js';

/**
 * The query as the server SDKs send it: values are not URL-encoded (pusher-http-node signs and sends
 * `info=user_count,subscription_count` as is), but a client that did encode them is read the same way.
 * Keys are lowercased, as they are when signed.
 */
export function parseQuery(rawQuery: string): Record<string, string> {
  // Keys are anyone's: `__proto__` is a key like any other (signed as sent), never the prototype.
  const params: Record<string, string> = Object.create(null);
  for (const part of rawQuery.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const key = (eq === -1 ? part : part.slice(0, eq)).toLowerCase();
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoding after all (a literal "%"): keep the bytes as sent.
    }
    params[key] = value;
  }
  return params;
}

export interface SignedRequest {
  method: string;
  /** The path as sent, without host or query: what the SDK signed. */
  path: string;
  params: Record<string, string>;
  body: Buffer;
}

/**
 * Checks an HTTP API request's signature (auth_key, auth_timestamp, auth_version, body_md5, auth_signature);
 * returns why it is refused (the body of a 401), or null. Messages follow Pusher's wording and name the
 * string to sign, never the secret or the expected signature.
 */
export function authProblem(
  app: RealtimeApp,
  request: SignedRequest,
  toleranceSeconds: number,
): string | null {
  const p = request.params;
  if (!p.auth_key || !p.auth_timestamp || !p.auth_signature) {
    return 'Missing authentication parameters: auth_key, auth_timestamp, auth_version and auth_signature are required';
  }
  if (p.auth_key !== app.key) return `Unknown auth_key: ${p.auth_key.slice(0, 64)}`;
  if (p.auth_version !== undefined && p.auth_version !== '1.0') {
    return `Unsupported auth_version ${p.auth_version.slice(0, 16)}: use 1.0`;
  }
  const timestamp = Number(p.auth_timestamp);
  const now = Math.floor(Date.now() / 1000);
  if (!/^\d+$/.test(p.auth_timestamp) || Math.abs(now - timestamp) > toleranceSeconds) {
    return `Timestamp expired: Given timestamp (${p.auth_timestamp.slice(0, 32)}) not within ${toleranceSeconds}s of server time (${now})`;
  }
  if (request.body.length > 0 || p.body_md5 !== undefined) {
    const md5 = md5Hex(request.body);
    if (p.body_md5 !== md5) {
      return `Invalid body_md5: the MD5 of the body received is ${md5}, but body_md5 was ${String(p.body_md5).slice(0, 64)}`;
    }
  }
  const stringToSign = requestStringToSign(request.method, request.path, p);
  if (!signaturesEqual(hmacHex(app.secret, stringToSign), p.auth_signature)) {
    return `Invalid signature: you should have sent HmacSHA256Hex(${JSON.stringify(stringToSign)}, your_secret_key), but you sent "${p.auth_signature.slice(0, 128)}"`;
  }
  return null;
}
