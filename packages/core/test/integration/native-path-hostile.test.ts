import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  BaseClient,
  type ClientOptions,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';
import { listenTracked, type TrackedServer } from '../helpers/tracked-server.js';

/**
 * What a demanding user or a hostile server does to the transport after the happy path: clients made per
 * call, a `stream` body that stalls once handed over, a consumer that never reads it. Runs on the native
 * path (the `native` project) and on ky over fetch (the `fetch` project): the same guarantees on both.
 */
type Handler = (res: ServerResponse, path: string) => void;
let server: Server;
let baseURL: string;
let handler: Handler = (res) => res.end('{}');
let tracked: TrackedServer;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(res, req.url ?? ''));
  });
  server.keepAliveTimeout = 10_000;
  tracked = await listenTracked(server);
  baseURL = tracked.baseURL;
});
afterAll(() => tracked.close());

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const client = (extra: Partial<ClientOptions> = {}) =>
  new BaseClient(
    { baseURL, rateLimit: false, maxRetries: 0, logger: silent, ...extra },
    { packageName: '@x/test', packageVersion: '1.0.0' },
  );
const streamOf = (c: BaseClient, path: string) =>
  c.request<ReadableStream<Uint8Array>>({ method: 'GET', path, responseType: 'stream' });
/** Resolves when the socket the response went out on closes (a socket held forever fails by the test's timeout). */
const closed = (res: ServerResponse | undefined) =>
  new Promise<void>((resolve) => {
    const socket = res?.socket;
    if (!socket || socket.destroyed) return resolve();
    socket.once('close', () => resolve());
  });
let last: ServerResponse | undefined;

describe('clients made per call', () => {
  it('share warm connections instead of each opening (and keeping) its own', async () => {
    handler = (res) => res.end('{"n":1}');
    const before = tracked.connections;
    for (let i = 0; i < 20; i++)
      expect(await client().request({ method: 'GET', path: '/x' })).toEqual({ n: 1 });
    // A pool per client opened 20 sockets here, and held them all open for keep-alive.
    expect(tracked.connections - before).toBeLessThanOrEqual(2);
  });
});

describe('a stream body once handed over', () => {
  it('a server that stalls mid-body ends the read with the idle TimeoutError and frees the socket', async () => {
    handler = (res) => {
      last = res;
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('abc');
    };
    const stream = await streamOf(client({ idleTimeout: 200, timeout: 5000 }), '/stall');
    const reader = stream.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('abc');
    const error = await reader.read().then(
      () => expect.unreachable('the stalled body ended'),
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeout).toBe('idle');
    await closed(last);
  });

  it('a consumer that never reads has its socket freed by the idle timeout', async () => {
    // More than any stream queue holds, so the server is left waiting on a full socket.
    const chunk = 'x'.repeat(64 * 1024);
    handler = (res) => {
      last = res;
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const pump = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', pump);
      pump();
    };
    await streamOf(client({ idleTimeout: 200, timeout: 5000 }), '/unread');
    await closed(last);
  });

  it('a stream read to its end is unaffected by the idle timeout that follows', async () => {
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end('all of it');
    };
    const stream = await streamOf(client({ idleTimeout: 50 }), '/whole');
    const text = await new Response(stream).text();
    expect(text).toBe('all of it');
  });
});

