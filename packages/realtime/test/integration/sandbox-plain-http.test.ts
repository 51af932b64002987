/**
 * Both halves left on TLS (the default) against the sandbox, which speaks plain HTTP: each says so and
 * names the option. The client keeps its reconnect schedule and reports the cause once; the server SDK
 * fails with a ConnectionError instead of OpenSSL's "wrong version number".
 */

import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type ConnectionState,
  RealtimeClient,
  type RealtimeClientOptions,
  RealtimeError,
  type SocketLike,
} from '../../src/index.js';
import { ConnectionError } from '../../src/server.js';
import { waitFor, wsTarget } from '../helpers/sandbox.js';
import { serverSandbox } from '../helpers/sandbox-hooks.js';

const { box } = serverSandbox();
const clients: RealtimeClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

/** A client on wss:// to the sandbox's (plain) port, recording its states and `error` events. */
function tlsClient(options: RealtimeClientOptions = {}) {
  const { wsHost, wsPort } = wsTarget(box.rt);
  const client = new RealtimeClient(box.rt.key, {
    wsHost,
    wssPort: wsPort,
    reconnect: { baseDelayMs: 20, maxDelayMs: 50 },
    ...options,
  });
  clients.push(client);
  const states: ConnectionState[] = [];
  const errors: unknown[] = [];
  client.connection.bind('state_change', ({ current }) => states.push(current));
  client.connection.bind('error', (error) => errors.push(error));
  const attempts = () => states.filter((s) => s === 'connecting').length;
  return { client, states, errors, attempts };
}

/** `ws`, but its error events carry no detail, as a browser's or Node 22's own WebSocket give none. */
function mutedSocket(url: string): SocketLike {
  const ws = new WebSocket(url);
  const socket: SocketLike = {
    get readyState() {
      return ws.readyState;
    },
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
  ws.onopen = (event) => socket.onopen?.(event);
  ws.onmessage = (event) => socket.onmessage?.({ data: event.data });
  ws.onclose = (event) => socket.onclose?.({ code: event.code, reason: event.reason });
  ws.onerror = () => socket.onerror?.({ type: 'error' });
  return socket;
}

it.each([
  ['ws, whose error event carries the TLS code', {}],
  ['a socket that says nothing (the client probes once)', { webSocketFactory: mutedSocket }],
] as const)('client, %s: one typed error naming forceTLS, and it keeps retrying', async (_name, extra) => {
  const { client, states, errors, attempts } = tlsClient(extra);
  client.connect();
  await waitFor(() => errors.length > 0, 10_000);
  const error = errors[0] as RealtimeError;
  expect(error).toBeInstanceOf(RealtimeError);
  expect(error.message).toMatch(/^this host speaks plain HTTP: set forceTLS: false \(127\.0\.0\.1:\d+ /);
  // Transient, not a refusal: the schedule goes on, and the same cause is not reported again.
  const seen = attempts();
  await waitFor(() => attempts() >= seen + 3, 10_000);
  expect(errors).toHaveLength(1);
  expect(states).not.toContain('failed');
  expect(states).toContain('unavailable');
  expect(client.connection.state).not.toBe('connected');
});

it('client: a new connect() reports it again; a plain client connects and reports nothing', async () => {
  const { client, errors } = tlsClient();
  client.connect();
  await waitFor(() => errors.length === 1, 10_000);
  client.disconnect();
  client.connect();
  await waitFor(() => errors.length === 2, 10_000);

  const plain = tlsClient({ forceTLS: false, wsPort: wsTarget(box.rt).wsPort });
  plain.client.connect();
  await waitFor(() => plain.client.connection.state === 'connected');
  expect(plain.errors).toEqual([]);
});

it('server SDK: a ConnectionError that names useTLS, not ERR_SSL_WRONG_VERSION_NUMBER alone', async () => {
  const pusher = box.server({ useTLS: undefined, maxRetries: 0 });
  const error = await pusher.channels.list().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as Error).message).toContain('this host speaks plain HTTP: set useTLS: false');
  expect((error as Error).message).toMatch(/https:\/\/127\.0\.0\.1:\d+\/apps\//);
  // The same server over plain HTTP answers.
  await expect(box.server().channels.list()).resolves.toHaveProperty('channels');
});
