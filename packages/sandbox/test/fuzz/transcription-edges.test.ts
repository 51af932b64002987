/**
 * Fuzzing the linear edge-punctuation helpers of the transcription emulator (fast-check) against the regular
 * expressions they replaced, which are exact on short strings (only their cost on long runs was wrong): the same
 * result for any text of punctuation, quotes, apostrophes, letters and white space.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { splitTrailing, WORD_END_PUNCTUATION } from '../../src/transcription/derive/edges.js';
import { normalizeToken } from '../../src/transcription/derive/word-search.js';
import { trimPunctuation } from '../../src/transcription/intelligence/word-spans.js';

const text = fc
  .array(
    fc.constantFrom(
      '.',
      ',',
      '!',
      '?',
      ';',
      ':',
      '"',
      "'",
      '“',
      '”',
      '‘',
      '’',
      ' ',
      '\t',
      'a',
      'Z',
      '5',
      'é',
      '/',
      // A combining mark after punctuation, an astral character, and both halves of a surrogate pair alone.
      '\u0301',
      '\u{1F600}',
      '\uD83D',
      '\uDE00',
    ),
    {
      maxLength: 40,
    },
  )
  .map((chars) => chars.join(''));

describe('edge punctuation helpers agree with the patterns they replaced', () => {
  for (const run of fuzzRuns(1000)) {
    it(`trimPunctuation, splitTrailing, normalizeToken ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(text, (input) => {
          n += 1;
          expect(trimPunctuation(input)).toBe(input.replace(/^["'“‘]+|[.,!?;:"'”’]+$/g, ''));
          const trailing = /[.,!?;:]+$/.exec(input)?.[0] ?? '';
          expect(splitTrailing(input, WORD_END_PUNCTUATION)).toEqual([
            input.slice(0, input.length - trailing.length),
            trailing,
          ]);
          expect(normalizeToken(input)).toBe(
            input
              .toLowerCase()
              .replace(/[’‘`]/g, "'")
              .replace(/[^\p{L}\p{N}']+/gu, '')
              .replace(/^'+|'+$/g, ''),
          );
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription edge punctuation', run, n);
    });
  }
});
