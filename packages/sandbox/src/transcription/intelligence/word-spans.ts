/**
 * The transcript's words as one string with each word's character range, so a finding in the text (a
 * compromise match, a regular expression) maps back to the words it covers and their times. Findings are
 * always reported as whole words: their text is a run of the transcript's own words, so it occurs in `text`.
 */
import { trimEdges } from '../derive/edges.js';
import { endsSentence } from '../derive/sentences.js';
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

const OPENING = new Set('"\'“‘');
const CLOSING = new Set('.,!?;:"\'”’');

/** Edge punctuation a finding does not include ("Boston." -> "Boston"), in one pass over each edge. */
export function trimPunctuation(text: string): string {
  return trimEdges(text, OPENING, CLOSING);
}

/**
 * Most words compromise is given at once. Its tagging costs grow with the square of a sentence's length (a
 * 20,000-word transcript without punctuation took 30 s, bench/transcription-hostile.bench.ts), so the text
 * goes to it in chunks of whole sentences up to this many words, and a longer run without a sentence end
 * is cut here. A transcript this short is one chunk, analysed exactly as before.
 */
export const MAX_CHUNK_WORDS = 400;

/**
 * Longest word compromise is shown as it is. Its tokenizer is quadratic in a word's length too (a 32 KB word
 * "a.a.a..." took 2 s, one of a megabyte minutes); a word that long is no name, place or phrase, so it is
 * shown as "and", which compromise tags as none of them and which ends a phrase.
 */
export const MAX_TAGGED_WORD_CHARS = 100;
const STAND_IN = 'and';

/**
 * Words after a cut made without a sentence end that compromise also reads, so a name or phrase said across the
 * cut ("New | York") is tagged whole; findings are kept only where they start in the chunk's own words.
 */
export const CONTEXT_WORDS = 8;

/**
 * One chunk: its words as spans (long words stood in for), the index of its first word in the transcript, and how
 * many of the spans' words are its own; the rest (at most CONTEXT_WORDS, only after a cut without a sentence
 * end) belong to the next chunk and are there as context.
 */
export interface Chunk {
  spans: WordSpans;
  first: number;
  owned: number;
}

/**
 * The words in consecutive chunks of at most `max` own words, each word owned by exactly one, cut after the last
 * sentence end that fits (or at `max` words when none does, with CONTEXT_WORDS more to read). Linear: each word
 * is looked at at most twice.
 */
export function chunkWords(words: readonly TranscriptWord[], max = MAX_CHUNK_WORDS): Chunk[] {
  const chunks: Chunk[] = [];
  const limit = Math.max(1, Math.floor(max));
  let first = 0;
  let lastEnd = -1;
  const cut = (last: number) => {
    const context = last === lastEnd ? 0 : CONTEXT_WORDS;
    const shown = words
      .slice(first, Math.min(words.length, last + 1 + context))
      .map((word) => (word.text.length > MAX_TAGGED_WORD_CHARS ? { ...word, text: STAND_IN } : word));
    chunks.push({ spans: wordSpans(shown), first, owned: last + 1 - first });
    first = last + 1;
    lastEnd = -1;
  };
  for (let i = 0; i < words.length; i++) {
    if (endsSentence(words[i]!.text)) lastEnd = i;
    if (i - first + 1 === limit && i + 1 < words.length) cut(lastEnd >= first ? lastEnd : i);
  }
  if (first < words.length) cut(words.length - 1);
  return chunks;
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
