/**
 * Which way a `RealtimeServer` request leaves, and that the Pusher-specific behaviour holds on both: in Node
 * with no `fetch` given it takes core's native path and never calls `globalThis.fetch`; given a `fetch`, every
 * request goes through that one. soketi's status-200 errors and the plain-HTTP advice are the same on both.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '@x/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  RealtimeServer,
  type RealtimeServerOptions,
} from '../../src/server.js';

let http: Server;
let port: number;
const seen: string[] = [];
/** What the server answers next; `{}` (a trigger's answer) by default. */
let answer: { status: number; body: string } | undefined;

beforeAll(async () => {
  http = createServer((req, res) => {
    seen.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
    req.resume();
    req.on('end', () => {
      const { status, body } = answer ?? { status: 200, body: '{}' };
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

const realFetch = globalThis.fetch;
let globalCalls = 0;
beforeAll(() => {
  // Replaced for the whole file: the native path must not reach it, the fetch path counts through it.
  globalThis.fetch = (input, init) => {
    globalCalls++;
    return realFetch(input, init);
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
});
afterEach(() => {
  seen.length = 0;
  globalCalls = 0;
  answer = undefined;
});

const make = (options: Partial<RealtimeServerOptions> = {}) =>
  new RealtimeServer({
    appId: 1,
    key: 'path-test-key',
    secret: 'path-test-secret-5e1d',
    host: '127.0.0.1',
    port,
    useTLS: false,
    maxRetries: 0,
    coalesce: false,
    ...options,
  });

/** Counts the calls of a user's own `fetch`. */
function countingFetch(): { fetch: FetchLike; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls++;
      return realFetch(input, init);
    },
    calls: () => calls,
  };
}

async function exercise(server: RealtimeServer): Promise<void> {
  await server.trigger('orders', 'created', { id: 1 });
  await server.triggerBatch([{ channel: 'orders', name: 'created', data: { id: 2 } }]);
  answer = { status: 200, body: '{"channels":{}}' };
  await server.channels.list();
}

it('no fetch given: every request takes the native path, globalThis.fetch is never called', async () => {
  await exercise(make());
  expect(seen).toEqual(['POST /apps/1/events', 'POST /apps/1/batch_events', 'GET /apps/1/channels']);
  expect(globalCalls).toBe(0);
});

it("a fetch given: every request goes through it (and the global one isn't used)", async () => {
  const user = countingFetch();
  await exercise(make({ fetch: user.fetch }));
  expect(seen).toHaveLength(3);
  expect(user.calls()).toBe(3);
  expect(globalCalls).toBe(0);
});

it('a fetch given that is the global one: it is called once per request', async () => {
  await exercise(make({ fetch: (input, init) => globalThis.fetch(input, init) }));
  expect(globalCalls).toBe(3);
});

describe.each([
  ['native path', {}],
  ['fetch given', { fetch: (input: string, init: RequestInit) => globalThis.fetch(input, init) }],
] as const)('%s', (_name, path) => {
  it("soketi's status-200 error is a typed error saying what the server sent", async () => {
    answer = { status: 200, body: '{"error":"The secret authentication failed","code":401}' };
    const error = await make(path)
      .trigger('orders', 'created', { id: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect((error as Error).message).toContain('The secret authentication failed');
    expect((error as Error).message).toContain('(the server answered HTTP 200 with this error in its body)');
  });

  it('useTLS left on against a plain-HTTP host: a ConnectionError naming useTLS: false', async () => {
    const error = await make({ ...path, useTLS: undefined })
      .channels.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('this host speaks plain HTTP: set useTLS: false');
    expect((error as Error).message).toContain(`https://127.0.0.1:${port}/apps/1/channels`);
  });
});
