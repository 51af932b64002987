import type { IncomingMessage } from 'node:http';
import { readBoundedBody } from '../../kit/body.js';
import { type FaultQueue, sleep } from '../../kit/faults.js';
import type { RateWindows } from '../../kit/rate-windows.js';
import type { RequestStats } from '../../kit/stats.js';
import type { KeyRecord } from '../data/keys.js';
import type { Store } from '../data/store.js';
import { noRoute } from '../runtime/errors.js';
import { decodePairs, parsePhpPairs } from '../runtime/php.js';
import { authenticate, checkKeyPermissions } from './auth.js';
import { homePage } from './discovery.js';
import { dispatch } from './dispatch.js';
import { faultResponse, type StoreFault } from './faults.js';
import { shapeResult } from './fields.js';
import { errorResult, toResponse } from './respond.js';
import type { Result, Router } from './router.js';

/** What one emulated WordPress site answers with: its install, its routes, and the emulator's test knobs. */
export interface Site {
  store: Store;
  router: Router;
  faults: FaultQueue<StoreFault>;
  windows: RateWindows;
  stats: RequestStats;
}

function tooManyRequests(waitMs: number): Result {
  const seconds = Math.ceil(waitMs / 1000);
  return {
    status: 429,
    body: {
      code: 'woocommerce_rest_too_many_requests',
      message: `Too many requests. Please wait ${seconds} seconds before trying again.`,
      data: { status: 429, retry_after: seconds },
    },
    headers: { 'Retry-After': String(seconds) },
  };
}

function tooLarge(max: number): Result {
  return {
    status: 413,
    body: {
      code: 'rest_request_entity_too_large',
      message: `The request body exceeds the maximum of ${max} bytes.`,
      data: { status: 413, max_bytes: max },
    },
    headers: { Connection: 'close' },
  };
}

/** A body that ended before its Content-Length; PHP never sees such a request, its web server refuses it. */
function incompleteBody(): Result {
  return {
    status: 400,
    body: {
      code: 'rest_request_body_incomplete',
      message: 'The request body ended before the length it declared.',
      data: { status: 400 },
    },
    headers: { Connection: 'close' },
  };
}

/**
 * One request through WordPress as WooCommerce sees it: route resolution (WP::parse_request()), bounded body,
 * method override, authentication (WC_REST_Authentication), then the emulator's rate limit and injected faults,
 * dispatch, and the `_fields` / `_envelope` response parameters. Uses the raw URL from Node, since OAuth
 * signatures and PHP's query parsing depend on the bytes as sent.
 */
export async function handleRequest(
  site: Site,
  req: Request,
  incoming: IncomingMessage | undefined,
): Promise<Response> {
  const { store, faults, windows, stats } = site;
  const options = store.options;
  stats.countRequest();
  const url = new URL(req.url);
  const rawUrl = incoming?.url ?? `${url.pathname}${url.search}`;
  const qIdx = rawUrl.indexOf('?');
  const rawPath = qIdx === -1 ? rawUrl : rawUrl.slice(0, qIdx);
  const rawQuery = qIdx === -1 ? '' : rawUrl.slice(qIdx + 1);
  const https = url.protocol === 'https:';
  const queryPairs = decodePairs(rawQuery);
  const queryPhp = parsePhpPairs(queryPairs);
  const actualMethod = req.method.toUpperCase();

  // Resolve the REST route: `rest_route` in the query wins over the pretty permalink path (WP::parse_request()).
  let route: string | null = null;
  if (typeof queryPhp.rest_route === 'string') route = queryPhp.rest_route;
  else if (/^\/(index\.php\/)?wp-json(\/|$)/.test(rawPath)) {
    const rest = rawPath.replace(/^\/(index\.php\/)?wp-json/, '');
    try {
      route = decodeURIComponent(rest);
    } catch {
      route = rest;
    }
  }
  if (route === null) {
    if (rawPath === '/' && (actualMethod === 'GET' || actualMethod === 'HEAD')) return homePage(actualMethod);
    return toResponse(errorResult(noRoute()), actualMethod);
  }
  route = route.replace(/\/+$/, '') || '/';
  if (!route.startsWith('/')) route = `/${route}`;

  let body: Buffer | null = Buffer.alloc(0);
  if (actualMethod !== 'GET' && actualMethod !== 'HEAD') {
    try {
      body = await readBoundedBody(req, options.maxBodyBytes);
    } catch {
      // The client hung up before sending the body it declared: nobody reads this answer, and it is no bug.
      return toResponse(incompleteBody(), actualMethod);
    }
  }
  if (body === null) return toResponse(tooLarge(options.maxBodyBytes), actualMethod);
  const contentType = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const isForm = contentType === 'application/x-www-form-urlencoded';
  const formPhp = isForm ? parsePhpPairs(decodePairs(body.toString('utf8'))) : null;

  let method = actualMethod;
  if (actualMethod === 'POST') {
    const override =
      typeof queryPhp._method === 'string' ? queryPhp._method : req.headers.get('x-http-method-override');
    if (override) method = override.toUpperCase();
  }

  const isWc = /^\/wc[/-]/i.test(route);
  const wcRoute = route.replace(/^\/wc\/v3/i, '') || '/';
  let key: KeyRecord | null = null;
  if (isWc) {
    let authorization = req.headers.get('authorization');
    if (faults.take(method, wcRoute, (f) => f.stripAuthorization === true)) authorization = null;
    const auth = authenticate(
      {
        method: actualMethod,
        basicAllowed: https || !options.strictHttps,
        homeUrl: store.homeUrl.replace(/^https?:/, https ? 'https:' : 'http:'),
        rawPath,
        query: queryPhp,
        form: actualMethod === 'POST' ? formPhp : null,
        authorization,
        nowSeconds: Math.floor(Date.now() / 1000),
      },
      (ck) => store.findKey(ck),
    );
    if (auth.error) return toResponse(errorResult(auth.error), method);
    key = auth.key;
    if (key) {
      const denied = checkKeyPermissions(key, method);
      if (denied) return toResponse(errorResult(denied), method);
    }
  }

  if (/^\/wc\/v3(\/|$)/i.test(route)) {
    const waitMs = windows.take(
      key ? `key:${key.consumerKey}` : `anon:${incoming?.socket.remoteAddress ?? ''}`,
      Date.now(),
    );
    if (waitMs > 0) {
      stats.countRateLimited();
      return toResponse(tooManyRequests(waitMs), method);
    }
    stats.recordArrival(performance.now());
    const fault = faults.take(method, wcRoute, (f) => f.stripAuthorization !== true);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.resetConnection) {
        incoming?.socket.destroy();
        return new Response(null, { status: 500 });
      }
      if (!fault.passThrough) return faultResponse(fault, method);
    }
  }

  let result: Result;
  try {
    result = await dispatch(store, site.router, {
      route,
      method,
      wcRoute,
      queryPairs,
      queryPhp,
      formPhp,
      body,
      contentType,
      key,
      headers: req.headers,
      remoteAddress: incoming?.socket.remoteAddress ?? '',
    });
  } catch (err) {
    result = errorResult(err, `${method} ${rawPath}`);
  }
  try {
    // Nothing is answered before the write it reports is on disk (a no-op without a data file).
    await store.commit();
  } catch (err) {
    result = errorResult(err, `${method} ${rawPath} (commit)`);
  }
  return toResponse(shapeResult(result, queryPhp), method);
}
