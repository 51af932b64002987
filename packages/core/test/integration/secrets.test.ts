import { inspect } from 'node:util';
import { expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  BaseClient,
  basicAuth,
  bearerAuth,
  composeAuth,
  hmac,
  queryAuth,
  Secret,
  signerAuth,
} from '../../src/index.js';
import { type Reply, useFaultServer } from '../helpers/fault-server.js';

const BEARER = 'tok_live_9f8e7d6c5b4a3f2e1d0c';
const PASSWORD = 'pw-Sup3r$ecret-basic';
const SIGNING_SECRET = 'sign_4b1d2c3e4f5a6b7c8d9e';
const QUERY_SECRET = 'cs_0123456789abcdef0123456789abcdef01234567';
const SECRETS = [BEARER, PASSWORD, SIGNING_SECRET, QUERY_SECRET, btoa(`user:${PASSWORD}`)];

const server = useFaultServer();

/** Servers echo credentials back more often than one would hope: in messages, in Link headers. */
const echo: Reply = (req, res) => {
  res.writeHead(401, { 'content-type': 'application/json', link: `<${req.url}>; rel="next"` });
  res.end(
    JSON.stringify({
      code: 'bad_key',
      message: `Key ${BEARER} with secret ${QUERY_SECRET} is not valid`,
      data: { status: 401 },
    }),
  );
};

const scenarios: Array<[string, Reply[]]> = [
  ['echoed secrets in a 401', [echo]],
  [
    '429 then 500',
    [
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500, text: `internal ${PASSWORD}` },
    ],
  ],
  ['connection reset', ['reset', 'reset', 'reset']],
  ['stall past the timeout', ['stall']],
  ['malformed JSON', [{ text: `{"token":"${BEARER}"`, headers: { 'content-type': 'application/json' } }]],
  ['wrong shape', [{ json: { id: 'x', token: SIGNING_SECRET } }]],
];

it('no secret appears in any log line, error message, serialised error or inspected client', async () => {
  const lines: string[] = [];
  const capture = (...args: unknown[]) =>
    void lines.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 8 }))).join(' '));
  const logger = { debug: capture, info: capture, warn: capture, error: capture };
  const auth = composeAuth(
    bearerAuth(BEARER),
    basicAuth('user', new Secret(PASSWORD)),
    queryAuth({ consumer_secret: QUERY_SECRET }),
    signerAuth(
      'hmac',
      async (request) => {
        request.url.searchParams.set(
          'auth_signature',
          await hmac('SHA-256', SIGNING_SECRET, request.url.pathname, 'hex'),
        );
      },
      [SIGNING_SECRET],
    ),
  );
  const client = new BaseClient(
    {
      baseURL: server.url,
      auth,
      logger,
      logLevel: 'debug',
      rateLimit: false,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      timeout: 300,
    },
    { packageName: '@x/test', packageVersion: '0.0.0' },
  );
  const seen: string[] = [];
  for (const [name, replies] of scenarios) {
    server.replies.length = 0;
    server.replies.push(...replies);
    const error = await client
      .request({ method: 'GET', path: '/secret', schema: z.object({ id: z.number() }) })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(error, name).toBeInstanceOf(Error);
    seen.push(name, error!.message, String(error), JSON.stringify(error), inspect(error, { depth: 8 }));
  }
  seen.push(
    ...lines,
    JSON.stringify(client),
    inspect(client, { depth: 8 }),
    String(auth),
    JSON.stringify(auth),
    inspect(auth),
  );
  // The secrets did reach the server (auth really was applied), so their absence above means something.
  expect(server.requests.some((r) => r.headers.authorization === `Basic ${btoa(`user:${PASSWORD}`)}`)).toBe(
    true,
  );
  expect(server.requests.some((r) => r.url.includes(QUERY_SECRET))).toBe(true);
  const text = seen.join('\n');
  expect(lines.length).toBeGreaterThan(10);
  for (const secret of SECRETS) expect(text, secret).not.toContain(secret);
});
