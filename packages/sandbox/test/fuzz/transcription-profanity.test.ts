/**
 * Fuzzing the word-end profanity matcher and `filter_profanity` (fast-check) over words built from swearing stems,
 * inflections, compounds, innocent words, apostrophes, punctuation and astral characters: a possessive or dropped-g
 * apostrophe never changes a verdict, a sentence counts what its words count, and masking keeps every word's
 * times, its length in UTF-16 units and well-formed text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { countProfanity, isProfane } from '../../src/transcription/intelligence/index.js';
import { filterProfanity } from '../../src/transcription/model/word-rules.js';

const part = fc.constantFrom(
  'fuck',
  'shit',
  'cum',
  'dick',
  'cock',
  'ass',
  'in',
  'ing',
  'er',
  'head',
  'pit',
  'tail',
  'min',
  'bull',
  'class',
  'hello',
  'e',
  'x',
  'Q',
  'é',
  '\u{1F92C}',
);
/** A word: letters and stems, never ending in an apostrophe (the property appends one). */
const bareWord = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('profanity at word ends', () => {
  for (const run of fuzzRuns(300)) {
    it(`apostrophe endings, sentence counts and masking ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(
          fc.array(bareWord, { minLength: 1, maxLength: 6 }),
          fc.constantFrom("'s", '’s', "'", '’'),
          fc.constantFrom('', '.', ',', '!', '?'),
          (words, apostrophe, punctuation) => {
            n += 1;
            for (const w of words) expect(isProfane(w + apostrophe)).toBe(isProfane(w));
            // A hit never reaches across the space between two words.
            const each = words.reduce((sum, w) => sum + countProfanity(w), 0);
            expect(countProfanity(words.join(' '))).toBe(each);
            const said: TranscriptWord[] = words.map((w, i) => ({
              text: w + punctuation,
              start: i * 300,
              end: i * 300 + 250,
              confidence: 0.5 + i / 100,
              speaker: null,
            }));
            const masked = filterProfanity(said);
            expect(masked).toHaveLength(said.length);
            masked.forEach((m, i) => {
              expect({ ...m, text: said[i]!.text }).toEqual(said[i]);
              expect(m.text.length).toBe(said[i]!.text.length);
              expect(m.text).not.toMatch(LONE_SURROGATE);
              expect(m.text === said[i]!.text).toBe(!isProfane(words[i]!) || words[i]!.length < 2);
            });
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription profanity', run, n);
    });
  }
});
