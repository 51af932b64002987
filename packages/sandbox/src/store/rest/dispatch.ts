import type { KeyRecord } from '../data/keys.js';
import type { Store } from '../data/store.js';
import { noRoute } from '../runtime/errors.js';
import { decodeJsonLikePhp } from '../runtime/json.js';
import { type PhpArray, phpToJs } from '../runtime/php.js';
import { isPlainObject } from '../runtime/values.js';
import { namespaceIndex, siteIndex } from './discovery.js';
import type { Ctx, Result, Router } from './router.js';

/** One authenticated, admitted request, decoded as far as the wire goes. */
export interface DispatchRequest {
  /** Route relative to the REST root, e.g. `/wc/v3/products/12`. */
  route: string;
  /** The effective method (after `_method` / `X-HTTP-Method-Override`). */
  method: string;
  /** Route relative to the namespace, e.g. `/products/12`. */
  wcRoute: string;
  queryPairs: [string, string][];
  queryPhp: PhpArray;
  formPhp: PhpArray | null;
  body: Buffer;
  contentType: string;
  key: KeyRecord | null;
  headers?: Headers;
  remoteAddress?: string;
}

/**
 * WP_REST_Server::dispatch(): the indexes, OPTIONS, then the matching handler with the merged parameters
 * (URL < query < form body < JSON body, as WP_REST_Request::get_parameter_order()). A JSON body that PHP
 * would not decode fails before any handler runs.
 */
export async function dispatch(store: Store, router: Router, req: DispatchRequest): Promise<Result> {
  const { route, method } = req;
  if (route === '/') return siteIndex(store);
  if (/^\/wc\/v3$/i.test(route) && (method === 'GET' || method === 'HEAD'))
    return namespaceIndex(store, router);
  if (method === 'OPTIONS') {
    const methods = router.methodsFor(route);
    if (!methods) throw noRoute();
    return {
      status: 200,
      body: { namespace: 'wc/v3', methods, endpoints: [{ methods, args: {} }] },
      headers: { Allow: methods.join(', ') },
    };
  }
  const match = router.match(route, method);
  if (!match) throw noRoute();
  // WP_REST_Request::has_valid_params(): JSON errors first.
  let json: Record<string, unknown> = {};
  let list: unknown[] | null = null;
  if ((req.contentType === 'application/json' || req.contentType.endsWith('+json')) && req.body.length > 0) {
    const parsed = decodeJsonLikePhp(req.body);
    if (isPlainObject(parsed)) json = parsed;
    else if (Array.isArray(parsed)) list = parsed;
  }
  const query = phpToJs(req.queryPhp) as Record<string, unknown>;
  const form = req.formPhp ? (phpToJs(req.formPhp) as Record<string, unknown>) : {};
  // A JSON list is a PHP array keyed 0, 1, ...: no route declares such an arg, so its items only matter as the
  // body (the zone locations route takes one). Spreading millions of index keys into the parameters cost
  // seconds per copy, with the event loop held.
  const params: Record<string, unknown> = { ...match.urlParams, ...query, ...form, ...json };
  const body: Record<string, unknown> = list
    ? Object.keys(form).length > 0
      ? { ...form, ...list }
      : (list as unknown as Record<string, unknown>)
    : { ...form, ...json };
  const ctx: Ctx = {
    method,
    route,
    wcRoute: req.wcRoute,
    urlParams: match.urlParams,
    params,
    query,
    queryPairs: req.queryPairs,
    body,
    key: req.key,
    store,
    headers: req.headers,
    remoteAddress: req.remoteAddress,
  };
  return await match.handler(ctx);
}
