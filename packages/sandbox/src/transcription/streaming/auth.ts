/**
 * Who opens a session: an API key in the upgrade's `Authorization` header (server side, bare as on v2), or a
 * temporary token in `?token=` (browsers cannot set headers). Failures close with 1008 and the docs' message
 * ("Unauthorized Connection: …"); what follows the colon is the emulator's wording, since the docs show a
 * placeholder there. A token is spent on its first use, whether or not that session then starts.
 */
import type { IncomingMessage } from 'node:http';
import { MESSAGE } from './closures.js';
import { SESSION_SECONDS } from './token-route.js';
import type { TokenStore } from './tokens.js';

export type Authentication =
  | { ok: true; key: string; maxSessionSeconds: number; via: 'api_key' | 'token' }
  | { ok: false; message: string };

export function authenticate(
  request: IncomingMessage,
  query: URLSearchParams,
  keys: readonly string[],
  tokens: TokenStore,
): Authentication {
  const header = request.headers.authorization?.trim();
  if (header && keys.includes(header)) {
    return { ok: true, key: header, maxSessionSeconds: SESSION_SECONDS.max, via: 'api_key' };
  }
  const token = query.get('token');
  if (token) {
    const redeemed = tokens.redeem(token);
    if (redeemed.ok) return { ok: true, ...redeemed.grant, via: 'token' };
    const message = {
      unknown: MESSAGE.unknownToken,
      used: MESSAGE.usedToken,
      expired: MESSAGE.expiredToken,
    }[redeemed.reason];
    return { ok: false, message };
  }
  return { ok: false, message: header ? MESSAGE.invalidKey : MESSAGE.missingAuth };
}