describe('the Response a call gives back', () => {
  it('reads as used once the client read its body, as fetch does, instead of giving an empty text', async () => {
    handler = (res) => res.end('{"a":1}');
    const { data, response } = await client().request({ method: 'GET', path: '/used?q=1' }).withResponse();
    expect(data).toEqual({ a: 1 });
    expect(response.bodyUsed).toBe(true);
    expect(response.url).toBe(`${baseURL}/used?q=1`);
    await expect(response.text()).rejects.toBeInstanceOf(TypeError);
    await expect(response.json()).rejects.toBeInstanceOf(TypeError);
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it('a HEAD or 204 response has no body to use: its text is empty, as on fetch', async () => {
    handler = (res) => {
      res.writeHead(204);
      res.end();
    };
    const { response } = await client().request({ method: 'DELETE', path: '/gone' }).withResponse();
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });
});

describe('many slow calls at once', () => {
  it('64 stalled calls to one origin do not hold back a 65th: it is sent and answered', async () => {
    const held: ServerResponse[] = [];
    handler = (res, path) => {
      if (path === '/slow') held.push(res);
      else res.end('{"fast":true}');
    };
    const c = client({ timeout: 60_000 });
    const slow = Array.from({ length: 64 }, () =>
      c.request({ method: 'GET', path: '/slow' }).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    while (held.length < 64) await new Promise((resolve) => setTimeout(resolve, 10));
    // Bounded at 64 sockets per origin, this one waited in the pool's queue until its own timeout.
    expect(await c.request({ method: 'GET', path: '/fast' })).toEqual({ fast: true });
    for (const res of held) res.end('{}');
    expect(new Set(await Promise.all(slow))).toEqual(new Set(['answered']));
  });
});

describe('a script that makes calls', () => {
  it('exits once they are done: no timer, listener or pooled socket keeps Node alive', async () => {
    handler = (res, path) => {
      if (path === '/stream') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end('streamed');
      } else res.end('{"a":1}');
    };
    const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    expect(existsSync(dist), 'build @x/core first (turbo runs build before test)').toBe(true);
    // The server keeps idle connections for 10 s; the child must not wait for them.
    const script = `
      const { BaseClient } = await import(${JSON.stringify(dist)});
      const c = new BaseClient({ baseURL: ${JSON.stringify(baseURL)}, rateLimit: false }, { packageName: 'p', packageVersion: '1' });
      const data = await c.request({ method: 'GET', path: '/a' });
      const stream = await c.request({ method: 'GET', path: '/stream', responseType: 'stream' });
      console.log(JSON.stringify(data), await new Response(stream).text());`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(out.trim()).toBe('{"a":1} streamed');
    expect(code).toBe(0);
  });
});

/**
 * Starts 30 calls of `c` on one AbortController, aborts it once `ready()` holds (and a few turns after, for
 * calls still on their way into a queue), and returns each call's outcome and the listener-leak warnings
 * Node printed meanwhile.
 */
async function abortThirty(c: BaseClient, path: string, ready: () => boolean) {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    const controller = new AbortController();
    const calls = Array.from({ length: 30 }, () =>
      c.request({ method: 'GET', path, options: { signal: controller.signal } }).then(
        () => 'answered',
        (error: unknown) => (error instanceof AbortError ? 'aborted' : String(error)),
      ),
    );
    while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const outcomes = await Promise.all(calls);
    // Node reports a listener leak on the next tick at the earliest.
    await new Promise((resolve) => setImmediate(resolve));
    return { outcomes, listenerWarnings: warnings.filter((message) => /listener/i.test(message)) };
  } finally {
    process.off('warning', onWarning);
  }
}

describe('one signal for a batch of calls', () => {
  it('30 calls in flight on one signal: no listener-leak warning, and aborting it ends each of them', async () => {
    const held: ServerResponse[] = [];
    handler = (res) => held.push(res);
    const { outcomes, listenerWarnings } = await abortThirty(
      client({ timeout: 60_000 }),
      '/batch',
      () => held.length >= 30,
    );
    expect(outcomes).toEqual(Array.from({ length: 30 }, () => 'aborted'));
    expect(listenerWarnings).toEqual([]);
  });

  it('30 calls queued behind the rate limiter with a totalTimeout, on one signal: no listener-leak warning, each aborted', async () => {
    const held: ServerResponse[] = [];
    handler = (res) => held.push(res);
    // One request a minute and no wait too long: the first is held by the server,
    // the other 29 wait in the limiter's queue.
    const c = client({
      rateLimit: { limit: 1, interval: 60_000, maxWaitMs: 100_000_000 },
      totalTimeout: 100_000_000,
    });
    const { outcomes, listenerWarnings } = await abortThirty(c, '/queued', () => held.length >= 1);
    expect(outcomes).toEqual(Array.from({ length: 30 }, () => 'aborted'));
    expect(held).toHaveLength(1);
    expect(listenerWarnings).toEqual([]);
  });
});

describe('a header undici sends itself', () => {
  it.each([
    ['keep-alive', 'timeout=5'],
    ['upgrade', 'h2c'],
    ['transfer-encoding', 'chunked'],
    ['expect', '100-continue'],
  ])("%s: refused as the caller's input, by name, and not retried", async (name, value) => {
    let arrived = 0;
    handler = (res) => {
      arrived++;
      res.end('{}');
    };
    const c = client({ headers: { [name]: value }, maxRetries: 3 });
    const error = await c.request({ method: 'GET', path: '/h' }).then(
      () => expect.unreachable('the call succeeded'),
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe(`headers.${name}`);
    expect(arrived).toBe(0);
  });
});

describe("a caller's content-length", () => {
  it.each(['2', '5000'])("%s, wrong for the body, is replaced by the body's own length", async (declared) => {
    let received: { length: string | undefined; body: string } | undefined;
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        received = { length: req.headers['content-length'], body };
        res.end('{}');
      });
    });
    try {
      const c = client({ headers: { 'content-length': declared }, timeout: 10_000 });
      expect(await c.request({ method: 'POST', path: '/len', body: { a: 1 } })).toEqual({});
      expect(received).toEqual({ length: String('{"a":1}'.length), body: '{"a":1}' });
    } finally {
      server.removeAllListeners('request');
      server.on('request', (req, res) => {
        req.resume();
        req.on('end', () => handler(res, req.url ?? ''));
      });
    }
  });
});
