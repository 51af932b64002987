import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { TranscriptionClient } from '../../src/index.js';
import {
  ConnectionError,
  StreamingAudioError,
  StreamingAuthenticationError,
  StreamingConcurrencyError,
  StreamingError,
  StreamingInvalidMessageError,
  StreamingServerError,
  StreamingSessionExpiredError,
  StreamingTranscriber,
  TimeoutError,
} from '../../src/streaming/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { record, silence, until } from '../helpers/streaming.js';

/*
 * Every way a session can end, over real sockets: each closure of the docs' table from the emulator, and
 * the paths around it from a bare WebSocket server (silent, closing before Begin, not there at all). Each
 * one settles connect() or ends the transcriber with its typed error; none leaves a promise hanging.
 */

const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let bare: { server: Server; url: string; wss: WebSocketServer; mode: 'silent' | 'close' };

beforeAll(async () => {
  box = await sandbox({
    streaming: { newSessionsPerMinute: false, maxSessionSeconds: 2, realtimeToleranceMs: 300 },
  });
  client = clientFor(box, { streamingBaseUrl: box.url });
  const server = createServer();
  const wss = new WebSocketServer({ server });
  bare = { server, wss, url: '', mode: 'silent' };
  wss.on('connection', (ws) => {
    if (bare.mode === 'close') ws.close(1011, 'going down');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bare.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await box?.close();
  for (const ws of bare?.wss.clients ?? []) ws.terminate();
  await new Promise((resolve) => bare?.server.close(resolve));
});

/** connect() settles with this error; the transcriber emitted it and closed once. */
async function refused(transcriber: StreamingTranscriber): Promise<unknown> {
  const seen = record(transcriber);
  const error = await transcriber.connect().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(seen.closes).toHaveLength(1);
  expect(seen.errors).toEqual([error]);
  return error;
}

describe('closures before Begin', () => {
  it('a wrong key: 1008 as StreamingAuthenticationError with the service words, no key in it', async () => {
    const wrong = clientFor(box, { apiKey: 'wrong-key-7d1c', streamingBaseUrl: box.url });
    const error = await refused(wrong.streaming.transcriber(PARAMS));
    expect(error).toBeInstanceOf(StreamingAuthenticationError);
    expect((error as StreamingError).closeCode).toBe(1008);
    expect((error as StreamingError).serviceMessage).toMatch(/^Unauthorized Connection/);
    expect(JSON.stringify(error)).not.toContain('wrong-key-7d1c');
  });

  it.each([
    [3009, StreamingConcurrencyError],
    [3005, StreamingServerError],
    [1008, StreamingAuthenticationError],
  ] as const)('a refused session (%i) as its class', async (code, Class) => {
    box.transcription.streaming.refuseSessions({ code });
    const error = await refused(client.streaming.transcriber(PARAMS));
    expect(error).toBeInstanceOf(Class);
    expect((error as StreamingError).closeCode).toBe(code);
    expect((error as StreamingError).code).toBe(code);
  });

  it('a parameter the service refuses (3006) as StreamingInvalidMessageError', async () => {
    const error = await refused(client.streaming.transcriber({ ...PARAMS, sample_rate: 96_000 }));
    expect(error).toBeInstanceOf(StreamingInvalidMessageError);
    expect((error as StreamingError).serviceMessage).toContain('sample_rate');
  });

  it('no Begin in time: TimeoutError', async () => {
    bare.mode = 'silent';
    const transcriber = new StreamingTranscriber(PARAMS, {
      baseUrl: bare.url,
      token: 't',
      connectTimeoutMs: 200,
    });
    expect(await refused(transcriber)).toBeInstanceOf(TimeoutError);
  });

  it('closed before Begin with the server own code: a StreamingError carrying it', async () => {
    bare.mode = 'close';
    const transcriber = new StreamingTranscriber(PARAMS, { baseUrl: bare.url, token: 't' });
    const error = await refused(transcriber);
    expect(error).toBeInstanceOf(StreamingError);
    expect((error as StreamingError).closeCode).toBe(1011);
  });

  it('nobody listening: ConnectionError, and no uncaught ws error', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const transcriber = new StreamingTranscriber(PARAMS, { baseUrl: `http://127.0.0.1:${port}`, token: 't' });
    const error = await refused(transcriber);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(String(error)).toContain('ECONNREFUSED');
  });

  it('close() while connecting rejects connect() and ends quietly', async () => {
    bare.mode = 'silent';
    const transcriber = new StreamingTranscriber(PARAMS, { baseUrl: bare.url, token: 't' });
    const seen = record(transcriber);
    const connecting = transcriber.connect();
    await transcriber.close();
    await expect(connecting).rejects.toBeInstanceOf(StreamingError);
    expect(seen.errors).toEqual([]);
    expect(seen.closes).toHaveLength(1);
  });
});

describe('closures after Begin: no reconnect for a 3xxx close', () => {
  it('session expired (3008) ends the transcriber with StreamingSessionExpiredError', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    await transcriber.connect();
    const feeding = silence(transcriber, 3000).catch(() => {});
    await until(() => seen.closes.length > 0, 'the 3008 close');
    await feeding;
    expect(seen.errors[0]).toBeInstanceOf(StreamingSessionExpiredError);
    expect((seen.errors[0] as StreamingError).sessionId).toBeDefined();
    expect(seen.reconnected).toEqual([]);
    expect(seen.begins).toBe(1);
  });

  it('audio faster than real time (3007) as StreamingAudioError, when pacing is turned off', async () => {
    const transcriber = client.streaming.transcriber(PARAMS, { maxLeadMs: Number.POSITIVE_INFINITY });
    const seen = record(transcriber);
    await transcriber.connect();
    for (let i = 0; i < 20; i++) transcriber.sendAudio(new Int16Array(1600));
    await until(() => seen.closes.length > 0, 'the 3007 close');
    expect(seen.errors[0]).toBeInstanceOf(StreamingAudioError);
    expect((seen.errors[0] as StreamingError).serviceMessage).toMatch(/Audio Transmission Rate Exceeded/);
    // A closed transcriber refuses more audio with a typed error.
    expect(() => transcriber.sendAudio(new Int16Array(1600))).toThrow(StreamingError);
  });
});
