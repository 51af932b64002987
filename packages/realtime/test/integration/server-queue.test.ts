/**
 * The send queue against a real slow HTTP server: a node:http server on port 0 that holds every request
 * until the test lets it answer, so "slow" is a state, not a duration. Invariants, never times: the server
 * never sees more than `concurrency` requests at once, the client never reports more than `maxQueue` queued,
 * every trigger reaches the server exactly once, `queueFull: 'reject'` refuses exactly the overflow, and an
 * aborted queued call is never sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbortError, type RateLimiter, RateLimitQueueError, TimeoutError, ValidationError } from '@x/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RealtimeServer, type RealtimeServerOptions } from '../../src/server.js';
import { waitFor } from '../helpers/sandbox.js';

interface Held {
  path: string;
  body: { name?: string; data?: string; batch?: { data: string }[] };
  res: ServerResponse;
}

let http: Server;
let port: number;
const held: Held[] = [];
/** Events the server accepted (answered 200), by `data`. */
let received: string[] = [];
let serverInFlight = 0;
let serverMaxInFlight = 0;
let onArrival: () => void = () => {};

beforeAll(async () => {
  http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      serverInFlight++;
      serverMaxInFlight = Math.max(serverMaxInFlight, serverInFlight);
      res.on('finish', () => serverInFlight--);
      held.push({
        path: new URL(req.url ?? '/', 'http://x').pathname,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
        res,
      });
      onArrival();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const h of held.splice(0)) h.res.destroy();
  await new Promise((resolve) => http.close(resolve));
});
beforeEach(() => {
  received = [];
  serverMaxInFlight = 0;
  onArrival = () => {};
});

/** Answers the oldest held request with 200, recording its events. */
function answerOne(): void {
  const next = held.shift();
  if (!next) throw new Error('nothing held');
  const events = next.body.batch ? next.body.batch.map((e) => e.data) : [next.body.data ?? ''];
  received.push(...events);
  next.res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
}

/** Answers held requests, one at a time, until `done()`; each answer waits for a request to be held. */
async function drain(done: () => boolean): Promise<void> {
  while (!done()) {
    await waitFor(() => held.length > 0 || done(), 10_000);
    if (held.length > 0) answerOne();
  }
}

const make = (options: Partial<RealtimeServerOptions>) =>
  new RealtimeServer({
    appId: 1,
    key: 'key',
    secret: 'secret',
    host: '127.0.0.1',
    port,
    useTLS: false,
    rateLimit: false,
    maxRetries: 0,
    coalesce: false,
    ...options,
  });

const exactlyOnce = (values: string[], expected: string[]) => {
  expect([...values].sort()).toEqual([...expected].sort());
  expect(new Set(values).size).toBe(values.length);
};

