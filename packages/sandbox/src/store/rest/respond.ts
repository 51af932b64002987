import { reportHandlerFailure } from '../../kit/emulator.js';
import { type ReplyFormat, toResponse as reply } from '../../kit/reply.js';
import { PhpFatalError, RestError } from '../runtime/errors.js';
import { phpJsonEncode } from '../runtime/json.js';
import type { Result } from './router.js';

const BASE_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
};

/** WordPress's answers: PHP's json_encode() of the body (none when a handler leaves it out) and the REST headers. */
const WORDPRESS_JSON: ReplyFormat = {
  headers: BASE_HEADERS,
  encode: (body) =>
    body === undefined ? null : { text: phpJsonEncode(body), type: 'application/json; charset=UTF-8' },
};

/** A handler result as WordPress sends it: its JSON encoding, the REST headers, no body for HEAD. */
export function toResponse(result: Result, method: string): Response {
  return reply(result, method, WORDPRESS_JSON);
}

/**
 * rest_send_cors_headers(): a request with an Origin gets it echoed with the methods and credentials allowed
 * (`null` as sent, from file:// and data: pages), so a browser may read the answer; `Vary: Origin` either way.
 */
export function withCors(req: Request, res: Response): Response {
  const origin = req.headers.get('origin');
  if (origin) {
    res.headers.set('Access-Control-Allow-Origin', origin);
    res.headers.set('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    res.headers.set('Access-Control-Allow-Credentials', 'true');
    res.headers.append('Vary', 'Origin');
  } else if (req.method === 'GET') res.headers.append('Vary', 'Origin');
  return res;
}

/**
 * Says on stderr that a handler threw something other than a WordPress error or an emulated PHP fatal: a
 * sandbox bug, answered as WordPress's critical error so the client and every other session go on.
 */
export function reportCrash(err: unknown, what: string): void {
  if (err instanceof RestError || err instanceof PhpFatalError) return;
  reportHandlerFailure('store', what, err);
  if (process.env.X_SANDBOX_DEBUG) console.error('[x-sandbox] handler crashed:', err);
}

/** The WordPress fatal-error page's JSON twin (wp_die() of the fatal error handler on a REST request). */
export function criticalError(): Result {
  return {
    status: 500,
    body: {
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
      data: { status: 500 },
    },
  };
}

/** A thrown RestError as its response; anything else is WordPress's critical error. */
export function errorResult(err: unknown, what = 'a request'): Result {
  if (err instanceof RestError) return { status: err.status, body: err.toBody(), headers: err.headers };
  reportCrash(err, what);
  return criticalError();
}
