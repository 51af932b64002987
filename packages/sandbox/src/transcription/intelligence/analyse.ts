/**
 * Everything the transcript's text-level intelligence adds, computed from the final words and sentences
 * (after custom spelling, profanity filtering and redaction, as the service computes them). One place, so the
 * job runner asks for "the intelligence" and the features stay beside each other.
 */
import type { TranscriptSentence, TranscriptWord } from '../derive/types.js';
import { analyseContentSafety } from './content-safety.js';
import { analyseSentiment } from './sentiment.js';

/** The fields of `TranscriptResult` this module owns, wire-shaped. */
export interface TranscriptIntelligence {
  sentiment_analysis_results: unknown[] | null;
  content_safety_labels: unknown | null;
  entities: unknown[] | null;
  auto_highlights_result: unknown | null;
  iab_categories_result: unknown | null;
}

export interface IntelligenceInput {
  params: Record<string, unknown>;
  words: readonly TranscriptWord[];
  sentences: readonly TranscriptSentence[];
}

export function analyseTranscript({ params, sentences }: IntelligenceInput): TranscriptIntelligence {
  return {
    sentiment_analysis_results: params.sentiment_analysis === true ? analyseSentiment(sentences) : null,
    content_safety_labels:
      params.content_safety === true
        ? analyseContentSafety(sentences, {
            confidenceThreshold:
              typeof params.content_safety_confidence === 'number' ? params.content_safety_confidence : 50,
          })
        : null,
    // Models the emulator does not have report so in the service's own way rather than inventing results.
    entities: params.entity_detection === true ? [] : null,
    auto_highlights_result: params.auto_highlights === true ? { status: 'unavailable', results: [] } : null,
    iab_categories_result:
      params.iab_categories === true ? { status: 'unavailable', results: [], summary: {} } : null,
  };
}
