/**
 * Leaving a channel whose `pusher:subscribe` is sent but not yet answered (a component unmounted while its
 * subscription was on the way): the server subscribes the socket when the frame arrives, so the client
 * must tell it to unsubscribe, or the socket keeps receiving that channel's events for as long as it lives.
 * A real `ws` server that holds its subscription answers until told, so the window is not left to timing.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { RealtimeClient, type SocketLike } from '../../src/index.js';
import { waitFor } from '../helpers/sandbox.js';

let wss: WebSocketServer;
const frames: { event: string; channel?: string }[] = [];
const answer: (() => void)[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    ws.send(
      JSON.stringify({
        event: 'pusher:connection_established',
        data: JSON.stringify({ socket_id: '1.1', activity_timeout: 120 }),
      }),
    );
    ws.on('message', (raw) => {
      const { event, data } = JSON.parse(String(raw));
      const channel = data?.channel as string | undefined;
      frames.push({ event, channel });
      if (event === 'pusher:subscribe')
        answer.push(() =>
          ws.send(JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data: '{}' })),
        );
    });
  });
});
afterAll(() => new Promise<void>((resolve) => wss.close(() => resolve())));

it('unsubscribing while the subscribe is unanswered sends pusher:unsubscribe', async () => {
  const client = new RealtimeClient('key', {
    wsHost: '127.0.0.1',
    wsPort: (wss.address() as AddressInfo).port,
    forceTLS: false,
    webSocketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
  });
  try {
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    client.subscribe('room');
    await waitFor(() => frames.some((f) => f.event === 'pusher:subscribe' && f.channel === 'room'));
    client.unsubscribe('room');
    for (const send of answer.splice(0)) send();
    // A later subscribe orders the check after anything the unsubscribe sent.
    client.subscribe('marker');
    await waitFor(() => frames.some((f) => f.channel === 'marker'));
    expect(frames.filter((f) => f.channel === 'room').map((f) => f.event)).toEqual([
      'pusher:subscribe',
      'pusher:unsubscribe',
    ]);
  } finally {
    client.disconnect();
  }
});
