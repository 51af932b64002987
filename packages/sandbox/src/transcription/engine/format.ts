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
  if (format_text) out = sentenceCase(mergeNumbers(out));
  const last = out.at(-1);
  if (punctuate && last && !/[.?!]$/.test(last.text)) last.text += '.';
  return out;
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

/** The first word capitalised, and the pronoun "I" (with its contractions) wherever it is. */
function sentenceCase(words: EngineWord[]): EngineWord[] {
  for (const word of words) {
    if (/^i('(m|ll|ve|d))?$/.test(word.text)) word.text = `I${word.text.slice(1)}`;
  }
  const first = words[0];
  if (first) first.text = first.text.charAt(0).toUpperCase() + first.text.slice(1);
  return words;
}
