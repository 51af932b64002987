/**
 * Batched webhooks when many events happen at once (one connection leaving 45 channels): Pusher batches "for a
 * maximum of 250ms or until 20 webhook events have been added to the batch"
 * (https://support.pusher.com/hc/en-us/articles/4412243470225-What-Is-The-Batch-Size-and-Batch-Window-For-Channels-Webhooks-),
 * so no POST carries more than 20 events, and every event still arrives exactly once, verified by pusher's
 * own webhook check. A real HTTP receiver on port 0; nothing is timed (`idle()` sends what waits).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { TestSocket, waitFor } from '../helpers/realtime.js';

const APP = { appId: '821', key: 'batch-key', secret: 'batch-secret' };

let receiver: Server;
let box: Sandbox<false>;
const posts: { headers: Record<string, string>; rawBody: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks).toString(),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  box = await startSandbox({
    store: false,
    realtime: { apps: [{ ...APP, webhooks: { url, batch: true } }], webhooks: { leaveDelayMs: 0 } },
  });
});

afterAll(async () => {
  await box?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('45 channels occupied and vacated at once: batches of at most 20 events, each event once', async () => {
  const rt = box.realtime!;
  const names = Array.from({ length: 45 }, (_, i) => `room-${i}`);
  const s = await TestSocket.connect(rt.wsUrl, APP.key);
  for (const name of names) s.send({ event: 'pusher:subscribe', data: { channel: name } });
  await waitFor(() => rt.channels().length === 45);
  s.close();
  await waitFor(() => rt.channels().length === 0);
  await rt.idle();

  const verifier = new PusherServer({ ...APP, host: '127.0.0.1' });
  const events: { name: string; channel: string }[] = [];
  for (const post of posts) {
    const hook = verifier.webhook({ headers: post.headers, rawBody: post.rawBody });
    expect(hook.isValid()).toBe(true);
    expect(hook.getEvents().length).toBeGreaterThan(0);
    expect(hook.getEvents().length).toBeLessThanOrEqual(20);
    events.push(...hook.getEvents());
  }
  for (const kind of ['channel_occupied', 'channel_vacated']) {
    const channels = events.filter((e) => e.name === kind).map((e) => e.channel);
    expect(channels.sort()).toEqual([...names].sort());
  }
  expect(events).toHaveLength(90);
});
