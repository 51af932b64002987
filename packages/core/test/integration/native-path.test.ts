import { createServer, Agent as HttpAgent, type Server, type ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNativeSender } from '#transfer';
import {
  AbortError,
  APIError,
  BaseClient,
  type ClientOptions,
  ConnectionError,
  type FetchLike,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';
import { Transport } from '../../src/transport.js';
import { listenTracked, type TrackedServer } from '../helpers/tracked-server.js';

/**
 * The transport's guarantees on both request paths, against a real node:http server: Node's native path
 * (undici's dispatcher; the default in Node) and ky over a `fetch` the client was given. The vitest
 * `fetch` project runs this file once more with no native sender at all.
 */
type Handler = (res: ServerResponse, path: string, method: string) => void;
let server: Server;
let baseURL: string;
let handler: Handler = (res) => res.end('{}');
let tracked: TrackedServer;
const seen: Array<Record<string, string | string[] | undefined>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => handler(res, req.url ?? '', req.method ?? ''));
  });
  server.keepAliveTimeout = 10_000;
  tracked = await listenTracked(server);
  baseURL = tracked.baseURL;
});
afterEach(() => {
  seen.length = 0;
});
afterAll(() => tracked.close());

const json = (res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

/** The error a call failed with (the test fails if it succeeded). */
const failure = (call: PromiseLike<unknown>): Promise<any> =>
  Promise.resolve(call).then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );
const silent = { debug() {}, info() {}, warn() {}, error() {} };
let fetchCalls = 0;
const countingFetch: FetchLike = (input, init) => {
  fetchCalls++;
  return globalThis.fetch(input, init);
};
/** Whether this vitest project has a native sender at all (the `fetch` project has none). */
const nativeAvailable = createNativeSender !== undefined;

const paths = [
  { name: 'native path (default in Node)', options: {} as Partial<ClientOptions>, native: nativeAvailable },
  { name: 'ky over a given fetch', options: { fetch: countingFetch }, native: false },
];

