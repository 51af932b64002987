/**
 * The client against the transcription emulator over real sockets, with real speech: flite speaks, the
 * emulator's PocketSphinx recognises. Needs the Debian packages `.ci/run` installs (flite, pocketsphinx,
 * pocketsphinx-en-us, sox).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { synthesizeSpeech } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  NotFoundError,
  TimeoutError,
  type Transcript,
  TranscriptError,
  type TranscriptionClient,
  TranscriptWaitTimeoutError,
  ValidationError,
} from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let speech: string;
let done: Transcript;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  speech = await synthesizeSpeech('hello my order number is four five six. thank you for your help.');
  done = await client.transcripts.transcribe({
    audio: speech,
    speech_models: ['universal-2'],
    speaker_labels: true,
  });
});
afterAll(() => box?.close());

describe('transcribe', () => {
  it('uploads local audio, submits, waits and answers the completed transcript', () => {
    expect(done.status).toBe('completed');
    expect(done.text).toMatch(/order number is 456/i);
    expect(done.words?.length).toBeGreaterThan(5);
    expect(done.audio_duration).toBeGreaterThan(0);
    expect(done.speech_models).toEqual(['universal-2']);
    expect(done.utterances?.[0]?.speaker).toBe('A');
  });

  it('gets the same transcript by id', async () => {
    const again = await client.transcripts.get(done.id);
    expect(again.id).toBe(done.id);
    expect(again.text).toBe(done.text);
  });

  it('reports each status it polled through onStatus', async () => {
    const seen: string[] = [];
    const submitted = await client.transcripts.submit({
      audio_url: done.audio_url,
      speech_models: ['universal-2'],
    });
    expect(submitted.status).toBe('queued');
    const finished = await client.transcripts.waitUntilDone(submitted.id, {
      pollInterval: 50,
      onStatus: (t) => seen.push(t.status),
    });
    expect(finished.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
  });
});

describe('views of a finished transcript', () => {
  it('sentences and paragraphs carry their words and times', async () => {
    const { sentences } = await client.transcripts.sentences(done.id);
    expect(sentences.length).toBeGreaterThanOrEqual(1);
    expect(sentences.map((s) => s.text).join(' ')).toBe(done.text);
    for (const s of sentences) expect(s.end).toBeGreaterThanOrEqual(s.start);
    const { paragraphs } = await client.transcripts.paragraphs(done.id);
    expect(paragraphs.flatMap((p) => p.words).length).toBe(done.words?.length);
  });

  it('subtitles as SRT and VTT, with chars_per_caption', async () => {
    const srt = await client.transcripts.subtitles(done.id, 'srt');
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n/);
    const vtt = await client.transcripts.subtitles(done.id, 'vtt', { chars_per_caption: 10 });
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    const captions = vtt.split('\n\n').slice(1).filter(Boolean);
    expect(captions.length).toBeGreaterThan(2);
  });

  it('word search finds words, digits and phrases', async () => {
    const found = await client.transcripts.wordSearch(done.id, ['order', '456', 'number is', 'zebra']);
    const byText = Object.fromEntries(found.matches.map((m) => [m.text, m]));
    expect(byText.order?.count).toBe(1);
    expect(byText['456']?.count).toBe(1);
    expect(byText['number is']?.timestamps[0]?.[1]).toBeGreaterThan(byText['number is']!.timestamps[0]![0]);
    expect(found.total_count).toBe(found.matches.reduce((n, m) => n + m.count, 0));
  });

  it('redacted audio: silenced numbers, downloadable from the returned URL', async () => {
    const redacted = await client.transcripts.transcribe({
      audio_url: done.audio_url,
      speech_models: ['universal-2'],
      redact_pii: true,
      redact_pii_policies: ['number_sequence'],
      redact_pii_audio: true,
    });
    expect(redacted.text).toMatch(/###/);
    expect(redacted.text).not.toMatch(/456/);
    const audio = await client.transcripts.redactedAudio(redacted.id);
    expect(audio.status).toBe('redacted_audio_ready');
    const file = await fetch(audio.redacted_audio_url);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});

describe('list and delete', () => {
  it('lists newest first and pages through every transcript exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await client.transcripts.submit({ audio_url: done.audio_url, speech_models: ['universal-2'] })).id,
      );
    }
    const listed: string[] = [];
    for await (const item of client.transcripts.list({ limit: 2 })) listed.push(item.id);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.slice(0, 5)).toEqual([...ids].reverse());
    expect(listed).toContain(done.id);
    const first = await client.transcripts.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.data[0]?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    await box.transcription.idle();
  });

  it('delete scrubs the transcript and removes its upload; its views are gone', async () => {
    const victim = await client.transcripts.transcribe({
      audio: speech,
      speech_models: ['universal-2'],
    });
    const deleted = await client.transcripts.delete(victim.id);
    expect(deleted.text).toBe('Deleted by user.');
    expect(deleted.audio_url).toBe('http://deleted_by_user');
    await expect(client.transcripts.sentences(victim.id)).rejects.toMatchObject({ status: 400 });
    await expect(
      client.transcripts.submit({ audio_url: victim.audio_url, speech_models: ['universal-2'] }),
    ).rejects.toThrow(/Cannot access uploaded file/);
  });
});

describe('waiting', () => {
  /** An audio_url whose download never ends, so its job stays `processing` until the server closes. */
  async function hangingAudio() {
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }));
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const close = () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    };
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/call.wav`, close };
  }

  it('a deadline ends the wait with TranscriptWaitTimeoutError carrying the id and last status', async () => {
    const hanging = await hangingAudio();
    try {
      const t = await client.transcripts.submit({ audio_url: hanging.url, speech_models: ['universal-2'] });
      const error = await client.transcripts
        .waitUntilDone(t.id, { pollInterval: 20, deadline: 300 })
        .catch((e: any) => e);
      expect(error).toBeInstanceOf(TranscriptWaitTimeoutError);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.transcriptId).toBe(t.id);
      expect(error.lastStatus).toBe('processing');
      expect(error.message).toContain(t.id);
      const controller = new AbortController();
      const aborted = client.transcripts.waitUntilDone(t.id, { pollInterval: 20, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(aborted).rejects.toBeInstanceOf(AbortError);
    } finally {
      await hanging.close();
    }
  });
});

describe('errors', () => {
  it('an unknown id is the service 400, surfaced as NotFoundError', async () => {
    const error = await client.transcripts.get('00000000-0000-4000-8000-000000000000').catch((e: any) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/transcript id not found/);
  });

  it('a non-audio file ends in TranscriptError with the id and the service message', async () => {
    const error = await client.transcripts
      .transcribe({
        audio: new TextEncoder().encode('<html>not audio</html>'),
        speech_models: ['universal-2'],
      })
      .catch((e: any) => e);
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error.transcriptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.serviceMessage).toMatch(/does not appear to contain audio/);
  });

  it('bad parameters fail before anything is sent, naming the field', async () => {
    const before = box.transcription.stats().requests;
    await expect(
      client.transcripts.submit({
        audio_url: done.audio_url,
        speech_models: ['universal-2'],
        content_safety_confidence: 10,
      }),
    ).rejects.toThrow(/content_safety_confidence/);
    await expect(
      // @ts-expect-error speech_models is required
      client.transcripts.submit({ audio_url: done.audio_url }),
    ).rejects.toThrow(/speech_models/);
    const misspelt = await client.transcripts
      // @ts-expect-error an unknown parameter
      .submit({ audio_url: done.audio_url, speech_models: ['universal-2'], sentiment_analyses: true })
      .catch((e: any) => e);
    expect(misspelt).toBeInstanceOf(ValidationError);
    expect(misspelt.message).toMatch(/sentiment_analysis/);
    expect(box.transcription.stats().requests).toBe(before);
  });

  it('allowUnknownFields sends a parameter newer than the SDK', async () => {
    const lenient = clientFor(box, { allowUnknownFields: true });
    const t = await lenient.transcripts.submit({
      audio_url: done.audio_url,
      speech_models: ['universal-2'],
      brand_new_option: true,
    } as never);
    expect((t as Record<string, unknown>).brand_new_option).toBe(true);
  });

  it('a wrong key is AuthenticationError and the key is not in the message', async () => {
    const wrong = clientFor(box as unknown as Sandbox & { transcription: { apiKey: string } }, {
      apiKey: 'wrong-key-123456',
    });
    const error = await wrong.transcripts.get(done.id).catch((e: any) => e);
    expect(error.status).toBe(401);
    expect(JSON.stringify(error)).not.toContain('wrong-key-123456');
    expect(error.message).not.toContain('wrong-key-123456');
  });
});
