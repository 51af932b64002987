/**
 * `POST batch` (StoreApi/Routes/V1/Batch.php): up to 25 cart and checkout requests in one, run by
 * WP_REST_Server::serve_batch_request_v1() through the same handlers a direct request reaches. Every `path`
 * must contain `wc/store` (case-insensitive, anywhere: stristr()) or the whole batch is a 400
 * `woocommerce_rest_invalid_path`. The answer is `207` with `{responses: [{body, status, headers}]}`, each
 * sub-response as its route gives it (its own `Nonce` and `Cart-Token` headers included); the batch itself carries
 * `Nonce`, `X-WC-Store-API-Nonce`, `Nonce-Timestamp` and `User-ID`, but no `Cart-Token`.
 * The rate limit counts the batch once (Authentication::check_authentication() runs on rest_authentication_errors,
 * once per HTTP request); the sub-requests share one cart session (routes/store-api/session.ts BatchSession).
 */

import { sessionsOf } from '../../cart/session.js';
import { errorResult } from '../../rest/respond.js';
import type { Ctx, Result, Router } from '../../rest/router.js';
import { RestError } from '../../runtime/errors.js';
import { decodePairs, parsePhpPairs, phpToJs } from '../../runtime/php.js';
import { checkArgs } from './args.js';
import { type BatchArgs, readBatchArgs, type SubRequestArgs } from './batch-args.js';
import { type BatchSession, joinBatch, type StoreApiOptions } from './session.js';
import { holdWebhooks } from './webhook-hold.js';

interface Envelope {
  body: unknown;
  status: number;
  /** WP_REST_Response::get_headers(): an empty PHP array encodes as `[]`. */
  headers: Record<string, unknown> | unknown[];
}

type Planned =
  | {
      ok: true;
      sub: SubRequestArgs;
      route: string;
      query: Record<string, unknown>;
      pairs: [string, string][];
    }
  | { ok: false; error: RestError };

/** WP_REST_Server::error_to_response() of a WP_Error, enveloped: no headers. */
function errorEnvelope(err: RestError): Envelope {
  return { body: err.toBody(), status: err.status, headers: [] };
}

/**
 * The headers a route set, as PHP values: AbstractCartRoute::add_response_headers() sets `Nonce-Timestamp` to
 * time() and `User-ID` to get_current_user_id(), both integers, which json_encode() writes as numbers.
 */
function envelopeHeaders(headers: Record<string, string> | undefined): Envelope['headers'] {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'set-cookie') continue;
    out[name] = name === 'Nonce-Timestamp' || name === 'User-ID' ? Number(value) : value;
  }
  return Object.keys(out).length > 0 ? out : [];
}

/** A sub-request's own headers, as the cart routes read them (`Cart-Token`, `Nonce`). */
function subHeaders(sub: SubRequestArgs): Headers {
  const headers = new Headers();
  for (const [canonical, name] of [
    ['cart_token', 'cart-token'],
    ['nonce', 'nonce'],
  ] as const) {
    const value = sub.headers.get(canonical);
    if (value === undefined) continue;
    try {
      headers.set(name, value);
    } catch {
      // A value HTTP could not carry (a control character) names no token or nonce; it still counts as sent.
      headers.set(name, '-');
    }
  }
  return headers;
}

/**
 * serve_batch_request_v1(): wp_parse_url() of each path (`parse_path_failed` when it cannot), its query as the
 * sub-request's query parameters, then match_request_to_handler() (`rest_no_route`) and the route's `allow_batch`
 * (`rest_batch_not_allowed`): only the cart and checkout routes declare it.
 */
function plan(sub: SubRequestArgs, router: Router, batchable: Router): Planned {
  // parse_url() gives up on `///…` and on a scheme without a host.
  if (/^\/\/\/|^[a-z][a-z\d+.-]*:\/\/(\/|$)/i.test(sub.path)) {
    return { ok: false, error: new RestError(400, 'parse_path_failed', 'Could not parse the path.') };
  }
  const bare = sub.path.replace(/#.*$/s, '');
  const q = bare.indexOf('?');
  const route = q === -1 ? bare : bare.slice(0, q);
  const rawQuery = q === -1 ? '' : bare.slice(q + 1);
  const pairs = decodePairs(rawQuery);
  const query = phpToJs(parsePhpPairs(pairs)) as Record<string, unknown>;
  const match = batchable.match(route, sub.method);
  if (match) {
    // Every sub-request's arguments are checked before any runs (has_valid_params(), sanitize_params()); one
    // that fails answers its error in place, or fails the whole `require-all-validate` batch (args.ts).
    try {
      checkArgs(match.handler, subParams(match.urlParams, query, sub.body));
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      return { ok: false, error: err };
    }
    return { ok: true, sub, route, query, pairs };
  }
  if (router.match(route, sub.method)) {
    return {
      ok: false,
      error: new RestError(
        400,
        'rest_batch_not_allowed',
        'The requested route does not support batch requests.',
      ),
    };
  }
  return {
    ok: false,
    error: new RestError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),
  };
}