describe.each(paths)('$name', ({ options, native }) => {
  const client = (extra: Partial<ClientOptions> = {}) =>
    new BaseClient(
      { baseURL, rateLimit: false, maxRetries: 0, logger: silent, ...options, ...extra },
      { packageName: '@x/test', packageVersion: '1.0.0' },
    );
  const get = (c: BaseClient, path = '/x', more: object = {}) =>
    c.request<unknown>({ method: 'GET', path, ...more });

  it('takes the native path only when no fetch is given: fetch is called exactly when expected', async () => {
    handler = (res) => json(res, '{"ok":true}');
    const global = globalThis.fetch;
    let globalCalls = 0;
    globalThis.fetch = (...args: Parameters<typeof fetch>) => {
      globalCalls++;
      return global(...args);
    };
    fetchCalls = 0;
    try {
      const c = client();
      for (let i = 0; i < 3; i++) expect(await get(c)).toEqual({ ok: true });
    } finally {
      globalThis.fetch = global;
    }
    const viaGiven = options.fetch !== undefined;
    expect(fetchCalls).toBe(viaGiven ? 3 : 0);
    expect(globalCalls).toBe(native ? 0 : 3);
    expect(new Transport(options.fetch).path).toBe(native ? 'native' : 'fetch');
    // What went on the wire says which stack sent it: fetch adds sec-fetch-mode, the native path does not.
    for (const headers of seen) expect(headers['sec-fetch-mode']).toBe(native ? undefined : 'cors');
  });

  it("sends the URL's host whatever host header the caller set, as fetch does", async () => {
    handler = (res) => json(res, '{}');
    await get(client({ headers: { host: 'elsewhere.example' } }));
    expect(seen.at(-1)?.host).toBe(new URL(baseURL).host);
  });

  it('reuses its connections for sequential requests (keep-alive)', async () => {
    handler = (res) => json(res, '{"n":1}');
    const c = client();
    const before = tracked.connections;
    for (let i = 0; i < 20; i++) await get(c);
    // undici's pool dispatches the second request before the first connection is marked free, so it opens
    // a second one, then alternates: at most two sockets for twenty requests, never one each.
    expect(tracked.connections - before).toBeLessThanOrEqual(2);
  });

  it('returns a redirect as is, without following it', async () => {
    let hits = 0;
    handler = (res, path) => {
      if (path === '/target') hits++;
      res.writeHead(302, { location: '/target' });
      res.end();
    };
    const transport = new Transport(options.fetch);
    const result = await transport.send({
      method: 'GET',
      url: new URL(`${baseURL}/from`),
      headers: new Headers(),
      body: undefined,
      timeoutMs: 5000,
      idleTimeoutMs: 5000,
      signal: undefined,
      onProgress: undefined,
      responseType: 'text',
      maxErrorBodyBytes: 1000,
      maxResponseBytes: 1000,
      agent: undefined,
    });
    expect(result.response.status).toBe(302);
    expect(result.response.url).toBe(`${baseURL}/from`);
    expect(result.response.headers.get('location')).toBe('/target');
    expect(hits).toBe(0);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decodes a %s body', async (encoding, compress) => {
    const body = JSON.stringify({ words: Array.from({ length: 200 }, (_, i) => `w${i}`) });
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(compress(Buffer.from(body)));
    };
    expect(await get(client())).toEqual(JSON.parse(body));
  });

  it('HEAD, 204 and 304 have no body', async () => {
    handler = (res, path) => {
      if (path === '/204') res.writeHead(204).end();
      else if (path === '/304') res.writeHead(304).end();
      else json(res, '{"would":"be the GET body"}');
    };
    const c = client();
    expect((await c.request({ method: 'HEAD', path: '/head' }).withResponse()).response.status).toBe(200);
    expect((await c.request({ method: 'GET', path: '/204' }).withResponse()).status).toBe(204);
  });

  it('hands a stream response over unread, and it reads to the end', async () => {
    const big = 'x'.repeat(300_000);
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(big);
    };
    const stream = (await get(client({ maxResponseBytes: 10 }), '/x', {
      responseType: 'stream',
    })) as ReadableStream<Uint8Array>;
    expect(await new Response(stream).text()).toBe(big);
  });

  describe('maxResponseBytes', () => {
    const body = JSON.stringify({ pad: 'y'.repeat(990) });
    it('a content-length above the limit fails before reading, naming the limit and the URL', async () => {
      handler = (res) => json(res, body);
      const error = await failure(get(client({ maxResponseBytes: 100 }), '/big?api_key=secret123'));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.limit).toBe(100);
      expect(error.message).toMatch(/maxResponseBytes \(100\)/);
      expect(error.message).toContain('/big');
      expect(error.message).not.toContain('secret123');
    });
    it('a chunked body that grows past the limit fails', async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(body.slice(0, 500));
        setTimeout(() => res.end(body.slice(500)), 10);
      };
      await expect(get(client({ maxResponseBytes: 600 }))).rejects.toBeInstanceOf(ResponseTooLargeError);
    });
    it('a body exactly at the limit is read; the per-request option overrides the client', async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      };
      const exact = Buffer.byteLength(body);
      expect(await get(client({ maxResponseBytes: exact }))).toEqual(JSON.parse(body));
      await expect(get(client({ maxResponseBytes: exact - 1 }))).rejects.toBeInstanceOf(
        ResponseTooLargeError,
      );
      const raised = await get(client({ maxResponseBytes: 10 }), '/x', {
        options: { maxResponseBytes: exact },
      });
      expect(raised).toEqual(JSON.parse(body));
    });
    it('a wrong value is refused by name, at construction or before the request is sent', async () => {
      expect(() => client({ maxResponseBytes: '5' as never })).toThrow(
        /maxResponseBytes: expected a number >= 0/,
      );
      const error = await failure(get(client(), '/x', { options: { maxResponseBytes: -1 } }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues.map((issue: { path: string }) => issue.path)).toEqual(['maxResponseBytes']);
      expect(seen).toHaveLength(0);
    });
    it('does not apply to error bodies, which are cut at maxErrorBodyBytes', async () => {
      handler = (res) => json(res, JSON.stringify({ message: 'z'.repeat(5000) }), 400);
      const error = await failure(get(client({ maxResponseBytes: 10, maxErrorBodyBytes: 2000 })));
      expect(error).toBeInstanceOf(APIError);
      expect(error.status).toBe(400);
    });
  });

  describe('failures mid-body', () => {
    it('a body that stalls after the headers hits the per-attempt timeout', async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"a":');
      };
      const error = await failure(get(client({ timeout: 200 })));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.timeout).toBe('attempt');
    });
    it('the caller aborting mid-body gives AbortError', async () => {
      const controller = new AbortController();
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"a":', () => setTimeout(() => controller.abort(), 20));
      };
      const error = await failure(get(client(), '/x', { options: { signal: controller.signal } }));
      expect(error).toBeInstanceOf(AbortError);
    });
    it('a server destroying the socket mid-body gives ConnectionError', async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"a":', () => res.socket?.destroy());
      };
      const error = await failure(get(client()));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(TimeoutError);
    });
    it('a 421 whose body is cut settles as ConnectionError (never hangs)', async () => {
      handler = (res) => {
        res.writeHead(421, { 'content-type': 'text/plain', 'content-length': '500' });
        res.write('misdirected', () => res.socket?.destroy());
      };
      const error = await failure(get(client({ timeout: 2000 })));
      expect(error).toBeInstanceOf(ConnectionError);
    });
    it('gzip that is not gzip fails as ConnectionError', async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end('this is not gzip at all');
      };
      await expect(get(client())).rejects.toBeInstanceOf(ConnectionError);
    });
  });
});

