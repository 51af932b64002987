/**
 * Fuzzing the streaming recogniser's input (fast-check) on one real python3-pocketsphinx process: random
 * bytes as audio (full-scale noise, and writes of any length, odd ones included) and pieces of real speech,
 * mixed with random end-of-utterance commands. Every utterance must resolve, with words that are words (no fillers, no
 * `(2)`), times inside the audio the utterance covers and increasing, confidences in 0..1; the process must
 * never fail. The lines the process writes are fuzzed too: no line makes the reader throw.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import {
  type StreamingRecognizer,
  type StreamWord,
  startStreamingRecognizer,
} from '../../src/transcription/engine/streaming.js';
import { LineReader, parseMessage } from '../../src/transcription/engine/streaming-messages.js';
import { synthesizeSpeech } from '../../src/transcription/speech.js';

const run = promisify(execFile);

let recognizer: StreamingRecognizer;
const errors: Error[] = [];
let writtenBytes = 0;
/** Where the current utterance's audio starts (ms): the audio written when the last one was ended. */
let utteranceStartMs = 0;
/** Words heard: printed, so a run that never exercised the word checks shows it. */
let heard = 0;

let speech: Buffer;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'streaming-fuzz-'));
  const wav = await synthesizeSpeech('i would like a refund please because the package arrived broken', {
    voice: 'slt',
    path: join(dir, 'speech.wav'),
  });
  const raw = join(dir, 'speech.raw');
  await run('sox', [wav, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', raw]);
  speech = await readFile(raw);
  await rm(dir, { recursive: true, force: true });
  recognizer = await startStreamingRecognizer();
  recognizer.onError((error) => errors.push(error));
});
afterAll(() => recognizer?.close());

const msOf = (bytes: number) => Math.floor(bytes / 32);

function expectWords(words: StreamWord[], fromMs: number, toMs: number): void {
  let previousEnd = fromMs;
  for (const w of words) {
    expect(w.text).toMatch(/^[^\s<>[\]()+]+$/);
    expect(w.start).toBeGreaterThanOrEqual(previousEnd);
    expect(w.end).toBeGreaterThanOrEqual(w.start);
    expect(w.confidence).toBeGreaterThanOrEqual(0);
    expect(w.confidence).toBeLessThanOrEqual(1);
    previousEnd = w.end;
  }
  expect(previousEnd).toBeLessThanOrEqual(toMs);
}

/**
 * A write of random bytes (any length, up to ~1 s), a piece of real speech (any offset, so samples may be
 * split), or the end of the utterance. Noise alone is mostly silence to the VAD: speech makes words to check.
 */
const step = fc.oneof(
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 101 }) },
  { weight: 3, arbitrary: fc.uint8Array({ maxLength: 32_001, size: 'max' }) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat(), fc.integer({ min: 1, max: 48_000 }))
      .map(([from, length]) => speech.subarray(from % speech.length, (from % speech.length) + length)),
  },
  { weight: 1, arbitrary: fc.constant('end' as const) },
);

describe('streaming recogniser input', () => {
  for (const run of fuzzRuns(15)) {
    it(`random audio and utterance ends ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
          n++;
          const ends: Promise<void>[] = [];
          const endHere = () => {
            const [fromMs, toMs] = [utteranceStartMs, msOf(writtenBytes)];
            utteranceStartMs = toMs;
            ends.push(
              recognizer.endUtterance().then((words) => {
                heard += words.length;
                expectWords(words, fromMs, toMs);
              }),
            );
          };
          for (const s of steps) {
            if (s === 'end') {
              endHere();
            } else {
              recognizer.write(s);
              writtenBytes += s.length;
            }
          }
          endHere();
          await Promise.all(ends);
          expect(errors).toEqual([]);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming recogniser audio', run, n);
      console.log(
        `streaming recogniser audio: ${msOf(writtenBytes)} ms of audio so far, ${heard} words heard`,
      );
    });
  }
});

describe('streaming recogniser output lines', () => {
  for (const run of fuzzRuns(500)) {
    it(`random lines never throw ${run.label}`, () => {
      let n = 0;
      const line = fc.oneof(
        fc.string(),
        fc.json({ maxDepth: 4 }),
        fc
          .record({
            type: fc.constantFrom('ready', 'update', 'final', 'error'),
            words: fc.jsonValue({ maxDepth: 3 }),
            audioMs: fc.jsonValue({ maxDepth: 1 }),
            inSpeech: fc.jsonValue({ maxDepth: 1 }),
            kind: fc.constantFrom('unavailable', 'failed', 'x'),
            message: fc.jsonValue({ maxDepth: 1 }),
          })
          .map((m) => JSON.stringify(m)),
      );
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), line, (chunks, text) => {
          n++;
          const reader = new LineReader(128);
          for (const chunk of chunks) {
            for (const l of reader.push(Buffer.from(chunk)) ?? []) {
              expect(l.length).toBeLessThanOrEqual(128);
              parseMessage(l);
            }
          }
          const message = parseMessage(text);
          if (message?.type === 'update' || message?.type === 'final') {
            expect(Number.isSafeInteger(message.audioMs) && message.audioMs >= 0).toBe(true);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('streaming recogniser output lines', run, n);
    });
  }
});
