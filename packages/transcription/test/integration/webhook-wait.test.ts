import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  type Transcript,
  type TranscriptionClient,
  ValidationError,
  verifyWebhook,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

/*
 * transcribe() with a webhook_url, end to end over real sockets: the emulator POSTs its notification to a
 * node:http route that checks the registered header and hands the body to client.transcripts.notify(),
 * which wakes the waiting call. The fallback poll interval is 10 minutes, so any poll a test sees was woken.
 */

const SECRET = { name: 'X-Hook-Secret', value: 'wait-hook-secret-5c1e' };
const NO_FALLBACK = 600_000;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let route: Server;
let hookUrl: string;
let audioUrl: string;
const handed: { woke: boolean; forged: boolean }[] = [];

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  // The user's webhook route: verify, then pass the body on.
  route = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forged = !verifyWebhook(req.headers, SECRET);
      handed.push({ forged, woke: !forged && client.transcripts.notify(Buffer.concat(chunks)) });
      res.writeHead(forged ? 401 : 200).end();
    });
  });
  await new Promise<void>((r) => route.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(route.address() as AddressInfo).port}/hooks/assemblyai`;
  audioUrl = (await client.files.upload(await synthesizeSpeech('your refund is on its way'))).upload_url;
});
afterAll(async () => {
  await box?.close();
  await new Promise<void>((r) => route?.close(() => r()));
});

describe('transcribe() with webhook_url', () => {
  it('each job costs its submit and one GET: the webhook wakes it, no poll is spent', async () => {
    box.transcription.resetStats();
    handed.length = 0;
    const jobs = 3;
    const polled = new Map<number, string[]>();
    const done = await Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        client.transcripts.transcribe(
          {
            audio_url: audioUrl,
            speech_models: ['universal-2'],
            webhook_url: hookUrl,
            webhook_auth_header_name: SECRET.name,
            webhook_auth_header_value: SECRET.value,
          },
          {
            webhookPollInterval: NO_FALLBACK,
            onStatus: (t) => polled.set(i, [...(polled.get(i) ?? []), t.status]),
          },
        ),
      ),
    );
    expect(done.map((t) => t.status)).toEqual(Array(jobs).fill('completed'));
    expect(new Set(done.map((t) => t.id)).size).toBe(jobs);
    for (let i = 0; i < jobs; i++) expect(polled.get(i)).toEqual(['completed']);
    // Counted at the emulator: a POST /v2/transcript and a GET /v2/transcript/{id} per job, nothing else.
    expect(box.transcription.stats().requests).toBe(2 * jobs);
    await box.transcription.idle();
    expect(handed.filter((h) => h.woke)).toHaveLength(jobs);
    expect(handed.some((h) => h.forged)).toBe(false);
  });

  it('a forged notification only makes the wait look again: it ends on the service`s word', async () => {
    const sockets = new Set<import('node:net').Socket>();
    // Audio that never arrives: the job stays `processing`.
    const hanging = createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }));
    hanging.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/call.wav`;
      const t = await client.transcripts.submit({ audio_url: url, speech_models: ['universal-2'] });
      const seen: string[] = [];
      let polledTwice: () => void = () => {};
      const twice = new Promise<void>((r) => {
        polledTwice = r;
      });
      const controller = new AbortController();
      const waiting = client.transcripts.waitUntilDone(t.id, {
        expectWebhook: true,
        webhookPollInterval: NO_FALLBACK,
        signal: controller.signal,
        onStatus: (x: Transcript) => {
          seen.push(x.status);
          if (seen.length === 1)
            expect(client.transcripts.notify({ transcript_id: t.id, status: 'completed' })).toBe(true);
          if (seen.length === 2) polledTwice();
        },
      });
      await twice;
      controller.abort();
      await expect(waiting).rejects.toBeInstanceOf(AbortError);
      expect(seen).toEqual(['processing', 'processing']);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  });

  it('notify() answers false for a job nobody waits on, and refuses what is not a notification', () => {
    expect(client.transcripts.notify('{"transcript_id":"nobody-waits","status":"completed"}')).toBe(false);
    expect(
      client.transcripts.notify({ status: 'redacted_audio_ready', redacted_audio_url: 'https://x/y' }),
    ).toBe(false);
    expect(() => client.transcripts.notify('{"hello":1}')).toThrow(ValidationError);
  });
});
