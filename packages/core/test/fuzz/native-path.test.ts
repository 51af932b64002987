import { createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { BaseClient, bearerAuth, XError } from '../../src/index.js';
import { listenTracked, type TrackedServer } from '../helpers/tracked-server.js';
import { surfaces, withinMs } from './answers.js';

/**
 * The Node-native path against a raw TCP server that answers with arbitrary, often malformed HTTP: bad
 * status lines, duplicate or lying content-length, broken chunking, gzip that is not, a body cut by a
 * reset, or nothing at all. Every call settles (within its timeout, plus slack) with data or an XError;
 * nothing escapes as an unhandled error, no message shows the key, and a normal request works afterwards.
 */
const SECRET = 'sk_fuzz_native_5c4b3a29';
const TIMEOUT_MS = 400;
let tracked: TrackedServer;
let baseURL: string;
let current: Wire | undefined;

interface Wire {
  head: string;
  body: Uint8Array;
  /** What the server does after writing: close, reset, or leave the socket open (the client's timeout ends it). */
  end: 'close' | 'reset' | 'hold' | 'keep';
  /** Split the bytes into two writes at this fraction, so the parser sees a partial message. */
  split: number;
}

const OK =
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{"id":1,"name":"ok"}';

beforeAll(async () => {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      if (!buffered.includes('\r\n\r\n')) return;
      buffered = '';
      const wire = current;
      if (!wire) {
        socket.write(OK);
        return;
      }
      const bytes = Buffer.concat([Buffer.from(wire.head, 'latin1'), wire.body]);
      const at = Math.floor(bytes.length * wire.split);
      socket.write(bytes.subarray(0, at));
      setImmediate(() => {
        if (socket.destroyed) return;
        socket.write(bytes.subarray(at));
        if (wire.end === 'close') socket.end();
        else if (wire.end === 'reset') socket.resetAndDestroy();
      });
    });
  });
  tracked = await listenTracked(server);
  baseURL = tracked.baseURL;
});
afterAll(() => tracked.close());

const token = fc.stringMatching(/^[A-Za-z-]{1,12}$/);
const headerLine = fc.oneof(
  fc.tuple(token, fc.string({ maxLength: 20 })).map(([n, v]) => `${n}: ${v}`),
  fc.nat(5000).map((n) => `content-length: ${n}`),
  fc.constantFrom(
    'content-length: -1',
    'content-length: 1, 2',
    'content-length: abc',
    'transfer-encoding: chunked',
    'transfer-encoding: gzip, chunked',
    'content-encoding: gzip',
    'content-encoding: br',
    'content-encoding: deflate',
    'content-encoding: gzip, br',
    'content-type: application/json',
    'connection: close',
    `x-request-id: ${SECRET}`,
    'no colon here',
    ': empty name',
  ),
);
const statusLine = fc.oneof(
  fc.constantFrom(200, 201, 204, 301, 304, 400, 404, 421, 429, 500, 503).map((s) => `HTTP/1.1 ${s} Reason`),
  fc.integer({ min: 0, max: 1200 }).map((s) => `HTTP/1.1 ${s} X`),
  fc.constantFrom('HTTP/1.0 200 OK', 'HTTP/2 200', 'HTTP/1.1 200', 'HTTP/1.1 abc OK', 'garbage', ''),
  fc.string({ maxLength: 30 }).map((s) => `HTTP/1.1 200 ${s}`),
);
const body = fc.oneof(
  fc.constant(Buffer.from('{"id":1,"name":"fuzz"}')),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.constant(gzipSync(Buffer.from('{"id":2,"name":"zipped"}'))),
  fc
    .constantFrom('5\r\nhello\r\n0\r\n\r\n', 'zz\r\nbad chunk\r\n', '3\r\nab', '0\r\n\r\n')
    .map((s) => Buffer.from(s)),
);
const wireArbitrary: fc.Arbitrary<Wire> = fc.record({
  head: fc
    .tuple(statusLine, fc.array(headerLine, { maxLength: 6 }), fc.constantFrom('\r\n', '\n', ''))
    .map(([status, headers, end]) => `${[status, ...headers].join('\r\n')}\r\n${end}`),
  body,
  end: fc.constantFrom('close', 'reset', 'hold', 'keep'),
  split: fc.double({ min: 0, max: 1, noNaN: true }),
});

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('the native path against arbitrary HTTP answers', () => {
  for (const run of fuzzRuns(60)) {
    it(run.label, async () => {
      const client = new BaseClient(
        {
          baseURL,
          auth: bearerAuth(SECRET),
          rateLimit: false,
          maxRetries: 0,
          timeout: TIMEOUT_MS,
          maxResponseBytes: 2000,
          logger: silent,
        },
        { packageName: '@x/fuzz', packageVersion: '0.0.0', requestIdHeaders: ['x-request-id'] },
      );
      let n = 0;
      await fc.assert(
        fc.asyncProperty(wireArbitrary, fc.constantFrom('GET', 'HEAD', 'POST'), async (wire, method) => {
          n++;
          current = wire;
          const call = client.request({
            method: method as 'GET',
            path: '/things/1',
            body: method === 'POST' ? { a: 1 } : undefined,
          });
          try {
            await withinMs(Promise.resolve(call), TIMEOUT_MS + 5_000);
          } catch (error) {
            expect(error).toBeInstanceOf(XError);
            for (const text of surfaces(error)) expect(text).not.toContain(SECRET);
          } finally {
            // Sockets left open on purpose ('hold', 'keep') must not carry over into the next input.
            tracked.destroySockets();
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      current = undefined;
      reportFuzz('core native path (raw TCP answers)', run, n);
      // The last input's socket was destroyed by the server just now; a pooled connection may not know yet,
      // so the check allows the retry a real client would make.
      await expect(
        client.request({ method: 'GET', path: '/things/1', options: { maxRetries: 2 } }),
      ).resolves.toEqual({
        id: 1,
        name: 'ok',
      });
    }, 120_000);
  }
});
