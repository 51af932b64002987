/**
 * The transcript's words as one string with each word's character range, so a finding in the text (a
 * compromise match, a regular expression) maps back to the words it covers and their times. Findings are
 * always reported as whole words: their text is a run of the transcript's own words, so it occurs in `text`.
 */
import type { TranscriptWord } from '../derive/types.js';

export interface WordSpans {
  /** The words joined by single spaces, as `text` is built. */
  text: string;
  words: readonly TranscriptWord[];
  /** Character offset of each word in `text`. */
  starts: readonly number[];
}

export function wordSpans(words: readonly TranscriptWord[]): WordSpans {
  const starts: number[] = [];
  let at = 0;
  for (const word of words) {
    starts.push(at);
    at += word.text.length + 1;
  }
  return { text: words.map((w) => w.text).join(' '), words, starts };
}

/** Indices [first, last] of the words that overlap characters [from, to), or null when none does. */
export function wordsInRange(spans: WordSpans, from: number, to: number): [number, number] | null {
  const { starts, words } = spans;
  // The first word ending after `from`, by binary search: findings are looked up once each, on long texts too.
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! + words[mid]!.text.length <= from) low = mid + 1;
    else high = mid;
  }
  let last = low - 1;
  while (last + 1 < words.length && starts[last + 1]! < to) last += 1;
  return last >= low ? [low, last] : null;
}

/** Edge punctuation a finding does not include ("Boston." -> "Boston"). */
export function trimPunctuation(text: string): string {
  return text.replace(/^["'“‘]+|[.,!?;:"'”’]+$/g, '');
}

/** The words [first, last] as one finding: their text without edge punctuation, their first start and last end. */
export function spanOf(
  spans: WordSpans,
  first: number,
  last: number,
): { text: string; start: number; end: number } {
  const words = spans.words.slice(first, last + 1);
  return {
    text: trimPunctuation(words.map((w) => w.text).join(' ')),
    start: words[0]!.start,
    end: words[words.length - 1]!.end,
  };
}
