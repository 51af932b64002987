import { readFile } from 'node:fs/promises';
import { normaliseWords, wordErrorRate } from '@x/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionClient } from '../../src/index.js';
import {
  ConnectionError,
  StreamingError,
  type StreamingTranscriber,
  type StreamingWord,
} from '../../src/streaming/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { record, silence, speak, speech, until } from '../helpers/streaming.js';

/*
 * Surviving the network, against the emulator's fault injection over real sockets: the socket is killed (or
 * stalled) in the middle of the second sentence, after the first one's final turn. The transcriber opens a
 * new session and replays the audio since that final turn, so the final words must hold both sentences,
 * none lost (the recogniser's own error rate aside) and none twice, at the times of the audio they were in.
 */

const FIRST = 'i would like a refund please';
/** Every word once, so a word said twice is a repeat. */
const SECOND = 'can you send a replacement today because the package arrived broken';
const PAUSE_MS = 1500;
const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let first: string;
let second: string;
/** Where the second sentence's audio starts and ends in the stream, ms. */
let secondSpan: { start: number; end: number };
const unstall: (() => void)[] = [];

beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
  client = clientFor(box, { streamingBaseUrl: box.url });
  [first, second] = await Promise.all([speech(FIRST), speech(SECOND)]);
  const ms = async (wav: string) => ((await readFile(wav)).length - 44) / 32;
  const start = (await ms(first)) + PAUSE_MS;
  secondSpan = { start, end: start + (await ms(second)) };
});
afterAll(async () => {
  for (const end of unstall) end();
  await box?.close();
});

/** First sentence, a pause that ends its turn, the second sentence (`during` runs as it starts), close. */
async function converse(transcriber: StreamingTranscriber, during: () => void): Promise<void> {
  await transcriber.connect();
  await speak(transcriber, first);
  await silence(transcriber, PAUSE_MS);
  const seen = record(transcriber);
  let fired = false;
  transcriber.on('turn', (turn) => {
    // Mid-utterance: the second sentence has begun to be heard.
    if (!fired && !turn.end_of_turn && turn.turn_order >= 1 && turn.words.length >= 2) {
      fired = true;
      during();
    }
  });
  await speak(transcriber, second);
  await silence(transcriber, 300);
  await transcriber.close({ timeoutMs: 20_000 });
  expect(seen.errors).toEqual([]);
}

function expectWholeConversation(words: StreamingWord[]): void {
  // Times continue across the sessions: in order, so nothing is said twice, and each sentence's words lie
  // in that sentence's audio (a new session's own clock would put the second sentence back near 0).
  for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
  const later = words.filter((w) => w.start >= secondSpan.start - 300);
  const earlier = words.filter((w) => w.start < secondSpan.start - 300);
  for (const word of later) expect(word.end).toBeLessThanOrEqual(secondSpan.end + 300);
  const text = (list: StreamingWord[]) => list.map((w) => w.text).join(' ');
  expect(wordErrorRate(FIRST, text(earlier)), text(earlier)).toBeLessThanOrEqual(0.2);
  // The words spoken after the last final turn before the fault: at most one misheard, none lost.
  expect(wordErrorRate(SECOND, text(later)), text(later)).toBeLessThanOrEqual(0.1);
  const heard = normaliseWords(text(later));
  expect(new Set(heard).size).toBe(heard.length);
}

describe('reconnect', () => {
  it('without a fault the conversation reads the same (what the fault runs are held to)', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    await converse(transcriber, () => {});
    expect(seen.reconnected).toEqual([]);
    expectWholeConversation(seen.words);
  });

  it('a socket killed mid-utterance: new session with a fresh token, replay, no word lost or repeated', async () => {
    let tokens = 0;
    const transcriber = client.streaming.transcriber(PARAMS, {
      getToken: () => {
        tokens++;
        return client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
      },
    });
    const seen = record(transcriber);
    await converse(transcriber, () => {
      expect(box.transcription.streaming.dropSessions()).toBe(1);
    });
    expect(seen.reconnected).toHaveLength(1);
    expect(seen.reconnected[0]!.replayedMs).toBeGreaterThan(0);
    expect(seen.reconnected[0]!.gapMs).toBeGreaterThanOrEqual(0);
    expect(seen.begins).toBe(2);
    expect(tokens).toBe(2);
    expect(seen.order.filter((e) => e === 'reconnecting')).toHaveLength(1);
    expect(seen.finals.map((t) => t.turn_order)).toEqual(seen.finals.map((_, i) => i));
    expectWholeConversation(seen.words);
  });

  it('a stalled socket: the heartbeat notices, and the conversation goes on the same', async () => {
    const transcriber = client.streaming.transcriber(PARAMS, { heartbeat: { idleMs: 300, timeoutMs: 300 } });
    const seen = record(transcriber);
    await converse(transcriber, () => unstall.push(box.transcription.streaming.stallSessions()));
    expect(seen.reconnected).toHaveLength(1);
    expectWholeConversation(seen.words);
  });

  it('with reconnect: false, a drop ends the transcriber with a ConnectionError', async () => {
    const transcriber = client.streaming.transcriber(PARAMS, { reconnect: false });
    const seen = record(transcriber);
    await transcriber.connect();
    box.transcription.streaming.dropSessions();
    await until(() => seen.closes.length > 0, 'the close');
    expect(seen.errors[0]).toBeInstanceOf(ConnectionError);
    expect(seen.reconnected).toEqual([]);
    expect(() => transcriber.sendAudio(new Int16Array(1600))).toThrow(StreamingError);
  });

  it('with a single token, a drop cannot reconnect and says why', async () => {
    const { token } = await client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
    const transcriber = client.streaming.transcriber(PARAMS, { token });
    const seen = record(transcriber);
    await transcriber.connect();
    box.transcription.streaming.dropSessions();
    await until(() => seen.closes.length > 0, 'the close');
    expect(seen.errors).toHaveLength(1);
    expect(seen.reconnected).toEqual([]);
  });

  it('gives up after maxAttempts failed reconnects in a row, with the last failure', async () => {
    let tokens = 0;
    const transcriber = client.streaming.transcriber(PARAMS, {
      reconnect: { maxAttempts: 3, backoff: { baseDelayMs: 10, maxDelayMs: 20 } },
      getToken: () => {
        if (++tokens > 1) throw new Error(`token service down (${tokens})`);
        return client.streaming.createTemporaryToken({ expires_in_seconds: 60 });
      },
    });
    const seen = record(transcriber);
    await transcriber.connect();
    box.transcription.streaming.dropSessions();
    await until(() => seen.closes.length > 0, 'the close');
    expect(tokens).toBe(4);
    expect(seen.order.filter((e) => e === 'reconnecting')).toHaveLength(1);
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toBeInstanceOf(StreamingError);
    expect(String(seen.errors[0])).toContain('token service down (4)');
  });

  it('a 3xxx refusal while reconnecting ends it at once', async () => {
    const transcriber = client.streaming.transcriber(PARAMS);
    const seen = record(transcriber);
    await transcriber.connect();
    box.transcription.streaming.refuseSessions({ code: 3005, times: 1 });
    box.transcription.streaming.dropSessions();
    await until(() => seen.closes.length > 0, 'the close');
    expect(seen.errors[0]).toBeInstanceOf(StreamingError);
    expect((seen.errors[0] as StreamingError).closeCode).toBe(3005);
  });
});