/** WP_REST_Request::get_parameter_order(): body parameters over the query over the URL. */
function subParams(
  urlParams: Record<string, string>,
  query: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  return { ...urlParams, ...query, ...body };
}

async function run(ctx: Ctx, p: Planned & { ok: true }, batchable: Router, session: BatchSession) {
  const match = batchable.match(p.route, p.sub.method)!;
  const sub: Ctx = joinBatch(
    {
      method: p.sub.method,
      route: p.route,
      wcRoute: p.route,
      urlParams: match.urlParams,
      params: subParams(match.urlParams, p.query, p.sub.body),
      query: p.query,
      queryPairs: p.pairs,
      body: p.sub.body,
      key: ctx.key,
      store: ctx.store,
      headers: subHeaders(p.sub),
      remoteAddress: ctx.remoteAddress,
    },
    session,
  );
  try {
    return await match.handler(sub);
  } catch (err) {
    return errorResult(err, `batch ${p.sub.method} ${p.route}`);
  }
}

/** The batch's own session headers (Batch::get_response()), on its answer and on its errors alike. */
function batchHeaders(ctx: Ctx, options: StoreApiOptions): Record<string, string> {
  const now = Date.now();
  const nonce = sessionsOf(ctx.store, options).nonce(now);
  return {
    Nonce: nonce,
    'X-WC-Store-API-Nonce': nonce,
    'Nonce-Timestamp': String(Math.floor(now / 1000)),
    'User-ID': '0',
  };
}

async function serve(ctx: Ctx, args: BatchArgs, router: Router, batchable: Router): Promise<Result> {
  const planned = args.requests.map((sub) => plan(sub, router, batchable));
  // `require-all-validate`: nothing runs when one request fails to match or validate; the others answer null.
  if (args.validation === 'require-all-validate' && planned.some((p) => !p.ok)) {
    return {
      status: 207,
      body: {
        failed: 'validation',
        responses: planned.map((p) => (p.ok ? null : errorEnvelope(p.error))),
      },
    };
  }
  const session: BatchSession = { outer: ctx.headers, cart: null };
  const responses: Envelope[] = [];
  let cookie: string | undefined;
  const release = holdWebhooks(ctx.store);
  try {
    for (const p of planned) {
      if (!p.ok) {
        responses.push(errorEnvelope(p.error));
        continue;
      }
      const r = await run(ctx, p, batchable, session);
      cookie = r.headers?.['Set-Cookie'] ?? cookie;
      responses.push({ body: r.body ?? null, status: r.status, headers: envelopeHeaders(r.headers) });
    }
  } finally {
    release();
  }
  // setcookie() goes on the HTTP answer, which is the batch's.
  return { status: 207, body: { responses }, headers: cookie ? { 'Set-Cookie': cookie } : {} };
}

/**
 * Registers `POST batch`. `router` is the whole REST table (a matched route that is not batchable is
 * `rest_batch_not_allowed`); `batchable` holds the cart and checkout handlers before the rate limit.
 */
export function registerBatch(
  router: Pick<Router, 'add'>,
  table: Router,
  batchable: Router,
  options: StoreApiOptions,
): void {
  router.add('/wc/store/v1/batch', ['POST'], async (ctx) => {
    // Argument errors come from WordPress before Batch::get_response() runs: no session headers.
    const args = readBatchArgs(ctx.params);
    let result: Result;
    if (!args.requests.every((r) => r.path.toLowerCase().includes('wc/store'))) {
      const err = new RestError(400, 'woocommerce_rest_invalid_path', 'Invalid path provided.');
      result = { status: 400, body: err.toBody() };
    } else result = await serve(ctx, args, table, batchable);
    result.headers = { ...(result.headers ?? {}), ...batchHeaders(ctx, options) };
    return result;
  });
}
