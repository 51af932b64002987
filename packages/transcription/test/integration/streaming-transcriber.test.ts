import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { wordErrorRate } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionClient } from '../../src/index.js';
import {
  readWav,
  StreamingError,
  StreamingTranscriber,
  type TurnEvent,
  ValidationError,
} from '../../src/streaming/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { record, speak, speech, until } from '../helpers/streaming.js';

/*
 * The transcriber against the sandbox's /v3/ws emulator over real sockets, with flite speech (16 kHz `slt`)
 * recognised by its PocketSphinx: partial and final turns, Terminate/Termination, the key and token paths.
 */

const SPOKEN = 'i would like a refund please because the package arrived broken';
const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let wav: string;

beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
  client = clientFor(box, { streamingBaseUrl: box.url });
  wav = await speech(SPOKEN);
});
afterAll(() => box?.close());

const text = (turns: TurnEvent[]) => turns.map((t) => t.transcript).join(' ');

describe('StreamingTranscriber against the emulator', () => {
  it('with the API key: Begin, partials while speaking, a final turn, then Termination', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    const begin = await transcriber.connect();
    expect(begin.id).toBe(transcriber.sessionId);
    expect(begin.expires_at).toBeGreaterThan(Date.now() / 1000);
    await speak(transcriber, wav);
    const termination = await transcriber.close();

    expect(termination?.type).toBe('Termination');
    expect(termination!.audio_duration_seconds).toBeGreaterThan(0);
    expect(seen.partials.length).toBeGreaterThan(0);
    expect(seen.finals.length).toBeGreaterThan(0);
    expect(wordErrorRate(SPOKEN, text(seen.finals))).toBeLessThanOrEqual(0.15);
    // Words of final turns in order, each inside the audio sent, turns numbered 0, 1, …
    const words = seen.words;
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
    expect(seen.finals.map((t) => t.turn_order)).toEqual(seen.finals.map((_, i) => i));
    expect(seen.order.at(-2)).toBe('termination');
    expect(seen.order.at(-1)).toBe('close');
    expect(seen.errors).toEqual([]);
    expect(box.transcription.streaming.sessions()).toHaveLength(0);
  });

  it('with temporary tokens from getToken, and as one async iteration of turns', async () => {
    let tokens = 0;
    const transcriber = new StreamingTranscriber(PARAMS, {
      baseUrl: box.url,
      getToken: () => {
        tokens++;
        return client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
      },
    });
    const turns: TurnEvent[] = [];
    const reading = (async () => {
      for await (const turn of transcriber) turns.push(turn);
    })();
    await transcriber.connect();
    expect(box.transcription.streaming.sessions()[0]?.via).toBe('token');
    await speak(transcriber, wav);
    await transcriber.close();
    await reading;
    expect(tokens).toBe(1);
    const finals = turns.filter((t) => t.end_of_turn);
    expect(wordErrorRate(SPOKEN, text(finals))).toBeLessThanOrEqual(0.15);
  });

  it('with one token: the session works, and the token is spent', async () => {
    const { token } = await client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
    const first = new StreamingTranscriber(PARAMS, { baseUrl: box.url, token });
    await first.connect();
    await first.close();
    const again = new StreamingTranscriber(PARAMS, { baseUrl: box.url, token });
    const error = await again.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamingError);
    expect((error as StreamingError).closeCode).toBe(1008);
    expect(String(error)).not.toContain(token);
  });

  it('pipes a WAV through stream() as fast as the service allows, never faster than real time plus the lead', async () => {
    const transcriber = client.streaming.transcriber(PARAMS, { maxQueueMs: 2000, maxLeadMs: 500 });
    const seen = record(transcriber);
    let maxQueued = 0;
    const sampler = setInterval(() => {
      maxQueued = Math.max(maxQueued, transcriber.queuedMs);
    }, 10);
    await transcriber.connect();
    const reader = await readWav(createReadStream(wav), {
      sampleRate: 16000,
      speed: Number.POSITIVE_INFINITY,
    });
    await Readable.toWeb(Readable.from(reader)).pipeTo(transcriber.stream());
    clearInterval(sampler);
    // Closing the stream closed the transcriber: every turn is in, and the emulator saw no 3007.
    expect(seen.closes).toEqual([{ code: 1000, reason: 'closed' }]);
    expect(seen.errors).toEqual([]);
    expect(wordErrorRate(SPOKEN, text(seen.finals))).toBeLessThanOrEqual(0.15);
    // The queue stayed within its bound although the source had no pace of its own.
    expect(maxQueued).toBeLessThanOrEqual(2000);
  });

  it('sends audio given before connect() once the session begins, and ForceEndpoint in its place', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    const reader = await readWav(createReadStream(wav), {
      sampleRate: 16000,
      speed: Number.POSITIVE_INFINITY,
    });
    for await (const chunk of reader) expect(transcriber.sendAudio(chunk)).toBe(true);
    transcriber.forceEndpoint();
    const queued = transcriber.queuedMs;
    expect(queued).toBeGreaterThan(1000);
    await transcriber.connect();
    await until(() => seen.finals.length > 0, 'the forced final turn');
    expect(wordErrorRate(SPOKEN, text(seen.finals))).toBeLessThanOrEqual(0.15);
    await transcriber.close();
  });

  it('updateConfiguration() goes out in order with the audio and the session takes it', async () => {
    const transcriber = client.streaming.transcriber({ ...PARAMS, format_turns: true });
    const seen = record(transcriber);
    await transcriber.connect();
    transcriber.updateConfiguration({ max_turn_silence: 400, keyterms_prompt: ['refund'] });
    await speak(transcriber, wav);
    await transcriber.close();
    expect(seen.errors).toEqual([]);
    const formatted = seen.turns.filter((t) => t.turn_is_formatted);
    expect(formatted.map((t) => t.turn_order)).toEqual(seen.finals.map((t) => t.turn_order));
  });

  it('backpressure: a bounded queue, sendAudio() false when full, write() waiting, drain when there is room', async () => {
    const transcriber = client.streaming.transcriber(PARAMS, { maxQueueMs: 2000 });
    const seen = record(transcriber);
    let drains = 0;
    transcriber.on('drain', () => drains++);
    const chunk = () => new Int16Array(1600); // 100 ms
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      if (transcriber.sendAudio(chunk())) accepted++;
      else refused++;
      expect(transcriber.queuedMs).toBeLessThanOrEqual(2000);
    }
    expect(accepted).toBe(20);
    expect(refused).toBe(80);
    // A chunk larger than the whole queue can never fit: refused as a mistake, not as "full".
    expect(() => transcriber.sendAudio(new Int16Array(16000 * 3))).toThrow(ValidationError);
    // The stream's write waits instead of refusing.
    const writer = transcriber.stream().getWriter();
    let written = false;
    const write = writer.write(chunk()).then(() => {
      written = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    await transcriber.connect();
    await write;
    await until(() => drains > 0, 'drain');
    expect(transcriber.sendAudio(chunk())).toBe(true);
    writer.releaseLock();
    await transcriber.close();
    expect(seen.errors).toEqual([]);
  });

  it('close() before connect() and twice is quiet, and every later call refuses', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    await expect(transcriber.close()).resolves.toBeUndefined();
    await expect(transcriber.close()).resolves.toBeUndefined();
    expect(seen.closes).toHaveLength(1);
    expect(() => transcriber.sendAudio(new Int16Array(160))).toThrow(StreamingError);
    expect(() => transcriber.forceEndpoint()).toThrow(StreamingError);
    await expect(transcriber.connect()).rejects.toBeInstanceOf(StreamingError);
  });
});
