import type { CallAnalysis, CallerIdentity, SafetyFlag, SentenceView, Sentiment } from '../../shared/api.js';
import { type InsightsInput, insights } from './insights.js';
import { identifySpeakers, roleAt, type SpeakerInput, utteranceViews } from './speakers.js';

/** The parts of an AssemblyAI transcript the analysis reads (the sandbox's and the service's alike). */
export interface TranscriptInput extends SpeakerInput, InsightsInput {
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
        speaker?: string | null | undefined;
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
  | 'transcriptId'
  | 'text'
  | 'durationMs'
  | 'sentences'
  | 'overall'
  | 'score'
  | 'counts'
  | 'safetyFlags'
  | 'utterances'
  | 'customerSpeaker'
  | 'serviceSummary'
  | 'actionItems'
  | 'entities'
>;

function asSentiment(value: string): Sentiment {
  return value === 'POSITIVE' || value === 'NEGATIVE' ? value : 'NEUTRAL';
}

export function sentimentValue(sentiment: Sentiment): number {
  return sentiment === 'POSITIVE' ? 1 : sentiment === 'NEGATIVE' ? -1 : 0;
}

/**
 * Per-sentence sentiment with who said it, the customer's overall sentiment (each of their sentences
 * weighted by how long it was spoken, so "Thank you." at the end does not outweigh a minute of complaint),
 * the content-safety flags and what the service understood (summary, action items, entities). The agent's
 * politeness is not the customer's mood, so only the customer's sentences count, or every sentence when the
 * voices are not told apart.
 */
export function analyseSentiment(transcript: TranscriptInput): SentimentAnalysis {
  const who = identifySpeakers(transcript);
  const sentences: SentenceView[] = (transcript.sentiment_analysis_results ?? []).map((s) => ({
    text: s.text,
    start: s.start,
    end: s.end,
    sentiment: asSentiment(s.sentiment),
    confidence: s.confidence,
    speaker: roleAt(s, transcript, who.roles),
  }));
  const customer = sentences.filter((s) => s.speaker !== 'Agent');
  const counts: Record<Sentiment, number> = { POSITIVE: 0, NEUTRAL: 0, NEGATIVE: 0 };
  let weighted = 0;
  let total = 0;
  for (const s of customer) {
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
    utterances: utteranceViews(transcript, who.roles),
    customerSpeaker: who.customer,
    ...insights(transcript),
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

/** The sentence that best says what the call was about: the customer's longest of the overall sentiment. */
export function keySentence(analysis: Pick<SentimentAnalysis, 'sentences' | 'overall'>): string | null {
  let best: SentenceView | null = null;
  for (const s of analysis.sentences) {
    if (s.sentiment !== analysis.overall || s.speaker === 'Agent') continue;
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
  identity: CallerIdentity;
}

/** "caller said Tom Baker; order #85 belongs to Amara Okafor", or null when they agree or one is unknown. */
export function identityMismatch(identity: CallerIdentity): string | null {
  if (identity.matches !== false) return null;
  return `caller said ${identity.spoken}; order #${identity.orderNumber} belongs to ${identity.onRecord}`;
}

/** One or two sentences for the dashboard and the order note. */
export function summarise(analysis: SentimentAnalysis, context: SummaryContext): string {
  const { identity } = context;
  const mismatch = identityMismatch(identity);
  // Neither name wins silently: a caller who is not the order's customer is named as what they said.
  const who = mismatch
    ? `A caller giving the name ${identity.spoken}`
    : (identity.onRecord ?? identity.spoken ?? 'An unidentified caller');
  const about =
    context.orderNumbers.length === 0
      ? 'without naming an order'
      : `about order ${context.orderNumbers.map((n) => `#${n}`).join(', ')}`;
  const tone = { NEGATIVE: 'unhappy', POSITIVE: 'happy', NEUTRAL: 'neutral' }[analysis.overall];
  const key = keySentence(analysis);
  const quote = key && analysis.overall !== 'NEUTRAL' ? ` Key line: "${key}"` : '';
  const warning = mismatch ? ` Check who called: ${mismatch}.` : '';
  return `${who} called ${about} (${formatDuration(analysis.durationMs)}); the customer sounded ${tone}.${quote}${warning}`;
}

/**
 * What WooCommerce keeps of a note: its `comment_content` is a MySQL TEXT column, 65,535 bytes of UTF-8, and
 * WordPress refuses a longer value outright (the note is not created, the request fails).
 */
export const MAX_NOTE_BYTES = 65_535;
const CUT_MARK = '\n[cut to fit the store]';

/**
 * The private order note: the desk's summary, the caller's identity when it does not match the order, the
 * customer's sentiment, the service's summary, action items and entities, content-safety flags. At most
 * `MAX_NOTE_BYTES`: the service's parts (the only unbounded ones) are cut first, then the end.
 */
export function orderNoteText(
  analysis: SentimentAnalysis,
  summary: string,
  identity: CallerIdentity,
): string {
  const { counts } = analysis;
  const flags =
    analysis.safetyFlags.length === 0
      ? 'none'
      : analysis.safetyFlags.map((f) => `${f.label} (${Math.round(f.confidence * 100)}%)`).join(', ');
  const mismatch = identityMismatch(identity);
  const whose = analysis.customerSpeaker?.label ? "the customer's" : 'all';
  const items = analysis.actionItems ?? [];
  const entities = analysis.entities ?? [];
  const head = [
    `Support call analysed (transcript ${analysis.transcriptId}).`,
    `Summary: ${summary}`,
    ...(mismatch ? [`Caller identity: ${mismatch}.`] : []),
    `Overall sentiment: ${analysis.overall} (${whose} sentences; score ${analysis.score.toFixed(2)}; ${counts.NEGATIVE} negative, ${counts.NEUTRAL} neutral, ${counts.POSITIVE} positive).`,
  ].join('\n');
  const service = [
    `Call summary: ${analysis.serviceSummary ?? 'none from the transcription service'}.`.replace(
      /\.\.$/,
      '.',
    ),
    items.length === 0 ? 'Action items: none.' : ['Action items:', ...items.map((a) => `- ${a}`)].join('\n'),
    `Entities: ${entities.length === 0 ? 'none' : entities.map((e) => `${e.text} (${e.entity_type})`).join(', ')}.`,
  ].join('\n');
  const end = `Content safety: ${flags}.`;
  const note = `${head}\n${service}\n${end}`;
  if (utf8Bytes(note) <= MAX_NOTE_BYTES) return note;
  const room = MAX_NOTE_BYTES - utf8Bytes(`${head}\n\n${end}`) - utf8Bytes(CUT_MARK);
  if (room > 0) return `${head}\n${cutToBytes(service, room)}${CUT_MARK}\n${end}`;
  return `${cutToBytes(note, MAX_NOTE_BYTES - utf8Bytes(CUT_MARK))}${CUT_MARK}`;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest start of `text` within `max` bytes of UTF-8, cut between code points. */
function cutToBytes(text: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const char of text) {
    bytes += utf8Bytes(char);
    if (bytes > max) break;
    out += char;
  }
  return out;
}
