/**
 * `language_confidence` for `language_detection`, and the service's refusal below
 * `language_confidence_threshold`. The emulator's recogniser knows English only, so the detected language is
 * always "en"; how sure that is comes from the words: the share of recognised words an English lexicon knows
 * (compromise's, plus numbers and function words), weighed by the recogniser's mean word confidence. Noise
 * recognised as scattered rare words scores low; clear English speech close to 1.
 */
import nlp from 'compromise';
import type { TranscriptWord } from '../derive/types.js';
import { STOPWORDS } from './stopwords.js';
import { trimPunctuation } from './word-spans.js';

/** The only language the emulator detects. */
export const DETECTED_LANGUAGE = 'en';

/** The transcript ends in `error` with this text, as the service words it (automatic-language-detection docs). */
export class LanguageConfidenceError extends Error {
  constructor(confidence: number, threshold: number) {
    super(
      `detected language '${DETECTED_LANGUAGE}', confidence ${confidence.toFixed(4)}, is below the requested confidence threshold value of '${threshold}'`,
    );
    this.name = 'LanguageConfidenceError';
  }
}

// The only module-level state: compromise's lexicon (about 24,000 words), looked up on first use.
let lexicon: Readonly<Record<string, unknown>> | undefined;

function known(word: string): boolean {
  lexicon ??= (nlp.model() as { one: { lexicon: Record<string, unknown> } }).one.lexicon;
  if (/^[\d$%.,:/-]+$/.test(word) || STOPWORDS.has(word) || Object.hasOwn(lexicon, word)) return true;
  // Regular inflections of a known stem ("arrived", "boxes", "quickly"); compromise lists base forms mostly.
  for (const [suffix, stem] of [
    ['ies', 'y'],
    ['es', ''],
    ['s', ''],
    ['ed', ''],
    ['ed', 'e'],
    ['ing', ''],
    ['ing', 'e'],
    ['ly', ''],
    ["'s", ''],
  ] as const) {
    if (word.endsWith(suffix) && Object.hasOwn(lexicon, word.slice(0, -suffix.length) + stem)) return true;
  }
  return false;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** 0..1, or null when nothing was said (no language to detect). */
export function languageConfidence(words: readonly TranscriptWord[]): number | null {
  if (words.length === 0) return null;
  let knownWords = 0;
  let confidence = 0;
  for (const word of words) {
    if (known(trimPunctuation(word.text).toLowerCase())) knownWords += 1;
    confidence += Number.isFinite(word.confidence) ? Math.min(1, Math.max(0, word.confidence)) : 0;
  }
  // The lexicon share decides; the recogniser's confidence moves it by at most 40% of itself.
  return round4((knownWords / words.length) * (0.6 + (0.4 * confidence) / words.length));
}
