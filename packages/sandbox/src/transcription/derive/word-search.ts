import { trailingStart } from './edges.js';
import type { TranscriptWord } from './types.js';

const APOSTROPHE: ReadonlySet<string> = new Set("'");

/** openapi.yml `WordSearchMatch`. */
export interface WordSearchMatch {
  text: string;
  count: number;
  /** `[start, end]` in ms; a phrase spans its first word's start to its last word's end. */
  timestamps: [number, number][];
  /** Index in `words[]` of each match's first word. */
  indexes: number[];
}

/** openapi.yml `WordSearchResponse` without `id`, which the endpoint adds. */
export interface WordSearchResult {
  total_count: number;
  matches: WordSearchMatch[];
}

/**
 * The service takes "words, numbers, or phrases containing up to five words" (openapi.yml word-search).
 * Enforcing it (a 400) is the endpoint's job; this function matches any length.
 */
export const MAX_SEARCH_PHRASE_WORDS = 5;

/**
 * The service's `/word-search`. A query matches consecutive words compared without case or punctuation, so
 * "hopkins" finds "Hopkins" and "wildfires" finds "wildfires." (go-sdk testdata/transcript/word-search.json
 * against completed.json: indexes 68/835 and 716), and "456" finds "456.".
 *
 * Queries come back in the order asked (as in that sample), each once; a query with no match is left out, as
 * in AssemblyAI's word-search guide, where searching "water,air,earth,fire" returns only air and water. A
 * match's `text` is the query in lower case, like the samples' "hopkins" and "smoke" for "Hopkins"/"Smoke".
 * Occurrences of a phrase do not overlap: "ha ha" in "ha ha ha" counts once.
 */
export function searchWords(words: readonly TranscriptWord[], queries: readonly string[]): WordSearchResult {
  const tokens = words.map((word) => normalizeToken(word.text));
  const seen = new Set<string>();
  const matches: WordSearchMatch[] = [];
  for (const query of queries) {
    const text = query.trim().replace(/\s+/g, ' ').toLowerCase();
    const phrase = text.split(' ').map(normalizeToken).filter(Boolean);
    const key = phrase.join(' ');
    if (phrase.length === 0 || seen.has(key)) continue;
    seen.add(key);
    const match: WordSearchMatch = { text, count: 0, timestamps: [], indexes: [] };
    for (let i = 0; i + phrase.length <= tokens.length; i++) {
      if (!phrase.every((token, j) => tokens[i + j] === token)) continue;
      match.count++;
      match.timestamps.push([words[i]!.start, words[i + phrase.length - 1]!.end]);
      match.indexes.push(i);
      i += phrase.length - 1;
    }
    if (match.count > 0) matches.push(match);
  }
  return { total_count: matches.reduce((sum, match) => sum + match.count, 0), matches };
}

/**
 * A word as search compares it: lower case, letters and digits only, inner apostrophes kept so "it's" and
 * "its" stay apart. Separators inside numbers go too, so "1,000" and "1000" are the same.
 */
export function normalizeToken(text: string): string {
  const token = text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, '')
    .replace(/^'+/, '');
  // The end's apostrophes by a loop: `'+$` retries at every apostrophe of a long run (quadratic).
  return token.slice(0, trailingStart(token, APOSTROPHE));
}
