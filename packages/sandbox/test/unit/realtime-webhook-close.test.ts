/**
 * `close()` (and `reset()`) stop webhook retries: a POST that the stop aborts must not then wait out its
 * retry delay, since the abort it would wait for has already happened. No clock: the retry delay and the
 * receiver's timeout are an hour, so a stop that waited for either would time the test out, and a
 * connection the receiver sees closed can only have been closed by the stop.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RealtimeApp } from '../../src/realtime/model/apps.js';
import { WebhookDispatcher } from '../../src/realtime/model/webhooks.js';

let receiver: Server;
let url: string;
/** Every POST that arrived, in order; none is ever answered. */
const arrived: IncomingMessage[] = [];
let onArrival = () => {};

beforeAll(async () => {
  receiver = createServer((req) => {
    arrived.push(req);
    onArrival();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Resolves once `count` POSTs have arrived in all. */
function arrivals(count: number): Promise<void> {
  return new Promise((resolve) => {
    onArrival = () => {
      if (arrived.length >= count) resolve();
    };
    onArrival();
  });
}

/** Resolves when the sender has closed the connection a POST came on (the receiver never does). */
const closedBySender = (req: IncomingMessage) =>
  new Promise<void>((resolve) => {
    if (req.socket.destroyed) resolve();
    else req.socket.once('close', () => resolve());
  });

const HOUR = 3_600_000;
const options = {
  batchWindowMs: 10,
  maxBatchEvents: 20,
  attempts: 3,
  retryDelayMs: HOUR,
  maxRetryDelayMs: HOUR,
  timeoutMs: HOUR,
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
    const before = arrived.length;
    for (let i = 0; i < 3; i++) dispatcher.emit(app(), { name: 'channel_occupied', channel: `c${i}` });
    await arrivals(before + 3);
    const inFlight = arrived.slice(before);
    await dispatcher[stop]();
    // Settled; each POST was aborted (its connection closed by the sender) and none was tried again.
    await Promise.all(inFlight.map(closedBySender));
    await dispatcher.idle();
    expect(arrived).toHaveLength(before + 3);
    expect(dispatcher.stats()).toMatchObject({ delivered: 0, abandoned: 0 });

    // After close() nothing is sent; after reset() the next event is delivered again (and close() stops it).
    dispatcher.emit(app(), { name: 'channel_vacated', channel: 'c0' });
    if (stop === 'close') {
      await Promise.race([dispatcher.idle(), arrivals(before + 4)]);
      expect(arrived).toHaveLength(before + 3);
    } else {
      await arrivals(before + 4);
      expect(arrived).toHaveLength(before + 4);
      await dispatcher.close();
      await closedBySender(arrived[before + 3]!);
    }
  });
}
