/**
 * The shared server's last guards, with test-only emulators that fail on purpose: a handler that throws
 * answers that one request in its service's error shape, a socket listener that throws closes that one
 * socket with 1011, and a request that cannot become a web `Request` gets a JSON 400. After each, the
 * server answers the next request (the process and the other emulators go on).
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Mountable } from '../../src/kit/emulator.js';
import { type RunningServer, startServer } from '../../src/server/server.js';

let server: RunningServer;
const healthy: Mountable = {
  name: 'healthy',
  prefixes: ['/ok'],
  fetch: () => Response.json({ ok: true }),
};
const throwing: Mountable = {
  name: 'throwing',
  prefixes: ['/boom'],
  fetch: () => {
    throw new RangeError('Maximum call stack size exceeded');
  },
  internalError: () => Response.json({ error: 'Internal server error' }, { status: 500 }),
};
const rejecting: Mountable = {
  name: 'rejecting',
  prefixes: ['/reject'],
  fetch: async () => Promise.reject(new TypeError('cannot read properties of null')),
};
const socketBomb: Mountable = {
  name: 'socket-bomb',
  prefixes: [],
  sockets: [
    {
      path: '/bomb',
      handle: (ws) =>
        ws.on('message', (data) => {
          if (String(data) === 'boom')
            JSON.stringify(JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`));
          ws.send(`echo:${String(data)}`);
        }),
    },
    {
      path: '/bomb-on-open',
      handle: () => {
        throw new Error('failed while opening');
      },
    },
  ],
  fetch: () => new Response(null, { status: 404 }),
};

beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    https: false,
    emulators: [healthy, throwing, rejecting, socketBomb],
  });
});
afterAll(() => server.close());

async function stillUp(): Promise<void> {
  const res = await fetch(`${server.url}/ok`);
  expect(await res.json()).toEqual({ ok: true });
}

it('a handler that throws answers that request with its emulator’s 500 shape', async () => {
  const res = await fetch(`${server.url}/boom/x`);
  expect(res.status).toBe(500);
  expect(await res.json()).toEqual({ error: 'Internal server error' });
  await stillUp();
});

it('a handler that rejects, on an emulator with no shape of its own, answers a generic JSON 500', async () => {
  const res = await fetch(`${server.url}/reject`);
  expect(res.status).toBe(500);
  expect(await res.json()).toMatchObject({ error: 'internal error' });
  await stillUp();
});

function closeOf(path: string, send?: string): Promise<{ code: number; messages: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${path}`);
    const messages: string[] = [];
    ws.on('open', () => {
      if (send !== undefined) ws.send(send);
    });
    ws.on('message', (data) => messages.push(String(data)));
    ws.on('close', (code) => resolve({ code, messages }));
    ws.on('error', reject);
  });
}

it('a socket listener that throws closes only that socket, with 1011', async () => {
  const bystander = new WebSocket(`${server.url.replace(/^http/, 'ws')}/bomb`);
  await new Promise((resolve) => bystander.once('open', resolve));
  expect(await closeOf('/bomb', 'boom')).toEqual({ code: 1011, messages: [] });
  const reply = new Promise((resolve) => bystander.once('message', (data) => resolve(String(data))));
  bystander.send('still there?');
  expect(await reply).toBe('echo:still there?');
  bystander.close();
  await stillUp();
});

it('a socket handler that throws while opening closes that socket with 1011', async () => {
  expect((await closeOf('/bomb-on-open')).code).toBe(1011);
  await stillUp();
});

/** One raw request; resolves with the whole answer once the server closes the connection. */
function raw(request: string): Promise<string> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request);
  });
}

it.each([
  ['a backslash in the path', 'GET /ok\\..\\x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
  ['a Host header that is not a host', 'GET /ok HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
])('a request whose URL cannot be parsed (%s) gets a JSON 400, not an empty one', async (_, request) => {
  const answer = await raw(request);
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  expect(JSON.parse(body)).toMatchObject({ error: 'bad request' });
  expect(body).not.toContain('a b');
  await stillUp();
});
