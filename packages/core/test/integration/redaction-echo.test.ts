import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  type AuthStrategy,
  BaseClient,
  bearerAuth,
  headerAuth,
  hmac,
  signerAuth,
  XError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/**
 * A server that echoes everything it got back, in the request id, the Link header and the body. The
 * request id used to reach `err.message` unredacted, signatures derived per request were never redacted,
 * and keys under 4 characters were skipped. No secret may appear in any surface of the error or the logs.
 */
const server = useFaultServer();

function echo(status: number, contentType = 'application/json') {
  return (req: IncomingMessage, res: ServerResponse) => {
    const sent = { url: req.url, headers: req.headers };
    const everything = [req.url, ...Object.values(req.headers)].join(' ');
    res.writeHead(status, {
      'content-type': contentType,
      'x-request-id': `req_${everything}`.replace(/[^\t\x20-\x7e]/g, '?'),
      link: `<${server.url}${req.url}>; rel="next"`,
    });
    res.end(
      contentType.includes('json')
        ? JSON.stringify({ code: 'echo', message: `you sent ${JSON.stringify(sent)}`, sent })
        : `<html>you sent ${everything}</html>`,
    );
  };
}

interface Scheme {
  name: string;
  auth: AuthStrategy;
  /** What must never show: the key and anything derived from it. */
  secrets: () => string[];
}

const TOKEN = 'tok_live_8a7b6c5d4e3f2a1b';
const HEADER_KEY = 'hk_0f1e2d3c4b5a69788796';
const SIGNING = 'sign_secret_1234567890abcdef';
let lastSignature = '';
const schemes: Scheme[] = [
  { name: 'bearer', auth: bearerAuth(TOKEN), secrets: () => [TOKEN] },
  { name: 'header', auth: headerAuth('x-api-key', HEADER_KEY), secrets: () => [HEADER_KEY] },
  { name: 'short header key', auth: headerAuth('x-api-key', 'k9Z'), secrets: () => ['k9Z'] },
  {
    name: 'signer (derived signature in a header and the query)',
    auth: signerAuth(
      'hmac',
      async (request) => {
        lastSignature = await hmac('SHA-256', SIGNING, `${request.method} ${request.url.pathname}`, 'hex');
        request.headers.set('x-signature', lastSignature);
        request.url.searchParams.set('auth_signature', lastSignature);
      },
      [SIGNING],
    ),
    secrets: () => [SIGNING, lastSignature],
  },
];

const scenarios: Array<[string, () => unknown]> = [
  ['a 401 echoing everything', () => echo(401)],
  ['a 500 retried, then echoing', () => echo(500)],
  ['a 200 of the wrong shape', () => echo(200)],
  ['a 200 HTML page', () => echo(200, 'text/html')],
];

describe.each(schemes)('$name auth against an echoing server', (scheme) => {
  it.each(scenarios)(
    '%s: no secret in message, String, JSON, stack, requestId or debug logs',
    async (_, reply) => {
      const lines: string[] = [];
      const capture = (...args: unknown[]) =>
        void lines.push(args.map((a) => inspect(a, { depth: 6 })).join(' '));
      const client = new BaseClient(
        {
          baseURL: server.url,
          auth: scheme.auth,
          rateLimit: false,
          maxRetries: 1,
          retry: { baseDelayMs: 1, maxDelayMs: 1 },
          logger: { debug: capture, info: capture, warn: capture, error: capture },
          logLevel: 'debug',
        },
        { packageName: '@x/test', packageVersion: '0.0.0' },
      );
      server.replies.push(reply() as never, reply() as never);
      const error = await client
        .request({
          method: 'GET',
          path: '/things/1',
          schema: z.object({ id: z.number() }),
          what: 'things.get',
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(XError);
      const e = error as XError & { requestId?: string; headers?: Headers; body?: unknown };
      const surfaces = [
        e.message,
        String(e),
        JSON.stringify(e),
        e.stack ?? '',
        String(e.requestId),
        inspect(e.body, { depth: 20 }),
        JSON.stringify([...(e.headers?.entries() ?? [])]),
        ...lines,
      ];
      // The echo really carried the secrets: otherwise this test would prove nothing.
      expect(server.requests.length).toBeGreaterThan(0);
      for (const secret of scheme.secrets()) {
        expect(secret.length).toBeGreaterThan(0);
        for (const surface of surfaces)
          expect(surface).not.toMatch(new RegExp(`(?<![\\w])${secret}(?![\\w])`));
      }
      if ('requestId' in e && e.requestId !== undefined) expect(e.requestId).toMatch(/^req_/);
    },
  );
});
