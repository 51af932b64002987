import { createHmac, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthStrategy,
  BaseClient,
  basicAuth,
  queryAuth,
  RedirectError,
  type RequestSpec,
  signerAuth,
} from '../../src/index.js';
import { type Recorded, type Reply, useFaultServer } from '../helpers/fault-server.js';
import { testCertificate, trustingFetch } from '../helpers/tls.js';

const USER = 'api-user';
const PASSWORD = 'pw-R3direct-basic-9f8e7d6c';
const CK = 'ck_1f2e3d4c5b6a79881f2e3d4c5b6a798812345678';
const CS = 'cs_a9b8c7d6e5f4a3b2c1d0a9b8c7d6e5f4a3b2c1d0';
const OAUTH_KEY = 'oauth-key-5e6f7a8b9c0d';
const OAUTH_SECRET = 'oauth-secret-0d1e2f3a4b5c';

/** OAuth-1.0a-like base string: method, origin + path, and the sorted query without the signature. */
function oauthSignature(method: string, url: URL): string {
  const params = [...url.searchParams]
    .filter(([name]) => name !== 'oauth_signature')
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
  const base = [method, url.origin + url.pathname, new URLSearchParams(params).toString()]
    .map(encodeURIComponent)
    .join('&');
  return createHmac('sha256', OAUTH_SECRET).update(base).digest('base64url');
}

/** Appends rather than sets, so a parameter left over from an earlier hop shows up as a duplicate. */
const oauth = signerAuth(
  'oauth',
  (request) => {
    const query = request.url.searchParams;
    query.append('oauth_consumer_key', OAUTH_KEY);
    query.append('oauth_nonce', randomUUID());
    query.append('oauth_signature', oauthSignature(request.method, request.url));
  },
  [OAUTH_KEY, OAUTH_SECRET],
);

const query = (request: Recorded) => new URL(request.url, 'http://x').searchParams;
const BASIC = `Basic ${btoa(`${USER}:${PASSWORD}`)}`;

interface Mode {
  name: string;
  auth: AuthStrategy;
  tls: boolean;
  secrets: string[];
  /** Per-request values that must differ on every hop. */
  fresh: string[];
  /** The request carries this mode's credentials exactly once, valid for its method and URL. */
  expectCredentials(request: Recorded, origin: string): void;
}

const modes: Mode[] = [
  {
    name: 'basicAuth over HTTP',
    auth: basicAuth(USER, PASSWORD),
    tls: false,
    secrets: [PASSWORD, btoa(`${USER}:${PASSWORD}`)],
    fresh: [],
    expectCredentials(request) {
      const sent = request.rawHeaders.filter(
        (_, i, raw) => i % 2 === 1 && /^authorization$/i.test(raw[i - 1]!),
      );
      expect(sent).toEqual([BASIC]);
    },
  },
  {
    name: 'queryAuth over HTTPS',
    auth: queryAuth({ consumer_key: CK, consumer_secret: CS }),
    tls: true,
    secrets: [CK, CS],
    fresh: [],
    expectCredentials(request) {
      expect(query(request).getAll('consumer_key')).toEqual([CK]);
      expect(query(request).getAll('consumer_secret')).toEqual([CS]);
    },
  },
  {
    name: 'OAuth-like signerAuth over HTTP',
    auth: oauth,
    tls: false,
    secrets: [OAUTH_KEY, OAUTH_SECRET],
    fresh: ['oauth_nonce', 'oauth_signature'],
    expectCredentials(request, origin) {
      const q = query(request);
      expect(q.getAll('oauth_consumer_key')).toEqual([OAUTH_KEY]);
      expect(q.getAll('oauth_nonce')).toHaveLength(1);
      expect(q.getAll('oauth_signature')).toEqual([
        oauthSignature(request.method, new URL(request.url, origin)),
      ]);
    },
  },
];

class TestClient extends BaseClient {
  constructor(baseURL: string, auth: AuthStrategy) {
    super(
      {
        baseURL,
        auth,
        fetch: baseURL.startsWith('https:') ? https.fetch : undefined,
        rateLimit: false,
        maxRetries: 0,
        logLevel: 'off',
      },
      { packageName: '@x/test', packageVersion: '0.0.0' },
    );
  }
}

