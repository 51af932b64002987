import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { readBoundedBody } from '../kit/body.js';
import { type FaultMatch, FaultQueue, sleep } from '../kit/faults.js';
import { Persister, readDataFile } from '../kit/persistence.js';
import { RateWindows } from '../kit/rate-windows.js';
import { RequestStats, type StatsSnapshot } from '../kit/stats.js';
import { seedDemo } from './model/seed.js';
import { deserializeState, type StoreState } from './model/state.js';
import { generateKey, type ResolvedStoreOptions, Store } from './model/store.js';
import { decodePairs, isPlainObject, type PhpArray, parsePhpPairs, phpToJs } from './model/util.js';
import { registerCustomers } from './routes/customers.js';
import { registerNotes } from './routes/notes.js';
import { registerOrders } from './routes/orders.js';
import { registerProducts } from './routes/products.js';
import { registerRefunds } from './routes/refunds.js';
import { registerTerms } from './routes/terms.js';
import { registerWebhooks } from './routes/webhooks.js';
import { authenticate, checkKeyPermissions, type StoreKey } from './wp/auth.js';
import { invalidJson, noRoute, RestError } from './wp/errors.js';
import { phpJsonEncode } from './wp/json.js';
import { type Ctx, type Result, Router } from './wp/router.js';

export interface StoreEmulatorOptions {
  /** Reproduce WooCommerce's is_ssl() gate: over plain HTTP, Basic and query keys are ignored (anonymous → 401). */
  strictHttps?: boolean;
  /** Per consumer key, sliding window. Default `{ limit: 500, intervalMs: 60_000 }`. */
  rateLimit?: { limit: number; intervalMs: number } | false;
  /** Max create+update+delete items per batch request. Default 100. */
  batchLimit?: number;
  /** Max request body size in bytes. Default 8 MiB. */
  maxBodyBytes?: number;
  /** Default: three generated keys, one per permission. */
  keys?: StoreKey[];
  /** Default `'none'`. */
  seed?: 'demo' | 'none';
}

/**
 * A fault answers the next matching request(s) after authentication. `path` is matched against the
 * `/wc/v3`-relative route (`'/products'`).
 */
export interface StoreFault extends FaultMatch {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  resetConnection?: boolean;
  /** Emulator extension: after `delayMs`, let the request through to the normal handler (a slow response). */
  passThrough?: boolean;
  /** Emulator extension: drop the Authorization header before authentication (hosts that strip it). */
  stripAuthorization?: boolean;
}

export interface StoreSandbox {
  url: string;
  consumerKey: string;
  consumerSecret: string;
  keys: { read: StoreKey; write: StoreKey; read_write: StoreKey };
  injectFault(fault: StoreFault): void;
  stats(): StatsSnapshot;
  resetStats(): void;
  reset(): void;
}

type Bindings = { incoming?: IncomingMessage };

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

function resolveOptions(o: StoreEmulatorOptions): ResolvedStoreOptions {
  return {
    strictHttps: o.strictHttps ?? false,
    rateLimit: o.rateLimit === undefined ? { limit: 500, intervalMs: 60_000 } : o.rateLimit,
    batchLimit: o.batchLimit ?? 100,
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY,
    seed: o.seed ?? 'none',
  };
}

function resolveKeys(o: StoreEmulatorOptions): StoreKey[] {
  const keys = [...(o.keys ?? [])];
  for (const perm of ['read', 'write', 'read_write'] as const) {
    if (!keys.some((k) => k.permissions === perm)) keys.push(generateKey(perm));
  }
  return keys;
}

/**
 * `_fields=a,b.c`: keeps only those (dotted) fields, as WP_REST_Controller::filter_response_by_context
 * and rest_filter_response_fields do. The field tree is a null-prototype map and only own properties are
 * read, so `_fields=__proto__.x` names a field nobody has instead of writing onto Object.prototype.
 */
