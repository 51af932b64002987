/**
 * A subscription whose own `subscription_succeeded` closes the connection (a reader that stopped draining):
 * what the subscribe would do next for that subscriber (the cache channel's `pusher:cache_miss` and its
 * `cache_miss` webhook) must not happen for a connection that is gone. Real sockets and a real webhook receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, TestSocket, waitFor } from '../helpers/realtime.js';

const APP = { appId: '831', key: 'slow-sub-key', secret: 'slow-sub-secret' };
const BIG = 8 * 1024 * 1024;

let receiver: Server;
let box: Sandbox<false>;
const events: { name: string; channel: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      events.push(...JSON.parse(Buffer.concat(chunks).toString()).events);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  box = await startSandbox({
    store: false,
    realtime: {
      apps: [{ ...APP, webhooks: { url } }],
      maxBufferedBytes: 64 * 1024,
      maxPayloadBytes: BIG,
      httpRateLimit: false,
      webhooks: { leaveDelayMs: 0 },
    },
  });
});

afterAll(async () => {
  await box?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('a cache channel subscription closed by its own answer sends no cache_miss webhook', async () => {
  const rt = box.realtime!;
  const creds = { url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret };
  const slow = await TestSocket.connect(rt.wsUrl, APP.key);
  await slow.subscribe('feed');
  (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  // One event larger than the kernel's buffers: the next frame the server sends this socket closes it.
  const sent = await api(creds, 'POST', `/apps/${rt.appId}/events`, {
    body: { name: 'big', channel: 'feed', data: 'x'.repeat(BIG - 16) },
  });
  expect(sent.status).toBe(200);
  slow.send({ event: 'pusher:subscribe', data: { channel: 'cache-empty' } });
  await waitFor(() => rt.stats().sockets.slowClosed === 1);
  await waitFor(() => rt.connections() === 0);
  await rt.idle();
  const about = events.filter((e) => e.channel === 'cache-empty').map((e) => e.name);
  // It joined and left (occupied, vacated), but was never told of the miss, so no cache_miss either.
  expect(about).toEqual(['channel_occupied', 'channel_vacated']);
  slow.close();
});
