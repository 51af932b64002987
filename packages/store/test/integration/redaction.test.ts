import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreClient, type StoreClientOptions, XError } from '../../src/index.js';
import {
  echoAll,
  type ScriptedServer,
  selfSignedCertificate,
  startScriptedServer,
} from '../helpers/echo-server.js';
import { trustingFetch } from '../helpers/sandbox.js';

/**
 * A server that echoes everything back (request id, Link, X-WP-Total, body) against each auth scheme of
 * the store. The request id carried the key into `err.message`, and an echoed `oauth_signature` (derived
 * per request, never registered as a secret) stayed in messages. Neither the secret nor a signature may
 * show in message, String(err), JSON.stringify(err), stack, requestId, headers, body or debug logs.
 */
const KEY = 'ck_3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e';
const SECRET = 'cs_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b';

let plain: ScriptedServer;
let tls: ScriptedServer;
beforeAll(async () => {
  [plain, tls] = await Promise.all([startScriptedServer(), startScriptedServer({ tls: true })]);
});
afterAll(() => Promise.all([plain.close(), tls.close()]));

const schemes = [
  { name: 'OAuth 1.0a over HTTP', server: () => plain, extra: {} },
  { name: 'Basic over HTTPS', server: () => tls, extra: {} },
  { name: 'query string keys over HTTPS', server: () => tls, extra: { queryStringAuth: true } },
] as const;

const scenarios = [
  ['401 JSON echo', () => echoAll(401)],
  ['500 echo, retried once', () => echoAll(500)],
  ['404 HTML echo', () => echoAll(404, 'text/html')],
  ['200 HTML echo', () => echoAll(200, 'text/html')],
  ['200 JSON of the wrong shape', () => echoAll(200)],
] as const;

/** Signatures and keys as they went over the wire, decoded from every request the server saw. */
function derivedFromWire(server: ScriptedServer): string[] {
  const found: string[] = [];
  for (const request of server.requests) {
    const url = new URL(request.url, server.url);
    for (const name of ['oauth_signature', 'consumer_secret']) {
      const value = url.searchParams.get(name);
      if (value) found.push(value, encodeURIComponent(value));
    }
    const auth = request.headers.authorization;
    if (auth) found.push(auth.replace(/^Basic /, ''));
  }
  return found;
}

describe.each(schemes)('$name', (scheme) => {
  it.each(scenarios)('%s: no secret or signature anywhere in the error or the logs', async (_, reply) => {
    const server = scheme.server();
    server.requests.length = 0;
    server.handlers.push(reply(), reply());
    const lines: string[] = [];
    const capture = (...args: unknown[]) =>
      void lines.push(args.map((a) => inspect(a, { depth: 6 })).join(' '));
    const options: StoreClientOptions = {
      url: server.url,
      consumerKey: KEY,
      consumerSecret: SECRET,
      rateLimit: false,
      maxRetries: 1,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      logger: { debug: capture, info: capture, warn: capture, error: capture },
      logLevel: 'debug',
      ...(server.url.startsWith('https') ? { fetch: trustingFetch(selfSignedCertificate().cert) } : {}),
      ...scheme.extra,
    };
    const store = new StoreClient(options);
    const error = await store.products.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(XError);
    const e = error as XError & { requestId?: string; headers?: Headers; body?: unknown; url?: string };
    const surfaces = [
      e.message,
      String(e),
      JSON.stringify(e),
      e.stack ?? '',
      String(e.requestId),
      String(e.url),
      inspect(e.body, { depth: 20 }),
      JSON.stringify([...(e.headers?.entries() ?? [])]),
      ...lines,
    ];
    const secrets = [SECRET, ...derivedFromWire(server)];
    // The wire really carried credentials of this scheme, so the echo had something to leak.
    expect(secrets.length).toBeGreaterThan(1);
    for (const secret of secrets) for (const surface of surfaces) expect(surface).not.toContain(secret);
  });
});
