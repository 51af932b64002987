/**
 * Fuzzing how compromise is given a transcript (fast-check): `chunkWords` gives every word to exactly one chunk,
 * in order, within the bound, with context only after a cut made without a sentence end and only the next
 * words; entities found through any chunk size are whole runs of the transcript's own words with those words'
 * times, in time order and never overlapping. Words of names, places, numbers, punctuation and stand-in length.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { endsSentence } from '../../src/transcription/derive/sentences.js';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { detectEntities } from '../../src/transcription/intelligence/index.js';
import {
  CONTEXT_WORDS,
  chunkWords,
  MAX_TAGGED_WORD_CHARS,
  trimPunctuation,
} from '../../src/transcription/intelligence/word-spans.js';

const token = fc.constantFrom(
  'tom',
  'Baker',
  'new',
  'York',
  'Boston.',
  'barack',
  'obama',
  'on',
  'Monday,',
  'order',
  'number',
  '85',
  '5551234',
  'the',
  'coffee',
  'machine',
  'broken!',
  'at',
  'example',
  'dot',
  'com.',
  '"Sarah',
  'Jones"',
  'x'.repeat(MAX_TAGGED_WORD_CHARS + 1),
  '\u{1F600}',
);
const transcript = fc.array(token, { minLength: 1, maxLength: 60 }).map((texts) =>
  texts.map(
    (text, i): TranscriptWord => ({
      text,
      start: i * 300,
      end: i * 300 + 250,
      confidence: 0.9,
      speaker: null,
    }),
  ),
);

describe('chunked tagging', () => {
  for (const run of fuzzRuns(150)) {
    it(`chunks own each word once; entities are runs of words with their times ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(transcript, fc.integer({ min: 1, max: 70 }), (words, max) => {
          n += 1;
          const chunks = chunkWords(words, max);
          let next = 0;
          for (const [c, { spans, first, owned }] of chunks.entries()) {
            expect(first).toBe(next);
            expect(owned).toBeGreaterThanOrEqual(1);
            expect(owned).toBeLessThanOrEqual(max);
            next = first + owned;
            const context = spans.words.length - owned;
            const last = c === chunks.length - 1;
            const afterSentence = endsSentence(words[next - 1]!.text);
            expect(context).toBe(last || afterSentence ? 0 : Math.min(CONTEXT_WORDS, words.length - next));
            spans.words.forEach((shown, k) => {
              const said = words[first + k]!;
              expect([shown.start, shown.end]).toEqual([said.start, said.end]);
              expect(shown.text).toBe(said.text.length > MAX_TAGGED_WORD_CHARS ? 'and' : said.text);
            });
          }
          expect(next).toBe(words.length);

          const entities = detectEntities(words, max);
          let after = -1;
          for (const entity of entities) {
            const first = words.findIndex((w) => w.start === entity.start);
            const last = words.findIndex((w) => w.end === entity.end);
            expect(first).toBeGreaterThan(after);
            expect(last).toBeGreaterThanOrEqual(first);
            expect(entity.text).toBe(
              trimPunctuation(
                words
                  .slice(first, last + 1)
                  .map((w) => w.text)
                  .join(' '),
              ),
            );
            after = last;
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription chunked tagging', run, n);
    });
  }
});
