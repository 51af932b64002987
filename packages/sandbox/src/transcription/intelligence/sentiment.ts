/**
 * Sentiment per sentence, in the shape of AssemblyAI's `sentiment_analysis_results[]` (openapi.yml
 * `SentimentAnalysisResult`). The real service runs a neural classifier; the emulator scores each sentence with
 * AFINN-165 extended for support calls (sentiment-score.ts), which is deterministic and offline.
 */
import type { TranscriptSentence } from '../derive/types.js';
import { scoreSentence } from './sentiment-score.js';

/** A sentence as the emulator builds it from recognised words (its words are not needed here). */
export type AnalysisSentence = Omit<TranscriptSentence, 'words'>;

/** openapi.yml `Sentiment`. */
export type Sentiment = 'POSITIVE' | 'NEUTRAL' | 'NEGATIVE';

/** openapi.yml `SentimentAnalysisResult` (`additionalProperties: false`, so `channel` is present or absent, never extra). */
export interface SentimentAnalysisResult {
  text: string;
  start: number;
  end: number;
  sentiment: Sentiment;
  confidence: number;
  speaker: string | null;
  channel?: string | null;
}

// The comparative is score per word. A single mild word ("want", "like") in an ordinary-length sentence lands
// below this, which keeps factual statements such as "I want to check my order" NEUTRAL, as the service labels them.
const NEUTRAL_BAND = 0.1;

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * Classifies one text. Exposed for callers that score ad-hoc strings (e.g. utterances) with the same rule.
 *
 * Confidence is the probability-like strength of the chosen class, deterministic and below 1:
 * - polar classes grow with per-token intensity (comparative) and with total evidence (|score|), so one strong word
 *   in a short sentence and several moderate words in a long one both read as confident;
 * - NEUTRAL is most confident at comparative 0 and falls towards 0.55 at the edge of the band, where a polar
 *   reading becomes nearly as plausible.
 */
export function classifySentiment(text: string): { sentiment: Sentiment; confidence: number } {
  const { score, comparative } = scoreSentence(text);
  const intensity = Math.abs(comparative);
  if (score === 0 || intensity < NEUTRAL_BAND) {
    return { sentiment: 'NEUTRAL', confidence: round4(0.95 - 0.4 * (intensity / NEUTRAL_BAND)) };
  }
  const strength = Math.tanh(1.5 * intensity + 0.15 * Math.abs(score));
  return {
    sentiment: score > 0 ? 'POSITIVE' : 'NEGATIVE',
    confidence: round4(Math.min(0.99, 0.5 + 0.49 * strength)),
  };
}

/** One result per sentence, in input order; `channel` is copied only when the sentence carries one. */
export function analyseSentiment(sentences: readonly AnalysisSentence[]): SentimentAnalysisResult[] {
  return sentences.map((sentence) => {
    const { sentiment, confidence } = classifySentiment(sentence.text);
    const result: SentimentAnalysisResult = {
      text: sentence.text,
      start: sentence.start,
      end: sentence.end,
      sentiment,
      confidence,
      speaker: sentence.speaker,
    };
    if (typeof sentence.channel === 'string') result.channel = sentence.channel;
    return result;
  });
}
