/**
 * `auto_highlights_result` (openapi.yml `AutoHighlightsResult`): key phrases of the transcript with how often
 * each was said, a rank in 0..1 and the time of every mention.
 *
 * Candidates are noun phrases: runs of up to four words that compromise tags as nouns or adjectives (verbs,
 * stopwords and punctuation end a run), so "coffee machine" is a phrase and "machine arrived broken" is not.
 * They are scored as RAKE scores (Rose et al., "Automatic keyword extraction from individual documents",
 * 2010): each word degree / frequency (words that occur inside longer phrases score higher), a phrase the sum
 * of its words, then × how many times it was said, so a phrase repeated through a call outranks one said once.
 * Ranks are divided by the best and rounded to 2 places as the service prints them. Pure numbers are not
 * phrases (the entity model reports those). Results are sorted by rank, then by first mention.
 */
import nlp from 'compromise';
import { WORD_END_PUNCTUATION } from '../derive/edges.js';
import type { TranscriptWord } from '../derive/types.js';
import { STOPWORDS } from './stopwords.js';
import { chunkWords, MAX_CHUNK_WORDS, trimPunctuation, wordsInRange } from './word-spans.js';

export interface AutoHighlightResult {
  count: number;
  rank: number;
  text: string;
  timestamps: { start: number; end: number }[];
}

export interface AutoHighlightsResult {
  status: 'success' | 'unavailable';
  results: AutoHighlightResult[];
}

const MAX_PHRASE_WORDS = 4;
/** The service lists the transcript's main phrases, not every candidate. */
const MAX_RESULTS = 20;

interface Candidate {
  key: string;
  /** Word indices of each mention: [first, last]. */
  mentions: [number, number][];
}

/** A word as a phrase token: lower case without edge punctuation; null for stopwords and non-words. */
function token(text: string): string | null {
  const word = trimPunctuation(text).toLowerCase();
  if (!/[a-z]/.test(word) || STOPWORDS.has(word)) return null;
  return word;
}

/** Which words may be part of a noun phrase, by compromise's tags of the text, chunk by chunk (see `chunkWords`). */
function nominal(words: readonly TranscriptWord[], maxChunkWords: number): boolean[] {
  const eligible = words.map(() => false);
  for (const { spans, first, owned } of chunkWords(words, maxChunkWords)) {
    const terms = nlp(spans.text).terms().json({ offset: true }) as {
      offset: { start: number; length: number };
      terms: { tags: string[] }[];
    }[];
    for (const term of terms) {
      const tags = new Set(term.terms[0]?.tags ?? []);
      if (!(tags.has('Noun') || tags.has('Adjective')) || tags.has('Pronoun') || tags.has('Verb')) continue;
      const range = wordsInRange(spans, term.offset.start, term.offset.start + term.offset.length);
      // Each word is judged in the chunk that owns it; the context words after a cut are judged in their own.
      if (range) for (let i = range[0]; i <= Math.min(range[1], owned - 1); i++) eligible[first + i] = true;
    }
  }
  return eligible;
}

function candidates(words: readonly TranscriptWord[], maxChunkWords: number): Map<string, Candidate> {
  const eligible = nominal(words, maxChunkWords);
  const found = new Map<string, Candidate>();
  let run: number[] = [];
  const add = (indices: readonly number[]) => {
    const key = indices.map((i) => token(words[i]!.text)).join(' ');
    const seen = found.get(key) ?? { key, mentions: [] };
    seen.mentions.push([indices[0]!, indices[indices.length - 1]!]);
    found.set(key, seen);
  };
  const close = () => {
    if (run.length > 0 && run.length <= MAX_PHRASE_WORDS) {
      add(run);
      // An English noun phrase ends in its head, so its shorter endings are mentions too: "new coffee machine"
      // and "broken coffee machine" are two mentions of "coffee machine".
      for (let from = 1; from <= run.length - 2; from++) add(run.slice(from));
    }
    run = [];
  };
  words.forEach((word, i) => {
    if (!eligible[i] || token(word.text) === null) close();
    else {
      run.push(i);
      // A sentence or clause ends a phrase ("damaged. Refund" are two).
      if (WORD_END_PUNCTUATION.has(word.text.at(-1) ?? '')) close();
    }
  });
  close();
  return found;
}

/** `maxChunkWords` bounds what compromise reads at once (tests compare it against one unbounded pass). */
export function extractHighlights(
  words: readonly TranscriptWord[],
  maxChunkWords: number = MAX_CHUNK_WORDS,
): AutoHighlightsResult {
  const found = [...candidates(words, maxChunkWords).values()];
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const candidate of found) {
    const parts = candidate.key.split(' ');
    for (const part of parts) {
      frequency.set(part, (frequency.get(part) ?? 0) + candidate.mentions.length);
      degree.set(part, (degree.get(part) ?? 0) + parts.length * candidate.mentions.length);
    }
  }
  const scored = found.map((candidate) => ({
    candidate,
    score:
      candidate.key.split(' ').reduce((sum, part) => sum + degree.get(part)! / frequency.get(part)!, 0) *
      candidate.mentions.length,
  }));
  const best = Math.max(0, ...scored.map((s) => s.score));
  const results = scored
    .sort((a, b) => b.score - a.score || a.candidate.mentions[0]![0] - b.candidate.mentions[0]![0])
    .slice(0, MAX_RESULTS)
    .map(({ candidate, score }) => {
      const [first, last] = candidate.mentions[0]!;
      return {
        count: candidate.mentions.length,
        rank: Math.round((score / best) * 100) / 100,
        text: trimPunctuation(
          words
            .slice(first, last + 1)
            .map((w) => w.text)
            .join(' '),
        ),
        timestamps: candidate.mentions.map(([from, to]) => ({
          start: words[from]!.start,
          end: words[to]!.end,
        })),
      };
    });
  return { status: 'success', results };
}
