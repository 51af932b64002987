import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Answer, answerArbitrary, reply, surfaces, withinMs } from '../../../core/test/fuzz/answers.js';
import { StoreClient, XError } from '../../src/index.js';

/**
 * The store client's response parsing (schemas, X-WP-Total paging, WooCommerce error bodies, OAuth 1.0a
 * over HTTP) against a real server answering garbage: every call settles with data or an XError, no
 * error shows the secret or a signature, and afterwards a normal request still works.
 */
const KEY = 'ck_fuzz_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b';
const SECRET = 'cs_fuzz_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e';
let server: Server;
let url: string;
let current: Answer | undefined;
const signatures: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const signature = new URL(req.url ?? '/', 'http://x').searchParams.get('oauth_signature');
      if (signature) signatures.push(signature);
      if (current) reply(current, res, req);
      else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-wp-total': '0', 'x-wp-totalpages': '0' });
        res.end('[]');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const silent = { debug() {}, info() {}, warn() {}, error() {} };
function store() {
  return new StoreClient({
    url,
    consumerKey: KEY,
    consumerSecret: SECRET,
    rateLimit: false,
    maxRetries: 0,
    timeout: 5000,
    logger: silent,
  });
}

const calls = [
  ['store products.get', (s: StoreClient) => s.products.get(1)],
  ['store orders.list (all pages)', (s: StoreClient) => s.orders.list({ per_page: 5 }).toArray()],
  ['store products.create', (s: StoreClient) => s.products.create({ name: 'Fuzz' })],
] as const;

describe.each(calls)('%s', (surface, call) => {
  for (const run of fuzzRuns(120)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      const client = store();
      await fc.assert(
        fc.asyncProperty(answerArbitrary(SECRET), async (answer) => {
          n++;
          current = answer;
          signatures.length = 0;
          try {
            await withinMs(Promise.resolve(call(client)), 10_000);
          } catch (error) {
            expect(error).toBeInstanceOf(XError);
            for (const text of surfaces(error)) {
              expect(text).not.toContain(SECRET);
              for (const signature of signatures) {
                expect(text).not.toContain(signature);
                expect(text).not.toContain(encodeURIComponent(signature));
              }
            }
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      current = undefined;
      reportFuzz(surface, run, n);
      await expect(client.products.list()).resolves.toBeDefined();
    }, 120_000);
  }
});
