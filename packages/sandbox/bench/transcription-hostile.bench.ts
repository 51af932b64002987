/**
 * What hostile transcripts cost the transcription emulator's text analysis: entities and key phrases over a long
 * transcript without punctuation (compromise is quadratic in a sentence's length, hence the chunking in
 * word-spans.ts), the same over punctuated text, and the edge-punctuation helpers over megabyte-long words.
 * Wall-clock figures, one run each; the tests assert the bounds (chunk sizes, results), never the times.
 *
 *   cd packages/sandbox && pnpm exec tsx bench/transcription-hostile.bench.ts   (BENCH_WORDS=20000)
 */
import { performance } from 'node:perf_hooks';
import { splitSentences } from '../src/transcription/derive/sentences.js';
import type { TranscriptWord } from '../src/transcription/derive/types.js';
import {
  analyseTranscript,
  detectEntities,
  extractHighlights,
  findActionItems,
} from '../src/transcription/intelligence/index.js';
import { trimPunctuation } from '../src/transcription/intelligence/word-spans.js';
import { applyCustomSpelling } from '../src/transcription/model/word-rules.js';

const WORDS = Number(process.env.BENCH_WORDS ?? 20_000);
const VOCABULARY =
  'my order number 85 arrived broken tom baker called from boston about the coffee machine and wants a refund'.split(
    ' ',
  );

function transcript(count: number, punctuate: boolean): TranscriptWord[] {
  return Array.from({ length: count }, (_, i) => {
    const text = VOCABULARY[i % VOCABULARY.length]!;
    const end = punctuate && i % VOCABULARY.length === VOCABULARY.length - 1;
    return {
      text: end ? `${text}.` : text,
      start: i * 300,
      end: i * 300 + 250,
      confidence: 0.9,
      speaker: null,
    };
  });
}

function time(label: string, run: () => unknown): void {
  const started = performance.now();
  run();
  console.log(`${label.padEnd(58)} ${(performance.now() - started).toFixed(0).padStart(7)} ms`);
}

const flat = transcript(WORDS, false);
const punctuated = transcript(WORDS, true);
time(`entities, ${WORDS} words, no punctuation`, () => detectEntities(flat));
time(`auto_highlights, ${WORDS} words, no punctuation`, () => extractHighlights(flat));
time(`entities, ${WORDS} words, a sentence every ${VOCABULARY.length}`, () => detectEntities(punctuated));
time(`auto_highlights, ${WORDS} words, a sentence every ${VOCABULARY.length}`, () =>
  extractHighlights(punctuated),
);

const MB = 1024 * 1024;
const dotsThenLetter = `${'.'.repeat(MB / 16)}x`;
time('trimPunctuation, 64 KB of "." then a letter', () => trimPunctuation(dotsThenLetter));
time('action items, a sentence ending in 64 KB of ", " then a letter', () =>
  findActionItems([{ text: `I will send the label${', '.repeat(MB / 32)}x`, start: 0 }]),
);
const word = (text: string): TranscriptWord => ({ text, start: 0, end: 250, confidence: 0.9, speaker: null });
time('custom_spelling, a 1 MB "to" and a 64 KB punctuated word', () =>
  applyCustomSpelling(
    [word('hello'), word(`${'!'.repeat(MB / 16)}x`)],
    [{ from: ['hello'], to: 'x'.repeat(MB) }],
  ),
);

const EVERYTHING = {
  sentiment_analysis: true,
  content_safety: true,
  entity_detection: true,
  auto_highlights: true,
  summarization: true,
  language_detection: true,
  speech_understanding: {
    request: {
      action_items: {},
      summarization: {},
      custom_formatting: { date: 'mm/dd/yyyy', phone_number: '(xxx)xxx-xxxx', email: 'username@domain.com' },
      speaker_identification: { speaker_type: 'role', known_values: ['agent', 'customer'] },
    },
  },
};
for (const [label, words] of [
  [`every text feature, ${WORDS} words, no punctuation`, flat],
  [
    'every text feature, a 1 MB word among five',
    [word('my'), word('order'), word('x'.repeat(MB)), word('is'), word('late.')],
  ],
  ['every text feature, a 1 MB word of "a." pairs', [word('hi'), word('a.'.repeat(MB / 2))]],
] as const) {
  time(label, () => analyseTranscript({ params: EVERYTHING, words, sentences: splitSentences(words) }));
}
