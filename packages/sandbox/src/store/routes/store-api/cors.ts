/**
 * The Store API's CORS (StoreApi/Authentication.php), which replaces WordPress's rest_send_cors_headers() on
 * `/wc/store/` routes: `Access-Control-Allow-Methods`, `-Allow-Credentials` and `Vary: Origin` always, and the
 * origin echoed in `Access-Control-Allow-Origin` only for a preflight, a request with a valid `Cart-Token`, or an
 * allowed origin (is_allowed_http_origin(): the site's own origin, plus what the `allowed_http_origins` filter
 * adds: the emulator's `storeApi.allowedOrigins`). A preflight ends there, without a body.
 * allowed_cors_headers() lets a page send `Cart-Token` and `Nonce`; exposed_cors_headers() lets it read
 * `Cart-Token` ("only one of them is needed").
 */

import type { CartSessionOptions } from '../../cart/session.js';
import { sessionsOf } from '../../cart/session.js';
import type { Store } from '../../data/store.js';

/** Whether the request's REST route starts with `/wc/store/` (pretty permalink or `?rest_route=`). */
export function isStoreApiRequest(req: Request): boolean {
  const url = new URL(req.url);
  const route = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/(index\.php\/)?wp-json/, '');
  return /^\/wc\/store\//i.test(route);
}

function add(res: Response, name: string, extra: string[]): void {
  const have = (res.headers.get(name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  res.headers.set(name, [...have, ...extra.filter((h) => !have.includes(h))].join(', '));
}

export interface StoreApiCorsOptions extends CartSessionOptions {
  /** Origins a page may call from without a cart token, besides the site's own; `'*'` allows any. */
  allowedOrigins: string[] | '*';
}

function isPreflight(req: Request): boolean {
  const h = req.headers;
  return (
    req.method === 'OPTIONS' &&
    h.has('origin') &&
    h.has('access-control-request-method') &&
    h.has('access-control-request-headers')
  );
}

/** send_cors_headers() and the header filters, on a Store API answer. */
export function withStoreApiCors(
  store: Store,
  options: StoreApiCorsOptions,
  req: Request,
  res: Response,
): Response {
  add(res, 'Access-Control-Allow-Headers', ['Cart-Token', 'Nonce']);
  add(res, 'Access-Control-Expose-Headers', ['Cart-Token']);
  res.headers.set('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
  res.headers.set('Access-Control-Allow-Credentials', 'true');
  res.headers.append('Vary', 'Origin');
  const origin = req.headers.get('origin');
  const preflight = isPreflight(req);
  if (origin) {
    const token = req.headers.get('cart-token') ?? '';
    const own = new URL(store.homeUrl).host;
    const allowed =
      options.allowedOrigins === '*' ||
      options.allowedOrigins.includes(origin) ||
      [`http://${own}`, `https://${own}`].includes(origin);
    if (
      preflight ||
      allowed ||
      (token !== '' && sessionsOf(store, options).verify(token, Date.now()) !== null)
    ) {
      res.headers.set('Access-Control-Allow-Origin', origin);
    }
  }
  return preflight ? new Response(null, { status: res.status, headers: res.headers }) : res;
}
