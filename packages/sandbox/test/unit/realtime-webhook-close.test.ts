/**
 * `close()` (and `reset()`) stop webhook retries: a POST that the stop aborts must not then wait out its
 * retry delay, since the abort it would wait for has already happened.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RealtimeApp } from '../../src/realtime/model/apps.js';
import { WebhookDispatcher } from '../../src/realtime/model/webhooks.js';

let receiver: Server;
let url: string;
let arrived = 0;

beforeAll(async () => {
  // Never answers: every POST is still in flight when the dispatcher stops.
  receiver = createServer(() => {
    arrived += 1;
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const options = {
  batchWindowMs: 10,
  maxBatchEvents: 20,
  attempts: 3,
  // An hour: a stop that waited out the retry delay would never settle within the test's timeout, so the
  // test needs no clock of its own (no time threshold to miss on a busy machine).
  retryDelayMs: 3_600_000,
  maxRetryDelayMs: 3_600_000,
  timeoutMs: 10_000,
};

function app(): RealtimeApp {
  return {
    appId: '1',
    key: 'k',
    secret: 's',
    enableClientMessages: true,
    subscriptionCounting: false,
    webhooks: { url },
    maxConnections: Number.POSITIVE_INFINITY,
    authorizedConnections: false,
    watchlistEvents: false,
  };
}

for (const stop of ['close', 'reset'] as const) {
  it(`${stop}() aborts in-flight POSTs without waiting out their retry delay`, async () => {
    const dispatcher = new WebhookDispatcher(options);
    const before = arrived;
    for (let i = 0; i < 3; i++) dispatcher.emit(app(), { name: 'channel_occupied', channel: `c${i}` });
    const deadline = Date.now() + 3000;
    while (arrived < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(arrived).toBe(before + 3);
    await dispatcher[stop]();
    // Settled, and no second attempt was made after the abort.
    expect(arrived).toBe(before + 3);
  });
}
