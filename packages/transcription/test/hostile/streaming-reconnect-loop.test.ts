/**
 * Hostile review of the streaming transcriber (issue 18): a service that accepts every session and drops it
 * right after `Begin` (a crashing backend behind a healthy proxy: 1011, or a 1006 reset). `reconnect.maxAttempts`
 * is "consecutive failed attempts before giving up", but the count restarts at every `Begin`, so such a
 * session never counts as failed: the transcriber reconnects (and replays its audio) forever, with no error
 * and no `close`. @x/core's own backoff already treats a connection shorter than 10 s as not stable.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { StreamingTranscriber } from '../../src/streaming/index.js';
import { record, until } from '../helpers/streaming.js';

let wss: WebSocketServer;
let base: string;
let sessions = 0;

beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (ws: WebSocket) => {
    sessions += 1;
    ws.send(JSON.stringify({ type: 'Begin', id: `s${sessions}`, expires_at: 1 }));
    setTimeout(() => ws.close(1011, 'internal error'), 20);
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  base = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const ws of wss.clients) ws.terminate();
  await new Promise((resolve) => wss.close(resolve));
});

it('sessions that drop right after Begin count against reconnect.maxAttempts: the transcriber gives up', async () => {
  const maxAttempts = 3;
  const transcriber = new StreamingTranscriber(
    { speech_model: 'universal-streaming-english', sample_rate: 16000 },
    {
      apiKey: 'hostile-key-0123',
      baseUrl: base,
      reconnect: { maxAttempts, backoff: { baseDelayMs: 1, maxDelayMs: 5 } },
    },
  );
  const seen = record(transcriber);
  await transcriber.connect();
  // Ten times the attempts allowed is a loop, not a retry policy.
  await until(() => seen.closes.length > 0 || sessions > 10 * maxAttempts, 'the transcriber to give up');
  const { begins } = seen;
  await transcriber.close({ waitForTermination: false });
  expect(begins).toBeLessThanOrEqual(1 + maxAttempts);
  expect(seen.errors.length).toBe(1);
});
