import type { CallAnalysis, SafetyFlag, SentenceView, Sentiment } from '../../shared/api.js';

/** The parts of an AssemblyAI transcript the analysis reads (the sandbox's and the service's alike). */
export interface TranscriptInput {
  id: string;
  text?: string | null | undefined;
  audio_duration?: number | null | undefined;
  sentiment_analysis_results?:
    | readonly {
        text: string;
        start: number;
        end: number;
        sentiment: string;
        confidence: number;
      }[]
    | null
    | undefined;
  content_safety_labels?:
    | {
        status?: string | undefined;
        results?:
          | readonly { text: string; labels: readonly { label: string; confidence: number }[] }[]
          | undefined;
      }
    | null
    | undefined;
}

/** A duration-weighted mean below this is a negative call, above its opposite a positive one. */
export const SENTIMENT_THRESHOLD = 0.15;
/** Content-safety labels below this confidence are not reported. */
export const SAFETY_MIN_CONFIDENCE = 0.5;

export type SentimentAnalysis = Pick<
  CallAnalysis,
  'transcriptId' | 'text' | 'durationMs' | 'sentences' | 'overall' | 'score' | 'counts' | 'safetyFlags'
>;

function asSentiment(value: string): Sentiment {
  return value === 'POSITIVE' || value === 'NEGATIVE' ? value : 'NEUTRAL';
}

export function sentimentValue(sentiment: Sentiment): number {
  return sentiment === 'POSITIVE' ? 1 : sentiment === 'NEGATIVE' ? -1 : 0;
}

/**
 * Per-sentence sentiment, the call's overall sentiment (each sentence weighted by how long it was spoken,
 * so "Thank you." at the end does not outweigh a minute of complaint) and the content-safety flags.
 */
export function analyseSentiment(transcript: TranscriptInput): SentimentAnalysis {
  const sentences: SentenceView[] = (transcript.sentiment_analysis_results ?? []).map((s) => ({
    text: s.text,
    start: s.start,
    end: s.end,
    sentiment: asSentiment(s.sentiment),
    confidence: s.confidence,
  }));
  const counts: Record<Sentiment, number> = { POSITIVE: 0, NEUTRAL: 0, NEGATIVE: 0 };
  let weighted = 0;
  let total = 0;
  for (const s of sentences) {
    counts[s.sentiment] += 1;
    const weight = Math.max(s.end - s.start, 1);
    weighted += sentimentValue(s.sentiment) * weight;
    total += weight;
  }
  const score = total === 0 ? 0 : Math.round((weighted / total) * 1000) / 1000;
  const overall: Sentiment =
    score <= -SENTIMENT_THRESHOLD ? 'NEGATIVE' : score >= SENTIMENT_THRESHOLD ? 'POSITIVE' : 'NEUTRAL';
  const lastEnd = sentences.at(-1)?.end ?? 0;
  return {
    transcriptId: transcript.id,
    text: transcript.text ?? '',
    durationMs: Math.max(Math.round((transcript.audio_duration ?? 0) * 1000), lastEnd),
    sentences,
    overall,
    score,
    counts,
    safetyFlags: safetyFlags(transcript),
  };
}

/** The strongest label of each flagged passage, at or above `SAFETY_MIN_CONFIDENCE`. */
export function safetyFlags(transcript: TranscriptInput): SafetyFlag[] {
  const flags: SafetyFlag[] = [];
  for (const result of transcript.content_safety_labels?.results ?? []) {
    for (const label of result.labels) {
      if (label.confidence < SAFETY_MIN_CONFIDENCE) continue;
      flags.push({ label: label.label, confidence: label.confidence, text: result.text });
    }
  }
  return flags.sort((a, b) => b.confidence - a.confidence);
}

/** The sentence that best says what the call was about: the longest one of the overall sentiment. */
export function keySentence(analysis: Pick<SentimentAnalysis, 'sentences' | 'overall'>): string | null {
  let best: SentenceView | null = null;
  for (const s of analysis.sentences) {
    if (s.sentiment !== analysis.overall) continue;
    if (!best || s.end - s.start > best.end - best.start) best = s;
  }
  return best?.text ?? null;
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export interface SummaryContext {
  orderNumbers: readonly string[];
  customerName: string | null;
}

/** One or two sentences for the dashboard and the order note. */
export function summarise(analysis: SentimentAnalysis, context: SummaryContext): string {
  const who = context.customerName ?? 'An unidentified caller';
  const about =
    context.orderNumbers.length === 0
      ? 'without naming an order'
      : `about order ${context.orderNumbers.map((n) => `#${n}`).join(', ')}`;
  const tone = { NEGATIVE: 'unhappy', POSITIVE: 'happy', NEUTRAL: 'neutral' }[analysis.overall];
  const key = keySentence(analysis);
  const quote = key && analysis.overall !== 'NEUTRAL' ? ` Key line: "${key}"` : '';
  return `${who} called ${about} (${formatDuration(analysis.durationMs)}); the caller sounded ${tone}.${quote}`;
}

/** The private order note: summary, overall sentiment with its sentence counts, content-safety flags. */
export function orderNoteText(analysis: SentimentAnalysis, summary: string): string {
  const { counts } = analysis;
  const flags =
    analysis.safetyFlags.length === 0
      ? 'none'
      : analysis.safetyFlags.map((f) => `${f.label} (${Math.round(f.confidence * 100)}%)`).join(', ');
  return [
    `Support call analysed (transcript ${analysis.transcriptId}).`,
    `Summary: ${summary}`,
    `Overall sentiment: ${analysis.overall} (score ${analysis.score.toFixed(2)}; ${counts.NEGATIVE} negative, ${counts.NEUTRAL} neutral, ${counts.POSITIVE} positive sentences).`,
    `Content safety: ${flags}.`,
  ].join('\n');
}
