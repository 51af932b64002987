/**
 * Responses whose body never completes, over a real socket: the server writes a status and part of a JSON
 * body, then either destroys the socket or stalls forever. Every call must reject with a ConnectionError
 * (a TimeoutError when the body stalls) that names the method and path and carries no secret or signature.
 *
 * 421 is here on purpose: Node's fetch (undici) repeats a 421 on a new connection, and when the first
 * body was unfinished the repeated response's body is tied neither to the abort signal nor to its socket
 * (Node 20, undici 6), so only a deadline that covers the body read itself settles the call.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, RealtimeServer, TimeoutError } from '../../src/server.js';

type Ending = 'destroy' | 'stall' | 'end';

const secret = 'broken-body-secret-0123456789';
let answer: { status: number; ending: Ending } = { status: 200, ending: 'destroy' };
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, ending } = answer;
      res.writeHead(status, { 'content-type': 'application/json' });
      const chunks = ['{"occ', 'upied":', 'true,"subscr'];
      const next = (): void => {
        const chunk = chunks.shift();
        if (chunk !== undefined) {
          res.write(chunk);
          setImmediate(next);
        } else if (ending === 'end') res.end('iption_count":1}');
        else if (ending === 'destroy') res.destroy();
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const pusher = () =>
  new RealtimeServer({
    appId: '1',
    key: 'broken-body-key',
    secret,
    host: '127.0.0.1',
    port,
    useTLS: false,
    maxRetries: 0,
    timeout: 200,
    rateLimit: false,
    coalesce: false,
    logLevel: 'off',
  });

const calls = [
  { what: 'GET /apps/1/channels/orders', call: (p: RealtimeServer) => p.channels.get('orders') },
  { what: 'POST /apps/1/events', call: (p: RealtimeServer) => p.trigger('orders', 'created', { id: 1 }) },
];

async function rejection(promise: Promise<unknown>): Promise<ConnectionError> {
  const error = await promise.then(
    () => expect.unreachable('the call resolved'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  const connectionError = error as ConnectionError;
  const shown = `${connectionError.message}\n${JSON.stringify(connectionError)}`;
  expect(shown).not.toContain(secret);
  expect(shown).not.toMatch(/[0-9a-f]{64}/);
  return connectionError;
}

const endings: Ending[] = ['destroy', 'stall'];

function namesTheCall(error: ConnectionError, what: string): void {
  const [method, path] = what.split(' ') as [string, string];
  expect(error.message).toContain(`${method} http://127.0.0.1:${port}${path}?`);
  expect(error.message).toContain('auth_signature=[REDACTED]');
}

describe.each([200, 400, 500])('status %i, then part of the body', (status) => {
  it.each(calls)('and the socket destroyed: $what rejects with a ConnectionError', async ({ what, call }) => {
    answer = { status, ending: 'destroy' };
    const error = await rejection(call(pusher()));
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('closed the connection before answering in full');
    namesTheCall(error, what);
  });

  it.each(calls)('and a stall: $what rejects with a TimeoutError', async ({ what, call }) => {
    answer = { status, ending: 'stall' };
    const error = await rejection(call(pusher()));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('Request timed out after 200 ms');
    namesTheCall(error, what);
  });
});

// Which ConnectionError depends on the fetch: Node 20's repeats a GET and then only the deadline ends it
// (a TimeoutError, destroyed socket or not), and fails the repeat of a POST at once (its body was spent).
describe.each(endings)('status 421, then part of the body, then %s', (ending) => {
  it.each(calls)('$what rejects with a ConnectionError', async ({ what, call }) => {
    answer = { status: 421, ending };
    namesTheCall(await rejection(call(pusher())), what);
  });
});

it('a whole body from the same server still parses', async () => {
  answer = { status: 200, ending: 'end' };
  await expect(pusher().channels.get('orders')).resolves.toEqual({ occupied: true, subscription_count: 1 });
});