describe('concurrency and a bounded queue against a slow server', () => {
  it("queueFull 'wait': never more than concurrency in flight or maxQueue queued; 60 triggers, each once", async () => {
    const server = make({ concurrency: 3, maxQueue: 5 });
    const samples: ReturnType<RealtimeServer['queueStats']>[] = [];
    onArrival = () => samples.push(server.queueStats());
    const expected = Array.from({ length: 60 }, (_, i) => `e${i}`);
    let settled = 0;
    const calls = expected.map((data) => server.trigger('slow', 'tick', data).finally(() => settled++));
    // Everything has reached the queue before the first answer: 3 in flight, 5 queued, the rest held.
    await waitFor(() => held.length === 3 && server.queueStats().queued + server.queueStats().held === 57);
    expect(server.queueStats()).toEqual({ inFlight: 3, queued: 5, held: 52 });
    await drain(() => settled === expected.length);
    await Promise.all(calls);
    exactlyOnce(received, expected);
    expect(serverMaxInFlight).toBe(3);
    expect(samples.length).toBe(60);
    for (const sample of samples) {
      expect(sample.inFlight).toBeLessThanOrEqual(3);
      expect(sample.queued).toBeLessThanOrEqual(5);
    }
    expect(server.queueStats()).toEqual({ inFlight: 0, queued: 0, held: 0 });
  });

  it("queueFull 'reject': exactly the overflow fails fast with RateLimitQueueError, nothing of it is sent", async () => {
    const server = make({ concurrency: 2, maxQueue: 3, queueFull: 'reject' });
    const outcomes = await (async () => {
      const calls = Array.from({ length: 10 }, (_, i) =>
        server.trigger('slow', 'tick', `r${i}`).then(
          () => ({ ok: true as const, data: `r${i}` }),
          (error: unknown) => ({ ok: false as const, data: `r${i}`, error }),
        ),
      );
      await waitFor(() => held.length === 2 && server.queueStats().queued === 3);
      await drain(() => received.length === 5);
      return Promise.all(calls);
    })();
    const accepted = outcomes.filter((o) => o.ok).map((o) => o.data);
    const refused = outcomes.filter((o) => !o.ok);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(5);
    for (const o of refused) {
      expect(o.error).toBeInstanceOf(RateLimitQueueError);
      expect(o.error).toMatchObject({
        reason: 'queue_full',
        message: expect.stringMatching(/Send queue is full/),
      });
    }
    exactlyOnce(received, accepted);
    expect(serverMaxInFlight).toBe(2);
  });

  it('coalesced: 1000 triggers of one tick arrive as 100 batch calls, every event exactly once', async () => {
    const server = make({ concurrency: 4, maxQueue: 8, coalesce: true });
    const samples: ReturnType<RealtimeServer['queueStats']>[] = [];
    onArrival = () => samples.push(server.queueStats());
    const expected = Array.from({ length: 1000 }, (_, i) => `c${i}`);
    let settled = 0;
    const calls = expected.map((data) =>
      server.trigger(`ch-${Number(data.slice(1)) % 7}`, 'tick', data).finally(() => settled++),
    );
    await drain(() => settled === expected.length);
    await Promise.all(calls);
    exactlyOnce(received, expected);
    expect(samples).toHaveLength(100);
    expect(serverMaxInFlight).toBeLessThanOrEqual(4);
    for (const sample of samples) expect(sample.queued).toBeLessThanOrEqual(8);
  });

  // Not in call order: each trigger is signed (Web Crypto HMAC, asynchronous) before it reaches the queue, so
  // under load z1 can reach it before z0. The queue keeps the order calls reach it; CI saw z1, z2, z0, z3.
  it("maxQueue 0 with queueFull 'wait': held calls start as slots free, each exactly once (they waited forever)", async () => {
    const server = make({ concurrency: 1, maxQueue: 0 });
    const expected = ['z0', 'z1', 'z2', 'z3'];
    let settled = 0;
    const calls = expected.map((data) => server.trigger('slow', 'tick', data).finally(() => settled++));
    await waitFor(() => held.length === 1 && server.queueStats().held === 3);
    expect(server.queueStats()).toEqual({ inFlight: 1, queued: 0, held: 3 });
    await drain(() => settled === expected.length);
    await Promise.all(calls);
    exactlyOnce(received, expected);
    expect(serverMaxInFlight).toBe(1);
    expect(server.queueStats()).toEqual({ inFlight: 0, queued: 0, held: 0 });
  });

  it('a withOptions clone sends through the same queue: concurrency bounds both; a queue option makes its own', async () => {
    const server = make({ concurrency: 1, maxQueue: 10 });
    const clone = server.withOptions({ timeout: 30_000 });
    const calls = [server.trigger('slow', 'tick', 'w0'), clone.trigger('slow', 'tick', 'w1')];
    await waitFor(() => held.length === 1 && clone.queueStats().queued === 1);
    expect(server.queueStats()).toEqual({ inFlight: 1, queued: 1, held: 0 });
    await drain(() => received.length === 2);
    await Promise.all(calls);
    // Either may reach the queue first (each is signed asynchronously before it does): one at a time, each once.
    exactlyOnce(received, ['w0', 'w1']);
    expect(serverMaxInFlight).toBe(1);
    const own = server.withOptions({ concurrency: 2 });
    expect(own.queueStats()).toEqual({ inFlight: 0, queued: 0, held: 0 });
    const more = [server.trigger('slow', 'tick', 'w2'), own.trigger('slow', 'tick', 'w3')];
    await waitFor(() => held.length === 2);
    expect(server.queueStats().inFlight).toBe(1);
    expect(own.queueStats().inFlight).toBe(1);
    await drain(() => received.length === 4);
    await Promise.all(more);
  });

  it('a call whose attempt times out while it waits for a slot fails with TimeoutError and is never sent', async () => {
    const server = make({ concurrency: 1, maxQueue: 10 });
    const first = server.trigger('slow', 'tick', 't0');
    await waitFor(() => held.length === 1);
    const late = server.trigger('slow', 'tick', 't1', {}, { timeout: 50 });
    await expect(late).rejects.toBeInstanceOf(TimeoutError);
    await expect(late).rejects.toMatchObject({
      phase: 'queue',
      message: expect.stringMatching(/waited 50 ms .* for a send slot and was not sent/),
    });
    expect(server.queueStats()).toEqual({ inFlight: 1, queued: 0, held: 0 });
    await drain(() => received.length === 1);
    await first;
    expect(received).toEqual(['t0']);
    expect(held).toHaveLength(0);
  });

  it("a user's own rate limiter gates every attempt too: each trigger takes and frees one of its slots", async () => {
    let granted = 0;
    let released = 0;
    const limiter: RateLimiter = {
      acquire: async () => {
        granted++;
        return () => void released++;
      },
      pause: () => {},
    };
    const server = make({ concurrency: 2, maxQueue: 10, rateLimit: limiter });
    const expected = ['l0', 'l1', 'l2', 'l3', 'l4'];
    const calls = expected.map((data) => server.trigger('slow', 'tick', data));
    await waitFor(() => held.length === 2 && server.queueStats().queued === 3);
    // Past the limiter, waiting for the queue: the limiter's slots stay taken until each attempt ends.
    expect(granted).toBe(5);
    expect(released).toBe(0);
    await drain(() => received.length === 5);
    await Promise.all(calls);
    exactlyOnce(received, expected);
    expect(serverMaxInFlight).toBe(2);
    expect(released).toBe(5);
    expect(server.rateLimiter).toBe(limiter);
  });

  it('a queued call whose signal aborts leaves the queue and is never sent', async () => {
    const server = make({ concurrency: 1, maxQueue: 10 });
    const first = server.trigger('slow', 'tick', 'a0');
    await waitFor(() => held.length === 1);
    const controller = new AbortController();
    const aborted = server.trigger('slow', 'tick', 'a1', {}, { signal: controller.signal });
    const last = server.trigger('slow', 'tick', 'a2');
    await waitFor(() => server.queueStats().queued === 2);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    expect(server.queueStats()).toEqual({ inFlight: 1, queued: 1, held: 0 });
    await drain(() => received.length === 2);
    await Promise.all([first, last]);
    expect(received).toEqual(['a0', 'a2']);
  });

  it('options are validated, each bad one named', () => {
    const error = (() => {
      try {
        make({ concurrency: 0, maxQueue: -1, queueFull: 'drop' as never });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    // maxQueue -1 is a type issue (a number >= 0), and those come first.
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
      'maxQueue',
      'concurrency',
      'queueFull',
    ]);
    expect(() => make({ concurrency: 1.5 })).toThrow(/concurrency: must be an integer >= 1/);
    expect(() => make({ concurrency: '4' as never })).toThrow(/concurrency/);
    expect(make({ concurrency: 1, maxQueue: 0, queueFull: 'reject' }).queueStats()).toEqual({
      inFlight: 0,
      queued: 0,
      held: 0,
    });
  });
});
