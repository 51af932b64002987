/**
 * "Get help with this cart": the page hands the desk its cart token and the last order it placed
 * (`POST /api/storefront/help` on the desk's own origin), and the desk answers with a code the shopper reads
 * out to an agent, who then sees that cart and order.
 */

import type { StorefrontHelpCode, StorefrontHelpRequest } from '../shared/api.js';

/** The order this page placed last, as the desk needs it to find the order (its key proves the shopper's). */
export type PlacedOrder = NonNullable<StorefrontHelpRequest['order']>;

/** `StorefrontHelpCode`, without the expiry when the desk sent none this page can show. */
export interface HelpCode extends Omit<StorefrontHelpCode, 'expires_in_seconds'> {
  expires_in_seconds: number | null;
}

/** The desk's answer, `{ "code": "123456", "expires_in_seconds": 900 }`; null without six digits. */
export function helpCodeFrom(body: unknown): HelpCode | null {
  if (typeof body !== 'object' || body === null) return null;
  const { code, expires_in_seconds: ttl } = body as { code?: unknown; expires_in_seconds?: unknown };
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) return null;
  return {
    code,
    expires_in_seconds: typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl > 0 ? ttl : null,
  };
}

/** The desk's error message (`{ error: { message } }`), or the HTTP status when it sent none. */
function errorOf(body: unknown, status: number): string {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : `the desk answered ${status}`;
}

export async function askForHelp(cartToken: string, order: PlacedOrder | null): Promise<HelpCode> {
  const res = await fetch('/api/storefront/help', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cart_token: cartToken, order } satisfies StorefrontHelpRequest),
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`Help is not available: ${errorOf(body, res.status)}`);
  const code = helpCodeFrom(body);
  if (code === null) throw new Error('Help is not available: the desk sent no code');
  return code;
}
