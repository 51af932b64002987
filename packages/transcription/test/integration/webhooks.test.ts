import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTranscriptReady, parseWebhook, type TranscriptionClient, verifyWebhook } from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  url: string;
}

/** A webhook receiver that answers with the statuses it is told, in order, then 200. */
function receiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, url: req.url ?? '' });
      res.statusCode = answers.shift() ?? 200;
      res.end();
      for (const w of waiters.splice(0)) w();
    });
  });
  return {
    received,
    answers,
    server,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async until(count: number) {
      while (received.length < count) await new Promise<void>((r) => waiters.push(r));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let audioUrl: string;
const hook = receiver();
let hookUrl: string;

beforeAll(async () => {
  box = await sandbox({ webhooks: { retryDelayMs: 20, attempts: 4 } });
  client = clientFor(box);
  hookUrl = await hook.start();
  audioUrl = (await client.files.upload(await synthesizeSpeech('where is my delivery'))).upload_url;
});
afterAll(async () => {
  await box?.close();
  await hook.close();
});

describe('transcript webhooks', () => {
  it('POSTs { transcript_id, status } with the registered header, which verifyWebhook accepts', async () => {
    const t = await client.transcripts.submit({
      audio_url: audioUrl,
      speech_models: ['universal-2'],
      webhook_url: `${hookUrl}/hooks/transcripts?tenant=42`,
      webhook_auth_header_name: 'X-Hook-Secret',
      webhook_auth_header_value: 's3cret-value',
    });
    expect(t.webhook_auth).toBe(true);
    expect(JSON.stringify(t)).not.toContain('s3cret-value');
    await hook.until(1);
    const delivery = hook.received[0]!;
    expect(delivery.url).toBe('/hooks/transcripts?tenant=42');
    const headers = new Headers(delivery.headers as Record<string, string>);
    expect(verifyWebhook(headers, { name: 'X-Hook-Secret', value: 's3cret-value' })).toBe(true);
    expect(verifyWebhook(delivery.headers, { name: 'x-hook-secret', value: 's3cret-valuf' })).toBe(false);
    expect(verifyWebhook({}, { name: 'X-Hook-Secret', value: 's3cret-value' })).toBe(false);
    const payload = parseWebhook(delivery.body);
    expect(isTranscriptReady(payload)).toBe(true);
    expect(payload).toEqual({ transcript_id: t.id, status: 'completed' });
    await box.transcription.idle();
    expect((await client.transcripts.get(t.id)).webhook_status_code).toBe(200);
  });

  it('retries a failing receiver and records the final status', async () => {
    const before = hook.received.length;
    hook.answers.push(500, 503);
    const t = await client.transcripts.submit({
      audio_url: audioUrl,
      speech_models: ['universal-2'],
      webhook_url: hookUrl,
    });
    await hook.until(before + 3);
    await box.transcription.idle();
    expect(hook.received.length).toBe(before + 3);
    expect((await client.transcripts.get(t.id)).webhook_status_code).toBe(200);
  });

  it('does not retry after a 4xx', async () => {
    const before = hook.received.length;
    hook.answers.push(410);
    const t = await client.transcripts.submit({
      audio_url: audioUrl,
      speech_models: ['universal-2'],
      webhook_url: hookUrl,
    });
    await hook.until(before + 1);
    await box.transcription.idle();
    expect(hook.received.length).toBe(before + 1);
    expect((await client.transcripts.get(t.id)).webhook_status_code).toBe(410);
  });

  it('gives up after the configured attempts', async () => {
    const before = hook.received.length;
    hook.answers.push(500, 500, 500, 500, 500);
    const t = await client.transcripts.submit({
      audio_url: audioUrl,
      speech_models: ['universal-2'],
      webhook_url: hookUrl,
    });
    await box.transcription.idle();
    expect(hook.received.length).toBe(before + 4);
    expect((await client.transcripts.get(t.id)).webhook_status_code).toBe(500);
    hook.answers.length = 0;
  });

  it('notifies failed jobs too', async () => {
    const before = hook.received.length;
    const { upload_url } = await client.files.upload(new TextEncoder().encode('plain text, not audio'));
    const t = await client.transcripts.submit({
      audio_url: upload_url,
      speech_models: ['universal-2'],
      webhook_url: hookUrl,
    });
    await hook.until(before + 1);
    expect(parseWebhook(hook.received[before]!.body)).toEqual({ transcript_id: t.id, status: 'error' });
  });

  it('parseWebhook refuses a body that is not a notification', () => {
    expect(() => parseWebhook('{"hello":1}')).toThrow(/webhook payload/);
    expect(() => parseWebhook('not json')).toThrow(/webhook payload/);
  });
});