const withCertificate = async () => ({ tls: await testCertificate() });
const http = useFaultServer();
const httpElsewhere = useFaultServer();
const tls = useFaultServer(withCertificate);
const tlsElsewhere = useFaultServer(withCertificate);
let https: ReturnType<typeof trustingFetch>;
beforeAll(async () => {
  https = trustingFetch((await testCertificate()).cert);
});
afterAll(() => https?.close());

/** A redirect whose Location repeats the request's query string, as WordPress canonical redirects do. */
const echoRedirect =
  (status: number, to: string): Reply =>
  (req, res) => {
    res.writeHead(status, { location: `${to}/elsewhere${new URL(req.url ?? '/', 'http://x').search}` });
    res.end();
  };

const list: RequestSpec = { method: 'GET', path: '/things', query: { page: 1 } };

async function refusal(client: TestClient, spec: RequestSpec = list): Promise<RedirectError> {
  const error = await client.request(spec).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RedirectError);
  return error as RedirectError;
}

/** No credential, and no signature the server was sent, in any form the error can be printed in. */
function expectNoSecrets(error: RedirectError, mode: Mode, sent: Recorded[]): void {
  const signatures = sent.flatMap((r) => query(r).getAll('oauth_signature'));
  const printed = [error.message, String(error.location), String(error.url), JSON.stringify(error)];
  printed.push(inspect(error, { depth: 8 }));
  for (const secret of [...mode.secrets, ...signatures])
    for (const text of printed) expect(text, secret).not.toContain(secret);
}