function filterFields(data: unknown, fields: string[]): unknown {
  if (Array.isArray(data)) return data.map((d) => filterFields(d, fields));
  if (!isPlainObject(data)) return data;
  type Tree = Map<string, Tree | true>;
  const tree: Tree = new Map();
  for (const f of [...fields, 'id']) {
    let node = tree;
    const parts = f.split('.');
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node.set(part, true);
      else {
        let child = node.get(part);
        if (child === undefined || child === true) {
          child = new Map();
          node.set(part, child);
        }
        node = child;
      }
    });
  }
  const pick = (obj: Record<string, unknown>, t: Tree): Record<string, unknown> => {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, sub] of t) {
      if (!Object.hasOwn(obj, k)) continue;
      const value = obj[k];
      out[k] = sub === true || !isPlainObject(value) ? value : pick(value as Record<string, unknown>, sub);
    }
    return out;
  };
  return pick(data, tree);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Max nesting PHP's json_decode() accepts by default. */
const PHP_JSON_DEPTH = 512;

function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      if (++depth > max) return true;
    } else if (ch === 93 || ch === 125) depth--;
  }
  return false;
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (isPlainObject(value))
    return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || hasLoneSurrogate(v));
  return false;
}

/** json_decode($body, true) failure modes, as WP_REST_Request::parse_json_params() reports them. */
function decodeJsonLikePhp(body: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw invalidJson('utf8');
  }
  if (jsonDepthExceeds(text, PHP_JSON_DEPTH)) {
    // PHP reports a syntax error first when the text is not JSON at all; depth otherwise.
    try {
      JSON.parse(text);
    } catch {
      throw invalidJson('syntax');
    }
    throw invalidJson('depth');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidJson('syntax');
  }
  if (hasLoneSurrogate(parsed)) throw invalidJson('utf16');
  return parsed;
}

function errorResult(err: unknown): Result {
  if (err instanceof RestError) return { status: err.status, body: err.toBody(), headers: err.headers };
  if (process.env.X_SANDBOX_DEBUG) console.error('[x-sandbox] handler crashed:', err);
  return {
    status: 500,
    body: {
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
      data: { status: 500 },
    },
  };
}

const BASE_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'X-Robots-Tag': 'noindex',
  'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
  'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
};

export interface StoreEmulator {
  /** Mount on a server with `root.route('/', app)`; it answers `/wp-json/*` and `/?rest_route=`. */
  app: Hono<{ Bindings: Bindings }>;
  store: Store;
  handle: StoreSandbox;
  /** Tells the emulator its public home URL (known once the server listens). */
  setHomeUrl(url: string): void;
  /** Flushes persistence and stops webhook deliveries. */
  close(): Promise<void>;
}

