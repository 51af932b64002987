import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256, the one signature every part of the protocol uses. */
export function hmacHex(secret: string, message: string | Buffer): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

export function md5Hex(body: Buffer | string): string {
  return createHash('md5').update(body).digest('hex');
}

/** Constant-time comparison of two signatures; a length mismatch is answered at once (lengths are public). */
export function signaturesEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `socket_id:channel` or, for presence, `socket_id:channel:channel_data` (channel_data exactly as sent). */
export function channelStringToSign(socketId: string, channel: string, channelData?: string): string {
  return channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
}

/** User authentication (`pusher:signin`): `socket_id::user::user_data`. */
export function userStringToSign(socketId: string, userData: string): string {
  return `${socketId}::user::${userData}`;
}

/**
 * The HTTP API's string to sign: method, path and the query without `auth_signature`, keys lowercased and
 * sorted, values as given (not URL-encoded), joined with `&`.
 */
export function requestStringToSign(method: string, path: string, params: Record<string, string>): string {
  const query = Object.keys(params)
    .filter((k) => k !== 'auth_signature')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return `${method.toUpperCase()}\n${path}\n${query}`;
}
