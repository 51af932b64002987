import { DETECTED_LANGUAGE } from '../intelligence/index.js';
import type { TranscriptRecord } from '../model/transcripts.js';

/**
 * What the service echoes for each request parameter the caller left out. Every parameter appears in a
 * transcript, so a client can read back exactly what the job ran with.
 */
const PARAM_DEFAULTS: Record<string, unknown> = {
  speech_model: null,
  language_code: 'en_us',
  language_codes: null,
  language_detection: false,
  language_confidence_threshold: null,
  language_detection_options: null,
  punctuate: true,
  format_text: true,
  disfluencies: false,
  filter_profanity: false,
  multichannel: null,
  audio_start_from: null,
  audio_end_at: null,
  speech_threshold: null,
  keyterms_prompt: null,
  prompt: null,
  temperature: null,
  custom_spelling: null,
  remove_audio_tags: null,
  speaker_labels: false,
  speakers_expected: null,
  speaker_options: null,
  sentiment_analysis: false,
  content_safety: false,
  content_safety_confidence: null,
  entity_detection: false,
  auto_highlights: false,
  iab_categories: false,
  redact_pii: false,
  redact_pii_policies: null,
  redact_pii_sub: null,
  redact_pii_audio: false,
  redact_pii_audio_quality: null,
  redact_pii_audio_options: null,
  speech_understanding: null,
  summarization: false,
  summary_model: null,
  summary_type: null,
  auto_chapters: false,
  custom_topics: false,
  topics: [],
  webhook_url: null,
  webhook_auth_header_name: null,
};

/** Parameters that are never sent back: the webhook's secret header value. */
// Also the reply's own fields: a body that names one (`id`, `error`, `status`...) must not overwrite it.
const NOT_ECHOED = new Set([
  'webhook_auth_header_value',
  'id',
  'status',
  'error',
  'text',
  'words',
  'utterances',
  'translated_texts',
]);

/** `GET /v2/transcript/{id}`: every field of the spec's `Transcript`, nulls where there is nothing yet. */
export function presentTranscript(record: TranscriptRecord): Record<string, unknown> {
  if (record.deleted) return presentDeleted(record);
  // Built from entries, not by assignment: a parameter named `__proto__` stays a parameter.
  const echoed: Record<string, unknown> = Object.fromEntries([
    ...Object.entries(PARAM_DEFAULTS),
    ...Object.entries(record.params).filter(([key]) => !NOT_ECHOED.has(key)),
  ]);
  // A legacy summary was made with the documented defaults when the request named none.
  if (echoed.summarization === true) {
    echoed.summary_model ??= 'informative';
    echoed.summary_type ??= 'bullets';
  }
  if (echoed.content_safety === true && echoed.content_safety_confidence === null) {
    echoed.content_safety_confidence = 50;
  }
  const result = record.result;
  // The service reports the language it detected in language_code (docs: automatic language detection).
  if (echoed.language_detection === true && result) echoed.language_code = DETECTED_LANGUAGE;
  return {
    id: record.id,
    ...echoed,
    audio_url: record.params.audio_url,
    status: record.status,
    ...(record.status === 'error' ? { error: record.error } : {}),
    webhook_auth: typeof record.params.webhook_auth_header_name === 'string',
    webhook_status_code: record.webhook_status_code,
    throttled: record.throttled,
    speech_model_used: record.speech_model_used,
    acoustic_model: 'assemblyai_default',
    language_model: 'assemblyai_default',
    language_confidence:
      result?.language_confidence ?? (record.params.language_detection === true && result ? 1 : null),
    text: result?.text ?? null,
    ...(result?.translated_texts !== undefined ? { translated_texts: result.translated_texts } : {}),
    words: result?.words ?? null,
    utterances: result?.utterances ?? null,
    confidence: result?.confidence ?? null,
    audio_duration: result?.audio_duration ?? null,
    audio_channels: result ? (result.audio_channels ?? 1) : null,
    sentiment_analysis_results: result?.sentiment_analysis_results ?? null,
    content_safety_labels: result?.content_safety_labels ?? null,
    entities: result?.entities ?? null,
    auto_highlights_result: result?.auto_highlights_result ?? null,
    iab_categories_result: result?.iab_categories_result ?? null,
    ...(result?.speech_understanding !== undefined
      ? { speech_understanding: result.speech_understanding }
      : {}),
    chapters: null,
    summary: result?.summary ?? null,
  };
}

/** What DELETE leaves: the record's shape with the audio and its content gone. */
function presentDeleted(record: TranscriptRecord): Record<string, unknown> {
  return {
    ...presentTranscript({ ...record, deleted: false, result: null }),
    audio_url: 'http://deleted_by_user',
    webhook_url: record.params.webhook_url === undefined ? null : 'http://deleted_by_user',
    text: 'Deleted by user.',
    words: null,
    utterances: null,
    sentiment_analysis_results: null,
    content_safety_labels: null,
  };
}

/** One item of `GET /v2/transcript`. */
export function presentListItem(record: TranscriptRecord, base: string): Record<string, unknown> {
  return {
    id: record.id,
    resource_url: `${base}/v2/transcript/${record.id}`,
    status: record.status,
    created: record.created,
    completed: record.completed,
    audio_url: record.deleted ? 'http://deleted_by_user' : record.params.audio_url,
    error: record.error,
  };
}
