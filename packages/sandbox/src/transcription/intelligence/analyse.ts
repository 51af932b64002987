/**
 * Everything the transcript's text-level intelligence adds, computed from the final words and sentences
 * (after custom spelling, profanity filtering and redaction, as the service computes them). One place, so the
 * job runner asks for "the intelligence" and the features stay beside each other.
 */
import type { TranscriptSentence, TranscriptWord } from '../derive/types.js';
import { analyseContentSafety } from './content-safety.js';
import { detectEntities } from './entities.js';
import { extractHighlights } from './highlights.js';
import { LanguageConfidenceError, languageConfidence } from './language.js';
import { analyseSentiment } from './sentiment.js';
import { type SummaryType, summarise } from './summarise.js';
import { understand } from './understanding.js';

/** The fields of `TranscriptResult` this module owns, wire-shaped. */
export interface TranscriptIntelligence {
  sentiment_analysis_results: unknown[] | null;
  content_safety_labels: unknown | null;
  entities: unknown[] | null;
  auto_highlights_result: unknown | null;
  iab_categories_result: unknown | null;
  /** With `language_detection`: how sure the detection of English is, 0..1. */
  language_confidence: number | null;
  /** The request's `speech_understanding` echoed with its `response`, when one was asked for. */
  speech_understanding?: unknown;
  /** A translation task's texts by target language (top-level `translated_texts` on the wire). */
  translated_texts?: Record<string, string>;
  /** The legacy `summarization: true` summary, in `summary_type`'s form. */
  summary: string | null;
}

export interface IntelligenceInput {
  params: Record<string, unknown>;
  words: readonly TranscriptWord[];
  sentences: readonly TranscriptSentence[];
}

/**
 * Throws `LanguageConfidenceError` when `language_detection` is on and the confidence is below a non-zero
 * `language_confidence_threshold`: the service ends such a transcript in `error` with that message.
 */
export function analyseTranscript({ params, words, sentences }: IntelligenceInput): TranscriptIntelligence {
  const language = params.language_detection === true ? languageConfidence(words) : null;
  const threshold =
    typeof params.language_confidence_threshold === 'number' ? params.language_confidence_threshold : 0;
  // language_detection_options.on_low_language_confidence: "error" (the default) or "fallback" (SDK 4.41.5),
  // which keeps the transcript; the fallback language can only be the English the recogniser heard.
  const options = params.language_detection_options as
    | { on_low_language_confidence?: unknown }
    | null
    | undefined;
  const fallback = options?.on_low_language_confidence === 'fallback';
  if (language !== null && language < threshold && !fallback)
    throw new LanguageConfidenceError(language, threshold);
  const understanding =
    params.speech_understanding === undefined
      ? undefined
      : understand(params.speech_understanding, words, sentences);
  return {
    sentiment_analysis_results: params.sentiment_analysis === true ? analyseSentiment(sentences) : null,
    content_safety_labels:
      params.content_safety === true
        ? analyseContentSafety(sentences, {
            confidenceThreshold:
              typeof params.content_safety_confidence === 'number' ? params.content_safety_confidence : 50,
          })
        : null,
    entities: params.entity_detection === true ? detectEntities(words) : null,
    auto_highlights_result: params.auto_highlights === true ? extractHighlights(words) : null,
    // Topic classification needs the IAB taxonomy and a model the emulator does not have: reported as the
    // service reports a model that could not run, rather than invented.
    iab_categories_result:
      params.iab_categories === true ? { status: 'unavailable', results: [], summary: {} } : null,
    language_confidence: language,
    ...(understanding ?? {}),
    summary:
      params.summarization === true
        ? summarise(
            sentences,
            (typeof params.summary_type === 'string' ? params.summary_type : 'bullets') as SummaryType,
          )
        : null,
  };
}
