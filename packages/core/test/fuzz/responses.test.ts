import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { BaseClient, bearerAuth, cursorStrategy, pageNumberStrategy, XError } from '../../src/index.js';
import { type Answer, answerArbitrary, reply, surfaces, withinMs } from './answers.js';

/**
 * The request loop's response parsing against a real server answering garbage: every call settles with
 * data or an XError (never a raw TypeError/RangeError, an unhandled rejection or a hang), no error shows
 * the key, and afterwards a normal request still works.
 */
const SECRET = 'sk_fuzz_7f6e5d4c3b2a1908';
let server: Server;
let baseURL: string;
let current: Answer | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (current) reply(current, res, req);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":1,"name":"ok"}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const silent = { debug() {}, info() {}, warn() {}, error() {} };
function client() {
  return new BaseClient(
    { baseURL, auth: bearerAuth(SECRET), rateLimit: false, maxRetries: 0, timeout: 5000, logger: silent },
    { packageName: '@x/fuzz', packageVersion: '0.0.0', requestIdHeaders: ['x-request-id'] },
  );
}
const thing = z.looseObject({ id: z.number(), name: z.string() });

function checkSettled(outcome: { ok: true } | { ok: false; error: unknown }): void {
  if (outcome.ok) return;
  expect(outcome.error).toBeInstanceOf(XError);
  for (const text of surfaces(outcome.error)) expect(text).not.toContain(SECRET);
}

async function settle(promise: PromiseLike<unknown>) {
  try {
    await withinMs(Promise.resolve(promise), 10_000);
    return { ok: true } as const;
  } catch (error) {
    return { ok: false, error } as const;
  }
}

const surfacesUnderTest = [
  [
    'core request+schema',
    (c: BaseClient) => c.request({ method: 'GET', path: '/things/1', schema: thing, what: 'things.get' }),
  ],
  [
    'core page-number list',
    (c: BaseClient) =>
      c
        .list(
          { method: 'GET', path: '/items' },
          pageNumberStrategy({ totalHeader: 'x-wp-total', totalPagesHeader: 'x-wp-totalpages' }),
        )
        .toArray(),
  ],
  [
    'core cursor list',
    (c: BaseClient) =>
      c
        .list(
          { method: 'GET', path: '/cursor' },
          cursorStrategy({
            items: (body) => (Array.isArray(body) ? body : []),
            nextUrl: (_body, response) => response.headers.get('link')?.match(/<([^>]*)>/)?.[1],
          }),
        )
        .toArray(),
  ],
] as const;

describe.each(surfacesUnderTest)('%s', (surface, call) => {
  for (const run of fuzzRuns(150)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      const c = client();
      await fc.assert(
        fc.asyncProperty(answerArbitrary(SECRET), async (answer) => {
          n++;
          current = answer;
          checkSettled(await settle(call(c)));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      current = undefined;
      reportFuzz(surface, run, n);
      await expect(c.request({ method: 'GET', path: '/things/1', schema: thing })).resolves.toEqual({
        id: 1,
        name: 'ok',
      });
    }, 120_000);
  }
});