describe.each(modes)('$name', (mode) => {
  const server = () => (mode.tls ? tls : http);
  const elsewhere = () => (mode.tls ? tlsElsewhere : httpElsewhere);
  const client = () => new TestClient(`${server().url}/v1`, mode.auth);

  describe('same-origin redirects are followed with fresh credentials, once', () => {
    for (const status of [301, 302, 307, 308]) {
      for (const form of ['relative', 'absolute'] as const) {
        it(`${status}, ${form} Location`, async () => {
          const location = `${form === 'absolute' ? server().url : ''}/v2/moved?page=2`;
          server().replies.push({ status, headers: { location } });
          await expect(client().request(list)).resolves.toEqual({ ok: true });
          expect(server().requests).toHaveLength(2);
          const [first, second] = server().requests as [Recorded, Recorded];
          expect(second.method).toBe('GET');
          expect(new URL(second.url, server().url).pathname).toBe('/v2/moved');
          expect(query(second).getAll('page')).toEqual(['2']);
          mode.expectCredentials(first, server().url);
          mode.expectCredentials(second, server().url);
          for (const name of mode.fresh) expect(query(second).get(name)).not.toBe(query(first).get(name));
        });
      }
    }

    const methodCases = [
      ['POST', 307, 'POST'],
      ['POST', 308, 'POST'],
      ['PUT', 307, 'PUT'],
      ['PUT', 301, 'PUT'],
      ['POST', 303, 'GET'],
      ['PUT', 303, 'GET'],
      ['POST', 301, 'GET'],
      ['POST', 302, 'GET'],
    ] as const;
    for (const [method, status, after] of methodCases) {
      const keeps = after === method;
      it(`${method} answered ${status} is repeated as ${after} ${keeps ? 'with' : 'without'} its body`, async () => {
        server().replies.push({ status, headers: { location: '/v1/things/1' } });
        const body = { name: 'widget', count: 2 };
        await client().request({ method, path: '/things', body });
        const [first, second] = server().requests as [Recorded, Recorded];
        expect(second.method).toBe(after);
        expect(second.url.split('?')[0]).toBe('/v1/things/1');
        if (keeps) {
          expect(JSON.parse(second.body)).toEqual(body);
          expect(second.headers['content-type']).toBe('application/json');
        } else {
          expect(second.body).toBe('');
          expect(second.headers['content-type']).toBeUndefined();
          expect(second.headers['content-length'] ?? '0').toBe('0');
        }
        mode.expectCredentials(first, server().url);
        mode.expectCredentials(second, server().url);
      });
    }

    it('a Location that echoes the credentials back gets them once, other parameters kept', async () => {
      server().replies.push(echoRedirect(301, ''));
      await client().request(list);
      const [first, second] = server().requests as [Recorded, Recorded];
      expect(new URL(second.url, server().url).pathname).toBe('/elsewhere');
      expect(query(second).getAll('page')).toEqual(['1']);
      mode.expectCredentials(second, server().url);
      for (const name of mode.fresh) expect(query(second).get(name)).not.toBe(query(first).get(name));
    });

    it('5 hops are followed; a 6th is refused', async () => {
      for (let hop = 1; hop <= 5; hop++)
        server().replies.push({ status: 302, headers: { location: `/hop/${hop}` } });
      await expect(client().request(list)).resolves.toEqual({ ok: true });
      expect(server().requests).toHaveLength(6);
      server().requests.length = 0;
      for (let hop = 1; hop <= 8; hop++)
        server().replies.push({ status: 302, headers: { location: `/hop/${hop}` } });
      const error = await refusal(client());
      expect(error).toMatchObject({ status: 302, code: 'redirect_refused' });
      expect(error.message).toContain('more than 5 redirects');
      expect(server().requests).toHaveLength(6);
      for (const request of server().requests) mode.expectCredentials(request, server().url);
      expectNoSecrets(error, mode, server().requests);
    });
  });

  describe('redirects to another origin are refused and nothing is sent there', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      it(`${status} to another port`, async () => {
        server().replies.push(echoRedirect(status, elsewhere().url));
        const error = await refusal(client());
        expect(error).toMatchObject({ status, code: 'redirect_refused', method: 'GET' });
        expect(error.message).toContain("leaves the API's origin");
        expect(error.location?.startsWith(`${elsewhere().url}/elsewhere?page=1`)).toBe(true);
        if (mode.fresh.length > 0 || mode.tls) expect(error.location).toContain('=[REDACTED]');
        expect(server().requests).toHaveLength(1);
        expect(elsewhere().requests).toHaveLength(0);
        expectNoSecrets(error, mode, server().requests);
      });
    }

    it('the same port under another host name (localhost for 127.0.0.1)', async () => {
      const renamed = server().url.replace('127.0.0.1', 'localhost');
      server().replies.push(echoRedirect(307, renamed));
      const error = await refusal(client());
      expect(error).toMatchObject({ status: 307, code: 'redirect_refused' });
      expect(error.location?.startsWith(`${renamed}/elsewhere?`)).toBe(true);
      expect(server().requests).toHaveLength(1);
      expectNoSecrets(error, mode, server().requests);
    });

    it('an HTTPS API redirecting to plain HTTP on the same host is refused as a downgrade', async () => {
      tls.replies.push(echoRedirect(301, http.url));
      const error = await refusal(new TestClient(`${tls.url}/v1`, mode.auth));
      expect(error).toMatchObject({ status: 301, code: 'redirect_refused' });
      expect(error.message).toMatch(/downgrade/i);
      expect(error.message).not.toContain('use http://');
      expect(error.location?.startsWith(`${http.url}/elsewhere?`)).toBe(true);
      expect(tls.requests).toHaveLength(1);
      expect(http.requests).toHaveLength(0);
      expectNoSecrets(error, mode, tls.requests);
    });
  });
});

it('queryAuth: stale consumer_key/consumer_secret in a Location are replaced by the client credentials', async () => {
  tls.replies.push({
    status: 301,
    headers: { location: '/new?consumer_key=ck_stale&consumer_secret=cs_stale&page=3' },
  });
  const client = new TestClient(tls.url, queryAuth({ consumer_key: CK, consumer_secret: CS }));
  await expect(client.request(list)).resolves.toEqual({ ok: true });
  const second = tls.requests[1]!;
  expect(second.url.split('?')[0]).toBe('/new');
  expect(query(second).getAll('consumer_key')).toEqual([CK]);
  expect(query(second).getAll('consumer_secret')).toEqual([CS]);
  expect(query(second).getAll('page')).toEqual(['3']);
});
