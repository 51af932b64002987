/**
 * The transcription emulator's text analysis stays linear in what a hostile client sends: compromise reads the
 * transcript in bounded chunks (each word exactly once, no chunk over MAX_CHUNK_WORDS words or its character
 * bound), chunking changes no result on ordinary text, and edge punctuation is trimmed correctly on words of a
 * megabyte. Bounds and results only; the times are in bench/transcription-hostile.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/transcription/derive/sentences.js';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { normalizeToken } from '../../src/transcription/derive/word-search.js';
import {
  detectEntities,
  extractHighlights,
  findActionItems,
} from '../../src/transcription/intelligence/index.js';
import {
  CONTEXT_WORDS,
  chunkWords,
  MAX_CHUNK_WORDS,
  MAX_TAGGED_WORD_CHARS,
  trimPunctuation,
} from '../../src/transcription/intelligence/word-spans.js';
import { redactWords } from '../../src/transcription/model/redaction.js';
import { applyCustomSpelling, filterProfanity } from '../../src/transcription/model/word-rules.js';

const MB = 1024 * 1024;
const word = (text: string, i = 0): TranscriptWord => ({
  text,
  start: i * 300,
  end: i * 300 + 250,
  confidence: 0.9,
  speaker: null,
});
const SENTENCES = [
  'Hi this is Tom Baker from Boston.',
  'My order number 85 arrived broken on Monday, March 3rd.',
  'The new coffee machine cost $40 and I want a refund.',
  'Sarah Jones at Microsoft said she will send a label.',
  'Please call me back at 5551234 or write to tom at example dot com.',
  'The coffee machine is still broken and the refund is late!',
];
const said = (count: number, punctuate: boolean): TranscriptWord[] => {
  const texts = SENTENCES.join(' ').split(' ');
  return Array.from({ length: count }, (_, i) => {
    const text = texts[i % texts.length]!;
    return word(punctuate ? text : text.replace(/[.,!?]$/, ''), i);
  });
};

/** Which chunk owns each word: every word index exactly once, in order. */
function coverage(words: readonly TranscriptWord[]) {
  const chunks = chunkWords(words);
  const seen: number[] = [];
  for (const { first, owned } of chunks) for (let k = 0; k < owned; k++) seen.push(first + k);
  return { chunks, seen };
}