describe('the agent option', () => {
  it('a client given an http.Agent sends its ordinary requests over it', async () => {
    handler = (res) => json(res, '{"via":"agent"}');
    let created = 0;
    class CountingAgent extends HttpAgent {
      override createConnection(...args: Parameters<HttpAgent['createConnection']>) {
        created++;
        return super.createConnection(...args);
      }
    }
    const agent = new CountingAgent({ keepAlive: true });
    const c = new BaseClient(
      { baseURL, rateLimit: false, maxRetries: 0, agent },
      { packageName: '@x/test', packageVersion: '1.0.0' },
    );
    for (let i = 0; i < 3; i++)
      expect(await c.request({ method: 'GET', path: '/a' })).toEqual({ via: 'agent' });
    const posted = await c.request({ method: 'POST', path: '/a', body: { a: 1 } });
    expect(posted).toEqual({ via: 'agent' });
    // Kept alive by the agent: one socket for all four (in the fetch project the agent is not used).
    expect(created).toBe(nativeAvailable ? 1 : 0);
    agent.destroy();
  });

  it('a client with an agent keeps the same timeouts, abort and limits', async () => {
    const agent = new HttpAgent({ keepAlive: true });
    const c = new BaseClient(
      { baseURL, rateLimit: false, maxRetries: 0, agent, timeout: 200, maxResponseBytes: 50, logger: silent },
      { packageName: '@x/test', packageVersion: '1.0.0' },
    );
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '30' });
      res.write('{"a":');
    };
    const stalled = await failure(c.request({ method: 'GET', path: '/stall' }));
    expect(stalled).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    controller.abort();
    const aborted = await failure(
      c.request({ method: 'GET', path: '/x', options: { signal: controller.signal } }),
    );
    expect(aborted).toBeInstanceOf(AbortError);
    handler = (res) => json(res, JSON.stringify({ pad: 'p'.repeat(100) }));
    expect(await failure(c.request({ method: 'GET', path: '/big' }))).toBeInstanceOf(ResponseTooLargeError);
    agent.destroy();
  });
});
