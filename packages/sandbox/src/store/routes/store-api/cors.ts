/**
 * The Store API's CORS additions (StoreApi/Authentication.php): `allowed_cors_headers()` lets a page send
 * `Cart-Token`, `Nonce` and `X-WC-Store-API-Nonce`; `exposed_cors_headers()` lets it read `Cart-Token`, `Nonce`,
 * `Nonce-Timestamp` and `User-ID`. The origin itself is echoed by rest/respond.ts withCors()
 * (rest_send_cors_headers(), which the Store API's send_cors_headers() repeats for its routes).
 */

const ALLOW = ['Cart-Token', 'Nonce', 'X-WC-Store-API-Nonce'];
const EXPOSE = [
  'Cart-Token',
  'Nonce',
  'Nonce-Timestamp',
  'User-ID',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Retry-After',
];

/** Whether the request goes to `wc/store` (pretty permalink or `?rest_route=`). */
export function isStoreApiRequest(req: Request): boolean {
  const url = new URL(req.url);
  const route = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/(index\.php\/)?wp-json/, '');
  return /^\/wc\/store(\/|$)/i.test(route);
}

function add(res: Response, name: string, extra: string[]): void {
  const have = (res.headers.get(name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  res.headers.set(name, [...have, ...extra.filter((h) => !have.includes(h))].join(', '));
}

export function withStoreApiCors(req: Request, res: Response): Response {
  if (!isStoreApiRequest(req)) return res;
  add(res, 'Access-Control-Allow-Headers', ALLOW);
  add(res, 'Access-Control-Expose-Headers', EXPOSE);
  return res;
}
