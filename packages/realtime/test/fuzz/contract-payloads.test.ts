/**
 * Arbitrary payloads against a zod contract (one sync schema, one async), at both ends. Received: a `ws`
 * server on port 0 sends them on a contract channel; every one is delivered or reported exactly once, a
 * delivered one passes the schema, nothing is thrown out of the socket's handler, the client stays alive.
 * Sent: client events and server triggers with the same payloads; what reaches the wire (the `ws` server's
 * frames, a node:http API's bodies) always passes the schema, and a refusal is a `ValidationError`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WS, { type WebSocket, WebSocketServer } from 'ws';
import * as z from 'zod/mini';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { defineContract, RealtimeClient, type SocketLike, ValidationError } from '../../src/index.js';
import { RealtimeServer } from '../../src/server.js';
import { waitFor } from '../helpers/sandbox.js';

const item = z.object({
  id: z.string(),
  qty: z.int().check(z.gte(0)),
  tags: z.optional(z.array(z.string())),
});
const later = z.object({ id: z.string() }).check(z.refine(async (v) => v.id.length < 8, 'id too long'));
const contract = defineContract({
  'private-fuzz-{n}': { item, later, 'client-item': item, 'client-later': later },
});
const schemaOf = (name: string) => (name.endsWith('later') ? later : item);

let wss: WebSocketServer;
let current: WebSocket | null = null;
/** Client events the `ws` server received, as sent. */
const wire: { event: string; data: unknown }[] = [];
let api: Server;
/** `data` of every event the HTTP API received, with its name. */
const posted: { name: string; data: string }[] = [];
let client: RealtimeClient;
let server: RealtimeServer;
const delivered: { name: string; data: unknown }[] = [];
let reported = 0;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    current = ws;
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw));
      if (frame.event === 'pusher:subscribe') {
        ws.send(
          JSON.stringify({
            event: 'pusher_internal:subscription_succeeded',
            channel: frame.data.channel,
            data: '{}',
          }),
        );
      } else if (String(frame.event).startsWith('client-')) wire.push(frame);
    });
    ws.send(
      JSON.stringify({
        event: 'pusher:connection_established',
        data: '{"socket_id":"1.1","activity_timeout":120}',
      }),
    );
  });
  client = new RealtimeClient('fuzz-key', {
    wsHost: '127.0.0.1',
    wsPort: (wss.address() as AddressInfo).port,
    forceTLS: false,
    webSocketFactory: (url) => new WS(url) as unknown as SocketLike,
    channelAuthorization: { customHandler: async () => ({ auth: 'fuzz-key:00' }) },
    contract,
    clientEventBuffer: 1000,
  });
  client.connect();
  const channel = client.subscribe('private-fuzz-1');
  channel.bind('item', (data) => delivered.push({ name: 'item', data }));
  channel.bind('later', (data) => delivered.push({ name: 'later', data }));
  channel.bind('pusher:validation_error', () => reported++);
  await channel.subscribed;

  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const event of body.batch ?? [body]) posted.push({ name: event.name, data: event.data });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  server = new RealtimeServer({
    appId: 1,
    key: 'k',
    secret: 's',
    host: '127.0.0.1',
    port: (api.address() as AddressInfo).port,
    useTLS: false,
    contract,
    rateLimit: false,
  });
});
afterAll(async () => {
  client?.disconnect();
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await new Promise<void>((resolve) => api.close(() => resolve()));
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

const nearMiss = fc.record(
  {
    id: fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null)),
    qty: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double(), fc.string({ maxLength: 3 })),
    tags: fc.oneof(
      fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      fc.array(fc.integer(), { maxLength: 2 }),
    ),
  },
  { requiredKeys: [] },
);
const payload = fc.oneof(
  { weight: 4, arbitrary: nearMiss },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);
const name = fc.constantFrom('item', 'later');

const passes = async (event: string, data: unknown) => (await schemaOf(event).safeParseAsync(data)).success;

for (const run of fuzzRuns(200)) {
  it(`received payloads against a contract ${run.label}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, payload), { minLength: 1, maxLength: 4 }), async (events) => {
        n++;
        const before = delivered.length + reported;
        const start = delivered.length;
        for (const [event, data] of events) {
          // `data` as JSON text, as a server SDK publishes it.
          current?.send(JSON.stringify({ event, channel: 'private-fuzz-1', data: JSON.stringify(data) }));
        }
        await waitFor(() => delivered.length + reported === before + events.length);
        for (const got of delivered.slice(start)) expect(await passes(got.name, got.data)).toBe(true);
        expect(uncaught).toEqual([]);
        expect(client.connection.state).toBe('connected');
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('contract received payloads', run, n);
  }, 120_000);
}

for (const run of fuzzRuns(40)) {
  it(`sent payloads against a contract ${run.label}`, async () => {
    let n = 0;
    let accepted = 0;
    wire.length = 0;
    posted.length = 0;
    await fc.assert(
      fc.asyncProperty(name, payload, async (event, data) => {
        n++;
        try {
          if (client.subscribe('private-fuzz-1').trigger(`client-${event}`, data as never)) accepted++;
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
        await server.trigger('private-fuzz-2', event, data as never).catch((error) => {
          expect(error).toBeInstanceOf(ValidationError);
        });
      }),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('contract sent payloads', run, n);
    // Client events go 10 a second; async refusals are taken from `accepted` as they are reported.
    await waitFor(() => wire.length > 0 || accepted === 0, 10_000);
    for (const frame of wire)
      expect(await passes(frame.event.slice('client-'.length), frame.data)).toBe(true);
    for (const event of posted) expect(await passes(event.name, JSON.parse(event.data))).toBe(true);
    expect(posted.length).toBeGreaterThan(0);
    expect(uncaught).toEqual([]);
  }, 120_000);
}
