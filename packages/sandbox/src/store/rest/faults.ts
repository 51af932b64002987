import type { FaultMatch } from '../../kit/faults.js';
import { phpJsonEncode } from '../runtime/json.js';

/**
 * A fault answers the next matching request(s) after authentication. `path` is matched against the
 * `/wc/v3`-relative route (`'/products'`).
 */
export interface StoreFault extends FaultMatch {
  status: number;
  /** A string is sent as-is (HTML unless `headers` say otherwise), anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Destroy the socket instead of answering. */
  resetConnection?: boolean;
  /** Emulator extension: after `delayMs`, let the request through to the normal handler (a slow response). */
  passThrough?: boolean;
  /** Emulator extension: drop the Authorization header before authentication (hosts that strip it). */
  stripAuthorization?: boolean;
}

/** The injected answer; without a body, a WordPress-shaped error so clients parse it like a real one. */
export function faultResponse(fault: StoreFault, method: string): Response {
  const headers = new Headers(fault.headers ?? {});
  let body: string | null;
  if (fault.body === undefined) {
    body = phpJsonEncode({
      code: 'x_sandbox_injected_fault',
      message: 'Injected fault.',
      data: { status: fault.status },
    });
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json; charset=UTF-8');
  } else if (typeof fault.body === 'string') {
    body = fault.body;
    if (!headers.has('content-type')) headers.set('Content-Type', 'text/html; charset=UTF-8');
  } else {
    body = phpJsonEncode(fault.body);
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json; charset=UTF-8');
  }
  return new Response(method === 'HEAD' || fault.status === 204 || fault.status === 304 ? null : body, {
    status: fault.status,
    headers,
  });
}
