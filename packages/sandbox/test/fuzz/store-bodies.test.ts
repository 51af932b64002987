/**
 * Fuzzing the store emulator's request bodies over real sockets: random JSON (any depth and size, wrong types,
 * unicode, `__proto__` / `constructor` keys) and random bytes under any Content-Type, sent with the dev key to
 * every wc/v3 route that writes. Each answer is a status with a JSON body (WordPress's error shape from 400 on,
 * never a 500); afterwards the sentinels are untouched, every collection lists, and a restart from the data
 * file serves the same records.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { batchBody, jsonBody } from './store-arbitraries.js';
import {
  API,
  BASIC,
  expectStoreHealthy,
  expectWellFormed,
  type FuzzStore,
  send,
  startFuzzStore,
  watchCrashes,
} from './store-harness.js';
import { contentType, deepName, queryString } from './store-request-arbitraries.js';
import { routePath, WRITE_ROUTES } from './store-routes.js';
import { typedBody } from './store-typed.js';

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

const writeMethod = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH') },
  fc.constantFrom('DELETE', 'GET', 'OPTIONS'),
);

/** A query on a write: none mostly, else random (which may carry `_method`, `force`, `_fields`). */
const maybeQuery = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  queryString.map((q) => `?${q}`),
);

describe('store: JSON bodies on every write route', () => {
  for (const run of fuzzRuns(200)) {
    it(`store JSON bodies ${run.label}`, async () => {
      let n = 0;
      const input = fc
        .record({ method: writeMethod, route: routePath(f, WRITE_ROUTES), query: maybeQuery })
        .chain((r) =>
          (r.route.endsWith('/batch') ? fc.oneof(batchBody, jsonBody) : jsonBody).map((body) => ({
            ...r,
            body,
          })),
        );
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, query, body }) => {
          n++;
          const path = `${API}${route}${query}`;
          const res = await send(f.sandbox.url, f.agent, {
            method,
            path,
            headers: { Authorization: BASIC, 'Content-Type': 'application/json' },
            body,
          });
          expectWellFormed(res, method, `${method} ${path} ${body.slice(0, 200)}`, crashes.take());
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store JSON bodies', run, n);
      await expectStoreHealthy(f);
    });
  }
});

describe('store: typed bodies with hostile values on every write route', () => {
  for (const run of fuzzRuns(250)) {
    it(`store typed bodies ${run.label}`, async () => {
      let n = 0;
      const input = fc
        .record({
          method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('POST', 'PUT') }, fc.constant('DELETE')),
          route: routePath(f, WRITE_ROUTES),
        })
        .chain((r) => typedBody(f, r.route).map((body) => ({ ...r, body })));
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, body }) => {
          n++;
          const path = `${API}${route}`;
          const res = await send(f.sandbox.url, f.agent, {
            method,
            path,
            headers: { Authorization: BASIC, 'Content-Type': 'application/json' },
            body,
          });
          expectWellFormed(res, method, `${method} ${path} ${body.slice(0, 300)}`, crashes.take());
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store typed bodies', run, n);
      await expectStoreHealthy(f);
    });
  }
});

/** Random bytes, form-encoded pairs, or JSON, under a Content-Type that may not say what they are. */
const rawBody = fc.oneof(
  fc.uint8Array({ maxLength: 2_048 }).map((b) => Buffer.from(b)),
  queryString.map((q) => Buffer.from(q)),
  fc.tuple(deepName(200_000), queryString).map(([name, q]) => Buffer.from(`${name}=1&${q}`)),
  jsonBody.map((t) => Buffer.from(t)),
  fc.string({ unit: 'binary', maxLength: 256 }).map((s) => Buffer.from(s, 'utf16le')),
);

describe('store: raw bodies and Content-Types', () => {
  for (const run of fuzzRuns(200)) {
    it(`store raw bodies ${run.label}`, async () => {
      let n = 0;
      const input = fc.record({
        method: writeMethod,
        route: routePath(f, WRITE_ROUTES),
        type: contentType,
        body: rawBody,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, route, type, body }) => {
          n++;
          const path = `${API}${route}`;
          const res = await send(f.sandbox.url, f.agent, {
            method,
            path,
            headers: { Authorization: BASIC, 'Content-Type': type },
            body,
          });
          expectWellFormed(
            res,
            method,
            `${method} ${path} [${type}] ${body.toString('hex').slice(0, 200)}`,
            crashes.take(),
          );
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store raw bodies', run, n);
      await expectStoreHealthy(f);
    });
  }
});
