import type { Reply } from '../../kit/reply.js';
import { fail, json } from '../routes/respond.js';
import type { TokenStore } from './tokens.js';

/** The documented ranges (streaming-token.yml, "Authenticate with a temporary token"). */
export const TOKEN_EXPIRY_SECONDS = { min: 1, max: 600 } as const;
export const SESSION_SECONDS = { min: 60, max: 10_800 } as const;

/**
 * A query value as an integer within a range, or the 400 message naming the parameter. Digits only (no sign,
 * exponent or fraction), as an integer schema parameter is read; a value repeated in the query is refused
 * rather than one of them picked.
 */
function integerParam(
  query: URLSearchParams,
  name: string,
  range: { min: number; max: number },
): number | undefined | { error: string } {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const expected = `an integer from ${range.min} to ${range.max}`;
  if (values.length > 1) return { error: `${name} must be given once: ${expected}.` };
  const text = values[0]!;
  const n = Number(text);
  if (!/^\d{1,9}$/.test(text) || n < range.min || n > range.max) {
    return { error: `${name} must be ${expected}, got "${text.slice(0, 40)}".` };
  }
  return n;
}

/**
 * `GET /v3/token?expires_in_seconds=N[&max_session_duration_seconds=M]`, after the emulator has checked the key
 * (401), its rate window (429) and injected faults: `{ token, expires_in_seconds }`. Other methods are 405.
 */
export function issueToken(
  tokens: TokenStore,
  call: { key: string; method: string; query: URLSearchParams },
): Reply {
  if (call.method !== 'GET') return fail(405, 'Method not allowed');
  const expires = integerParam(call.query, 'expires_in_seconds', TOKEN_EXPIRY_SECONDS);
  if (expires === undefined) {
    return fail(
      400,
      `expires_in_seconds is required: an integer from ${TOKEN_EXPIRY_SECONDS.min} to ${TOKEN_EXPIRY_SECONDS.max}.`,
    );
  }
  if (typeof expires === 'object') return fail(400, expires.error);
  const session = integerParam(call.query, 'max_session_duration_seconds', SESSION_SECONDS);
  if (typeof session === 'object') return fail(400, session.error);
  const token = tokens.issue({ key: call.key, maxSessionSeconds: session ?? SESSION_SECONDS.max }, expires);
  return json({ token, expires_in_seconds: expires });
}
