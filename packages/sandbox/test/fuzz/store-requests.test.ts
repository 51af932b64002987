/**
 * Fuzzing the store emulator's request line and headers over real sockets: random query strings on every wc/v3
 * route (per_page, page, orderby, include[], PHP arrays, malformed percent-encoding), random Authorization
 * headers and OAuth 1.0a parameters, and random paths under `/wp-json` and `/?rest_route=`. Each answer is a
 * status with a JSON body (WordPress's error shape from 400 on, never a 500); afterwards the sentinels are
 * untouched, every collection lists, and a restart from the data file serves the same records.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { jsonBody } from './store-arbitraries.js';
import {
  API,
  BASIC,
  expectStoreHealthy,
  expectWellFormed,
  type FuzzStore,
  KEY,
  send,
  startFuzzStore,
  watchCrashes,
} from './store-harness.js';
import {
  authorization,
  contentType,
  pathSegment,
  queryComponent,
  queryString,
} from './store-request-arbitraries.js';
import { ALL_ROUTES, routePath } from './store-routes.js';

let f: FuzzStore;
let crashes: ReturnType<typeof watchCrashes>;

beforeAll(async () => {
  crashes = watchCrashes();
  f = await startFuzzStore();
});
afterAll(async () => {
  crashes?.stop();
  await f?.close();
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

async function check(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  body?: string,
) {
  const res = await send(f.sandbox.url, f.agent, { method, path, headers, body });
  const what = `${method} ${path} ${JSON.stringify(headers).slice(0, 300)} ${body?.slice(0, 100) ?? ''}`;
  expectWellFormed(res, method, what, crashes.take());
}

describe('store: query strings on every route', () => {
  for (const run of fuzzRuns(300)) {
    it(`store query strings ${run.label}`, async () => {
      let n = 0;
      const input = fc.record({
        method: fc.oneof({ weight: 6, arbitrary: fc.constant('GET') }, fc.constantFrom(...METHODS)),
        route: routePath(f, ALL_ROUTES),
        query: queryString,
        form: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, query, form }) => {
          n++;
          // The same pairs as a form body: PHP reads both into the request's parameters.
          const body = form && method !== 'GET' && method !== 'HEAD' ? query : undefined;
          const type = body === undefined ? undefined : 'application/x-www-form-urlencoded';
          await check(
            method,
            `${API}${route}?${query}`,
            { Authorization: BASIC, 'Content-Type': type },
            body,
          );
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store query strings', run, n);
      await expectStoreHealthy(f);
    });
  }
});

/** OAuth 1.0a parameters in the query (WooCommerce's HTTP form), with the real key or garbage. */
const oauthQuery = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'oauth_consumer_key',
        'oauth_signature',
        'oauth_signature_method',
        'oauth_nonce',
        'oauth_timestamp',
        'oauth_version',
        'consumer_key',
        'consumer_secret',
      ),
      fc.oneof(
        fc.constantFrom(KEY.consumerKey, KEY.consumerSecret, 'HMAC-SHA1', 'HMAC-SHA256', 'PLAINTEXT', '1.0'),
        fc.integer({ min: -1, max: 2 ** 33 }).map(String),
        queryComponent,
      ),
    ),
    { maxLength: 7 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

describe('store: Authorization headers and OAuth parameters', () => {
  for (const run of fuzzRuns(300)) {
    it(`store auth headers ${run.label}`, async () => {
      let n = 0;
      const input = fc.record({
        method: fc.constantFrom(...METHODS),
        route: routePath(f, ALL_ROUTES),
        authorization: authorization(KEY.consumerKey, KEY.consumerSecret),
        oauth: fc.oneof(fc.constant(''), oauthQuery),
        override: fc.option(fc.constantFrom('DELETE', 'PUT', 'GET', 'TRACE', 'x', ''), { nil: undefined }),
        origin: fc.option(fc.constantFrom('null', 'http://evil.example', 'file://'), { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, authorization: auth, oauth, override, origin }) => {
          n++;
          const headers = { Authorization: auth, 'X-HTTP-Method-Override': override, Origin: origin };
          await check(method, `${API}${route}${oauth ? `?${oauth}` : ''}`, headers);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store auth headers', run, n);
      await expectStoreHealthy(f);
    });
  }
});

/** A path as a client might send it: under /wp-json (or /index.php/wp-json), or as `?rest_route=`. */
const rawPath = fc
  .record({
    form: fc.constantFrom('pretty', 'index', 'query', 'bare'),
    segments: fc.array(pathSegment, { maxLength: 7 }),
    tail: fc.constantFrom('', '/', '//', '?', '?&', '?rest_route='),
    query: fc.option(queryString, { nil: undefined }),
  })
  .map(({ form, segments, tail, query }) => {
    const route = `/${segments.join('/')}${tail}`;
    const extra = query === undefined ? '' : `${route.includes('?') ? '&' : '?'}${query}`;
    switch (form) {
      case 'pretty':
        return `/wp-json${route}${extra}`;
      case 'index':
        return `/index.php/wp-json${route}${extra}`;
      case 'query':
        return `/?rest_route=${route.replace(/\?/g, '%3F')}${query === undefined ? '' : `&${query}`}`;
      default:
        return `${route}${extra}`;
    }
  });

describe('store: random paths', () => {
  for (const run of fuzzRuns(300)) {
    it(`store paths ${run.label}`, async () => {
      let n = 0;
      const input = fc.record({
        method: fc.constantFrom(...METHODS),
        path: rawPath,
        type: contentType,
        body: fc.option(jsonBody, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, path, type, body }) => {
          n++;
          const res = await send(f.sandbox.url, f.agent, {
            method,
            path,
            headers: { Authorization: BASIC, 'Content-Type': body === undefined ? undefined : type },
            body,
          });
          // `/` with GET or HEAD and no REST route is the shop's HTML front page, as on a real site.
          if (String(res.headers['content-type']).startsWith('text/html')) {
            expect({
              status: res.status,
              path: path.split('?')[0],
              get: method === 'GET' || method === 'HEAD',
            }).toEqual({
              status: 200,
              path: '/',
              get: true,
            });
            return;
          }
          expectWellFormed(res, method, `${method} ${path} ${body?.slice(0, 100) ?? ''}`, crashes.take());
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store paths', run, n);
      await expectStoreHealthy(f);
    });
  }
});
