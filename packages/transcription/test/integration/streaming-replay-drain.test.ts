import { readFile } from 'node:fs/promises';
import { normaliseWords, wordErrorRate } from '@x/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TranscriptionClient } from '../../src/index.js';
import type { StreamingWord } from '../../src/streaming/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';
import { record, silence, speak, speech } from '../helpers/streaming.js';

/*
 * After a drop mid-utterance the transcriber replays the audio since the last final turn, at no more than
 * real time plus maxLeadMs: without more, every later turn would come that much late for the rest of the
 * session. It drains that backlog by skipping silence in the pauses that follow (keeping enough of each for
 * the service to end the turn), never speech, and maps word times back through what it skipped. Against the
 * emulator over real sockets, with its `dropSessions` fault, in the middle of the second of three sentences.
 */

const SENTENCES = [
  'i would like a refund please',
  'can you send a replacement today because the package arrived broken',
  'my number is four five six seven',
];
/** The pause after each sentence: the first goes into the replay, the later ones drain the backlog. */
const PAUSES_MS = [3000, 4000, 4000];
const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;
const MAX_LEAD_MS = 1000;

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let wavs: string[];
/** Where each sentence's audio lies in the stream, ms. */
let spans: { start: number; end: number }[];

beforeAll(async () => {
  box = await sandbox({ streaming: { newSessionsPerMinute: false } });
  client = clientFor(box, { streamingBaseUrl: box.url });
  wavs = await Promise.all(SENTENCES.map((s) => speech(s)));
  spans = [];
  let at = 0;
  for (const [i, wav] of wavs.entries()) {
    const ms = ((await readFile(wav)).length - 44) / 32;
    spans.push({ start: at, end: at + ms });
    at += ms + PAUSES_MS[i]!;
  }
});
afterAll(async () => {
  await box?.close();
});

it('a replay after a drop drains through the pauses that follow: no word lost or repeated, times those of the audio', async () => {
  const transcriber = client.streaming.transcriber(PARAMS, { maxLeadMs: MAX_LEAD_MS });
  const seen = record(transcriber);
  let dropped = false;
  transcriber.on('turn', (turn) => {
    // Mid-utterance: the second sentence has begun to be heard.
    if (!dropped && !turn.end_of_turn && turn.turn_order >= 1 && turn.words.length >= 2) {
      dropped = true;
      expect(box.transcription.streaming.dropSessions()).toBe(1);
    }
  });
  const backlog: number[] = [];
  // What waits once the replay is back in the queue.
  transcriber.on('reconnecting', () => backlog.push(transcriber.queuedMs));
  await transcriber.connect();
  for (const [i, wav] of wavs.entries()) {
    await speak(transcriber, wav);
    await silence(transcriber, PAUSES_MS[i]!);
  }
  // The backlog the replay made is gone: what waits is within the lead again, as without a drop.
  const queuedAtEnd = transcriber.queuedMs;
  const skipped = transcriber.skippedSilenceMs;
  await transcriber.close({ timeoutMs: 20_000 });

  expect(seen.errors).toEqual([]);
  expect(seen.reconnected).toHaveLength(1);
  expect(backlog[0]!).toBeGreaterThan(MAX_LEAD_MS);
  expect(queuedAtEnd).toBeLessThanOrEqual(MAX_LEAD_MS);
  // What drained it: silence skipped (sending faster than real time is not allowed).
  expect(skipped).toBeGreaterThan(0);

  const words = seen.words;
  for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
  // Each word lies in the audio of the sentence it was spoken in (a frame of slack at each end); so the
  // skipped silence was added back, and no pause's time shows up inside a sentence.
  const inSentence = (w: StreamingWord) =>
    spans.findIndex((s) => w.start >= s.start - 100 && w.end <= s.end + 100);
  for (const w of words) expect(inSentence(w), `${w.text} ${w.start}-${w.end}`).toBeGreaterThanOrEqual(0);
  const text = (list: StreamingWord[]) => list.map((w) => w.text).join(' ');
  for (const [i, sentence] of SENTENCES.entries()) {
    const said = words.filter((w) => inSentence(w) === i);
    // None lost (the recogniser's own error rate aside) and none twice.
    expect(wordErrorRate(sentence, text(said)), text(said)).toBeLessThanOrEqual(0.2);
    const heard = normaliseWords(text(said));
    expect(new Set(heard).size).toBe(heard.length);
  }
}, 60_000);