describe('compromise reads bounded chunks', () => {
  it('a 20,000-word transcript without punctuation: each word once, no chunk over the bound', () => {
    const words = said(20_000, false);
    const { chunks, seen } = coverage(words);
    expect(seen).toEqual(words.map((_, i) => i));
    for (const { spans, owned } of chunks) {
      expect(owned).toBeLessThanOrEqual(MAX_CHUNK_WORDS);
      expect(spans.words.length).toBeLessThanOrEqual(MAX_CHUNK_WORDS + CONTEXT_WORDS);
      expect(spans.text.length).toBeLessThanOrEqual(
        (MAX_CHUNK_WORDS + CONTEXT_WORDS) * (MAX_TAGGED_WORD_CHARS + 1),
      );
    }
    // Total work is the chunks' sizes: linear, ceil(n / bound) chunks of at most the bound each.
    expect(chunks.length).toBe(Math.ceil(words.length / MAX_CHUNK_WORDS));
  });

  it('punctuated text is cut only after a sentence end, and a short transcript is one chunk', () => {
    const words = said(5_000, true);
    const { chunks, seen } = coverage(words);
    expect(seen).toEqual(words.map((_, i) => i));
    for (const { spans, owned } of chunks.slice(0, -1)) {
      // Cut after a sentence end, so nothing of the next chunk is read as context.
      expect(spans.words).toHaveLength(owned);
      expect(spans.words.at(-1)!.text).toMatch(/[.!?]$/);
    }
    expect(chunkWords(said(MAX_CHUNK_WORDS, true))).toHaveLength(1);
  });

  it('a megabyte-long word is shown to compromise as a short stand-in, with its own word kept', () => {
    const words = [word('my'), word('x'.repeat(MB)), word('order')];
    const [chunk] = chunkWords(words);
    expect(chunk!.spans.text.length).toBeLessThan(100);
    expect(detectEntities(words)).toEqual([]);
    expect(extractHighlights(words).results.every((r) => r.text.length < 100)).toBe(true);
  });

  it('chunking changes no entity or key phrase on a long punctuated transcript', () => {
    const words = said(1_500, true);
    expect(detectEntities(words)).toEqual(detectEntities(words, Number.POSITIVE_INFINITY));
    expect(extractHighlights(words)).toEqual(extractHighlights(words, Number.POSITIVE_INFINITY));
    expect(detectEntities(words).length).toBeGreaterThan(0);
  });

  it('still finds entities throughout a 20,000-word transcript without punctuation', () => {
    const found = detectEntities(said(20_000, false));
    const names = found.filter((e) => e.entity_type === 'person_name');
    // "tom baker" is said once per 60 words (compromise does not tag every mention in unpunctuated text).
    expect(names.length).toBeGreaterThan(20_000 / 60 - 20_000 / MAX_CHUNK_WORDS - 1);
  });

  it("a name or place said across a cut without punctuation is found whole, with its own words' times", () => {
    const filler = 'we talked about the weather and the house and the garden'.split(' ');
    const texts = Array.from({ length: 30 }, (_, i) => filler[i % filler.length]!);
    texts.push('tom', 'went', 'to', 'new', 'york', 'with', 'barack', 'obama', 'yesterday');
    const words = texts.map((text, i) => word(text, i));
    const at = (first: number, last: number) => [words[first]!.start, words[last]!.end];
    // Every cut from before "tom" to after "obama" ("new | york", "barack | obama" included). compromise reads
    // a little context past a cut, not the whole text, so only the entities across the cut are compared.
    for (let max = 28; max <= 40; max++) {
      const found = detectEntities(words, max);
      const times = (text: string) => found.filter((e) => e.text === text).map((e) => [e.start, e.end]);
      expect(times('new york')).toEqual([at(33, 34)]);
      expect(times('barack obama')).toEqual([at(36, 37)]);
      expect(found.some((e) => e.text === 'york' || e.text === 'obama')).toBe(false);
      for (const e of found) {
        const first = words.findIndex((w) => w.start === e.start);
        const last = words.findIndex((w) => w.end === e.end);
        expect(
          words
            .slice(first, last + 1)
            .map((w) => w.text)
            .join(' '),
        ).toBe(e.text);
      }
      expect(extractHighlights(words, max).results.map((r) => r.text)).toContain('new york');
    }
  });
});

describe('edge punctuation on huge words (linear loops, same results)', () => {
  const dots = '.'.repeat(MB);
  it('trimPunctuation', () => {
    expect(trimPunctuation(`"“x${dots}”'`)).toBe('x');
    expect(trimPunctuation(`${dots}x`)).toBe(`${dots}x`);
    expect(trimPunctuation(dots)).toBe('');
    expect(trimPunctuation(`'${'a'.repeat(MB)}'`)).toBe('a'.repeat(MB));
  });

  it('custom_spelling with a 1 MB `to`, and words of punctuation then a letter', () => {
    const to = 'y'.repeat(MB);
    const out = applyCustomSpelling([word('hello!!'), word(`${'!'.repeat(MB)}x`)], [{ from: ['hello'], to }]);
    expect(out.map((w) => w.text)).toEqual([`${to}!!`, `${'!'.repeat(MB)}x`]);
  });

  it('profanity filter and redaction keep a megabyte of trailing punctuation apart from the word', () => {
    expect(filterProfanity([word(`shit${dots}`)])[0]!.text).toBe(`s***${dots}`);
    const redacted = redactWords([word(`5551234${dots}`), word(`${dots}5`)], {
      redact_pii_policies: ['phone_number'],
    });
    expect(redacted.map((w) => w.text)).toEqual([`#######${dots}`, `${dots}5`]);
  });

  it('an action item followed by a megabyte of ", " loses it; search tokens lose edge apostrophes', () => {
    const [item] = findActionItems([{ text: `I will send the label${', '.repeat(MB / 2)}`, start: 0 }]);
    expect(item!.action_item).toBe('Send the label.');
    expect(
      findActionItems([{ text: `I will send${', '.repeat(MB / 2)}x`, start: 0 }])[0]!.action_item,
    ).toMatch(/^Send, , .*x\.$/);
    expect(normalizeToken(`x${"'".repeat(MB)}y${"'".repeat(MB)}`)).toBe(`x${"'".repeat(MB)}y`);
  });

  it('sentences split the same around a megabyte of punctuation', () => {
    expect(splitSentences([word('hi'), word(`${dots}x`), word('bye.')]).map((s) => s.text)).toEqual([
      `hi ${dots}x bye.`,
    ]);
  });
});