/** Builds the WooCommerce REST API v3 emulator as a mountable Hono sub-app. */
export async function createStoreEmulator(
  options: StoreEmulatorOptions = {},
  init: { dataFile?: string } = {},
): Promise<StoreEmulator> {
  const resolved = resolveOptions(options);
  let loaded: StoreState | null = null;
  if (init.dataFile) {
    const text = await readDataFile(init.dataFile);
    if (text !== null) loaded = deserializeState(text);
  }
  const store = new Store(resolved, resolveKeys(options), loaded ?? undefined);
  if (resolved.seed === 'demo') store.seeder = seedDemo;
  if (!loaded) store.seeder?.(store);
  if (init.dataFile) {
    store.persister = new Persister(init.dataFile, () => store.snapshot());
    if (!loaded) store.changed();
  }

  const faults = new FaultQueue<StoreFault>();
  const windows = new RateWindows(resolved.rateLimit);
  const stats = new RequestStats();

  const router = new Router();
  registerProducts(router, store);
  registerTerms(router, store);
  registerOrders(router, store);
  registerNotes(router);
  registerRefunds(router);
  registerCustomers(router, store);
  registerWebhooks(router);

  const app = new Hono<{ Bindings: Bindings }>();
  app.all('*', async (c) => {
    try {
      return await handleRequest(c.req.raw, c.env?.incoming);
    } catch (err) {
      return send(errorResult(err), 'GET');
    }
  });

  function send(result: Result, method: string): Response {
    const headers = new Headers(BASE_HEADERS);
    for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, v);
    const body = method === 'HEAD' || result.body === undefined ? null : phpJsonEncode(result.body);
    return new Response(body, { status: result.status, headers });
  }

  function namespaceIndex(): Result {
    const routes: Record<string, unknown> = {
      '/wc/v3': {
        namespace: 'wc/v3',
        methods: ['GET'],
        endpoints: [
          {
            methods: ['GET'],
            args: {
              namespace: { default: 'wc/v3', required: false },
              context: { default: 'view', required: false },
            },
          },
        ],
        _links: { self: [{ href: `${store.homeUrl}/wp-json/wc/v3` }] },
      },
    };
    for (const r of router.list()) {
      const route = r.pattern.replace(/\\\\/g, '\\');
      routes[route] = {
        namespace: 'wc/v3',
        methods: r.methods,
        endpoints: [{ methods: r.methods, args: {} }],
        ...(route.includes('(?P<')
          ? {}
          : { _links: { self: [{ href: `${store.homeUrl}/wp-json${route}` }] } }),
      };
    }
    return {
      status: 200,
      body: { namespace: 'wc/v3', routes, _links: { up: [{ href: `${store.homeUrl}/wp-json/` }] } },
    };
  }

  function siteIndex(): Result {
    return {
      status: 200,
      body: {
        name: 'x-sandbox store',
        description: 'WooCommerce REST API v3 emulator',
        url: store.homeUrl,
        home: store.homeUrl,
        gmt_offset: '0',
        timezone_string: 'UTC',
        namespaces: ['wc/v3'],
        authentication: [],
        routes: {},
        _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
      },
    };
  }

  async function handleRequest(req: Request, incoming: IncomingMessage | undefined): Promise<Response> {
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
      if (rawPath === '/' && (actualMethod === 'GET' || actualMethod === 'HEAD')) {
        return new Response(
          actualMethod === 'HEAD'
            ? null
            : '<!doctype html><title>x-sandbox store</title><p>WooCommerce REST API v3 emulator: see /wp-json/wc/v3</p>',
          {
            status: 200,
            headers: { 'Content-Type': 'text/html; charset=UTF-8' },
          },
        );
      }
      return send(errorResult(noRoute()), actualMethod);
    }
    route = route.replace(/\/+$/, '') || '/';
    if (!route.startsWith('/')) route = `/${route}`;

    // Body (bounded).
    const body =
      actualMethod === 'GET' || actualMethod === 'HEAD'
        ? Buffer.alloc(0)
        : await readBoundedBody(req, resolved.maxBodyBytes);
    if (body === null) {
      return send(
        {
          status: 413,
          body: {
            code: 'rest_request_entity_too_large',
            message: `The request body exceeds the maximum of ${resolved.maxBodyBytes} bytes.`,
            data: { status: 413, max_bytes: resolved.maxBodyBytes },
          },
          headers: { Connection: 'close' },
        },
        actualMethod,
      );
    }
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
    let key = null;
    if (isWc) {
      let authorization = req.headers.get('authorization');
      if (faults.take(method, wcRoute, (f) => f.stripAuthorization === true)) authorization = null;
      const auth = authenticate(
        {
          method: actualMethod,
          basicAllowed: https || !resolved.strictHttps,
          homeUrl: store.homeUrl.replace(/^https?:/, https ? 'https:' : 'http:'),
          rawPath,
          query: queryPhp,
          form: actualMethod === 'POST' ? formPhp : null,
          authorization,
          nowSeconds: Math.floor(Date.now() / 1000),
        },
        (ck) => store.findKey(ck),
      );
      if (auth.error) return send(errorResult(auth.error), method);
      key = auth.key;
      if (key) {
        const denied = checkKeyPermissions(key, method);
        if (denied) return send(errorResult(denied), method);
      }
    }

    if (/^\/wc\/v3(\/|$)/i.test(route)) {
      const now = Date.now();
      const waitMs = windows.take(
        key ? `key:${key.consumerKey}` : `anon:${incoming?.socket.remoteAddress ?? ''}`,
        now,
      );
      if (waitMs > 0) {
        stats.countRateLimited();
        const seconds = Math.ceil(waitMs / 1000);
        return send(
          {
            status: 429,
            body: {
              code: 'woocommerce_rest_too_many_requests',
              message: `Too many requests. Please wait ${seconds} seconds before trying again.`,
              data: { status: 429, retry_after: seconds },
            },
            headers: { 'Retry-After': String(seconds) },
          },
          method,
        );
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

    // Dispatch (WP_REST_Server::dispatch()).
    let result: Result;
    try {
      result = await dispatch(route, method, wcRoute, queryPairs, queryPhp, formPhp, body, contentType, key);
    } catch (err) {
      result = errorResult(err);
    }
    const isError = result.status >= 400;
    if (!isError && typeof queryPhp._fields === 'string' && queryPhp._fields !== '') {
      result.body = filterFields(
        result.body,
        queryPhp._fields
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    }
    if (queryPhp._envelope !== undefined) {
      result = {
        status: 200,
        body: { body: result.body, status: result.status, headers: result.headers ?? {} },
      };
    }
    return send(result, method);
  }

  function faultResponse(fault: StoreFault, method: string): Response {
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

  async function dispatch(
    route: string,
    method: string,
    wcRoute: string,
    queryPairs: [string, string][],
    queryPhp: PhpArray,
    formPhp: PhpArray | null,
    body: Buffer,
    contentType: string,
    key: Store['keys'][number] | null,
  ): Promise<Result> {
    if (route === '/') return siteIndex();
    if (/^\/wc\/v3$/i.test(route) && (method === 'GET' || method === 'HEAD')) return namespaceIndex();
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
    if ((contentType === 'application/json' || contentType.endsWith('+json')) && body.length > 0) {
      const parsed = decodeJsonLikePhp(body);
      if (isPlainObject(parsed)) json = parsed;
    }
    const query = phpToJs(queryPhp) as Record<string, unknown>;
    const form = formPhp ? (phpToJs(formPhp) as Record<string, unknown>) : {};
    const params: Record<string, unknown> = { ...match.urlParams, ...query, ...form, ...json };
    const ctx: Ctx = {
      method,
      route,
      wcRoute,
      urlParams: match.urlParams,
      params,
      query,
      queryPairs,
      body: { ...form, ...json },
      key,
      store,
    };
    return await match.handler(ctx);
  }

  const byPerm = (perm: StoreKey['permissions']): StoreKey => {
    const k = store.keys.find((x) => x.permissions === perm)!;
    return { consumerKey: k.consumerKey, consumerSecret: k.consumerSecret, permissions: k.permissions };
  };
  const rw = byPerm('read_write');
  const handle: StoreSandbox = {
    get url() {
      return store.homeUrl;
    },
    consumerKey: rw.consumerKey,
    consumerSecret: rw.consumerSecret,
    keys: { read: byPerm('read'), write: byPerm('write'), read_write: rw },
    injectFault: (fault) => faults.inject(fault),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    reset: () => {
      faults.clear();
      windows.clear();
      store.reset();
    },
  };

  return {
    app,
    store,
    handle,
    setHomeUrl(url: string) {
      store.homeUrl = url.replace(/\/+$/, '');
    },
    async close() {
      store.deliverer.close();
      await store.persister?.flush();
    },
  };
}
