/**
 * A server that echoes the signed query string back (in its error text, a JSON body, headers, a redirect,
 * split across chunks, upper-cased), on node:http: whatever it echoes, no `auth_signature` the SDK sent and
 * not the secret reaches an error's message, `String(err)`, `JSON.stringify(err)`, `util.inspect(err)`, its
 * body and headers, or a log line at `debug`. On both request paths: Node's native one (no `fetch` given)
 * and ky over a `fetch` the user passes; core's redactor does the scrubbing on both.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APIError, RealtimeServer, type RealtimeServerOptions, XError } from '../../src/server.js';

const SECRET = 'echo-test-secret-7f3a9c';
/** Every `auth_signature` the echo server was sent. */
const signatures: string[] = [];
let server: Server;
let port: number;

type Echo = (query: string, signature: string, res: import('node:http').ServerResponse) => void;
let echo: Echo;

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = (req.url ?? '').split('?')[1] ?? '';
    const signature = new URLSearchParams(query).get('auth_signature') ?? '';
    signatures.push(signature);
    req.resume();
    req.on('end', () => echo(query, signature, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  signatures.length = 0;
});

const paths: Array<[string, Partial<RealtimeServerOptions>]> = [
  ['native path', {}],
  ['fetch given', { fetch: (url, init) => globalThis.fetch(url, init) }],
];

function makeServer(lines: string[], path: Partial<RealtimeServerOptions>): RealtimeServer {
  const log =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      lines.push(
        `${level} ${message} ${args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8 }))).join(' ')}`,
      );
  return new RealtimeServer({
    appId: '1',
    key: 'echo-key',
    secret: SECRET,
    host: '127.0.0.1',
    port,
    useTLS: false,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    logLevel: 'debug',
    ...path,
  });
}

/** Everything a user could print of the error, and every log line. */
function everything(error: unknown, lines: string[]): string {
  const e = error as APIError;
  return [
    e.message,
    String(e),
    JSON.stringify(e),
    inspect(e, { depth: 8 }),
    JSON.stringify(e.body),
    JSON.stringify([...(e.headers?.entries() ?? [])]),
    ...lines,
  ].join('\n');
}

function expectClean(text: string): void {
  expect(signatures.length).toBeGreaterThan(0);
  for (const signature of signatures) {
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(text.toLowerCase()).not.toContain(signature);
  }
  expect(text).not.toContain(SECRET);
}

const cases: Array<[string, Echo]> = [
  [
    'plain-text 401 quoting the query',
    (query, signature, res) =>
      res
        .writeHead(401, { 'content-type': 'text/plain' })
        .end(`Invalid signature: got ${query} (${signature})`),
  ],
  [
    'JSON 400 with the signature in a field, upper-cased in another',
    (query, signature, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `bad request ${query}`, signature: signature.toUpperCase() })),
  ],
  [
    'headers and a redirect carrying it',
    (query, signature, res) =>
      res
        .writeHead(302, {
          location: `http://elsewhere.test/x?${query}`,
          'x-echo': signature,
          'x-query': query,
        })
        .end(),
  ],
  [
    '503 (retried, so logged) with the signature split across two chunks',
    (_query, signature, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.write(`overloaded, sig ${signature.slice(0, 30)}`);
      setTimeout(() => res.end(`${signature.slice(30)} end`), 5);
    },
  ],
  [
    "soketi's status-200 error quoting the signature (a typed 401)",
    (_query, signature, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `bad signature ${signature}`, code: 401 })),
  ],
  [
    '200 whose body does not match the schema (ResponseValidationError carries it)',
    (query, _signature, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ channels: query })),
  ],
];

describe.each(paths)('%s', (_path, path) => {
  it.each(cases)('%s: no signature or secret in the error or the logs', async (_name, answer) => {
    echo = answer;
    const lines: string[] = [];
    const pusher = makeServer(lines, path);
    const error = await pusher.channels.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(XError);
    expect(lines.length).toBeGreaterThan(0);
    expectClean(everything(error, lines));
  });

  it('a POST (trigger) echoed back is scrubbed too', async () => {
    echo = (query, signature, res) =>
      res.writeHead(403, { 'content-type': 'text/plain', 'x-echo': query }).end(`no: ${signature}`);
    const lines: string[] = [];
    const error = await makeServer(lines, path)
      .trigger('orders', 'created', { id: 1 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(403);
    expect((error as APIError).message).toContain('[REDACTED]');
    expectClean(everything(error, lines));
  });
});
