import { findNumberRuns } from './numbers.js';
import type { EngineWord } from './types.js';

export interface FormatOptions {
  /** Default true, as on the service. */
  punctuate?: boolean;
  /** Default true, as on the service. */
  format_text?: boolean;
}

/**
 * The service's `format_text` and `punctuate` applied to recognised words, so downstream code that looks for
 * "order number 456" works on the emulator as on the service. The words are formatted, not only the text:
 * the service's `words[]` carry the same tokens as `text` (a number is one word, the last word has the period),
 * and sentences, subtitles and word search are built from `words[]`.
 */
export function formatWords(words: readonly EngineWord[], options: FormatOptions = {}): EngineWord[] {
  const { punctuate = true, format_text = true } = options;
  let out = words.map((word) => ({ ...word }));
  if (format_text) out = mergeNumbers(out);
  if (punctuate) endSentences(out);
  if (format_text) sentenceCase(out);
  return out;
}

/**
 * Silence that ends a sentence. PocketSphinx gives no punctuation, only word times: within a sentence
 * flite's words follow each other about 10 ms apart and a full stop leaves about 200 ms, and people pause
 * longer than that between sentences, so a pause this long is read as a full stop.
 */
export const SENTENCE_PAUSE_MS = 150;

/** A full stop before each long pause and at the end, so sentences, sentiment and captions have units. */
function endSentences(words: EngineWord[]): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as EngineWord;
    const next = words[i + 1];
    const last = next === undefined || next.start - word.end >= SENTENCE_PAUSE_MS;
    if (last && !/[.?!]$/.test(word.text)) word.text += '.';
  }
}

/** The transcript text of formatted words. */
export function joinWords(words: readonly EngineWord[]): string {
  return words.map((word) => word.text).join(' ');
}

/** Each run of number words becomes one word spanning them, with the least confident word's confidence. */
function mergeNumbers(words: EngineWord[]): EngineWord[] {
  const runs = findNumberRuns(words.map((word) => word.text.toLowerCase()));
  if (runs.length === 0) return words;
  const out: EngineWord[] = [];
  let at = 0;
  for (const run of runs) {
    out.push(...words.slice(at, run.start));
    const spoken = words.slice(run.start, run.end);
    out.push({
      text: run.digits,
      start: (spoken[0] as EngineWord).start,
      end: (spoken.at(-1) as EngineWord).end,
      confidence: Math.min(...spoken.map((word) => word.confidence)),
    });
    at = run.end;
  }
  out.push(...words.slice(at));
  return out;
}

/** The first word of each sentence capitalised, and the pronoun "I" (with its contractions) wherever it is. */
function sentenceCase(words: EngineWord[]): EngineWord[] {
  let starts = true;
  for (const word of words) {
    if (/^i('(m|ll|ve|d))?[.?!]?$/.test(word.text)) word.text = `I${word.text.slice(1)}`;
    if (starts) word.text = word.text.charAt(0).toUpperCase() + word.text.slice(1);
    starts = /[.?!]$/.test(word.text);
  }
  return words;
}
