import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import {
  customSpellingShape,
  languageCode,
  languageDetectionOptions,
  piiPolicy,
  redactPiiAudioOptions,
  speechModel,
  speechUnderstandingRequestEcho,
  substitutionPolicy,
  summaryModel,
  summaryType,
  transcriptStatus,
  transcriptWord,
} from './common.js';
import {
  autoHighlightsResult,
  chapter,
  contentSafetyLabelsResult,
  entity,
  sentimentAnalysisResult,
  speechUnderstandingResponse,
  topicDetectionModelResult,
  transcriptUtterance,
} from './results.js';

/*
 * Response: the transcript. Apart from `id`, `status` and `audio_url` every field is optional and
 * nullable whatever the spec says: queued, failed, deleted and years-old transcripts each lack
 * different fields, and a missing one must not fail `get()`.
 */

const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

const speechUnderstandingShape = z.looseObject({
  request: z.optional(speechUnderstandingRequestEcho),
  response: z.optional(speechUnderstandingResponse),
});
/** `speech_understanding` on a transcript: the tasks asked and what each produced. */
export interface SpeechUnderstanding extends z.infer<typeof speechUnderstandingShape> {}

const transcriptShape = z.looseObject({
  id: z.string(),
  status: transcriptStatus,
  /** `http://deleted_by_user` once deleted. */
  audio_url: z.string(),
  /** Only on `status: "error"`. */
  error: z.optional(z.string()),
  text: maybe(z.string()),
  words: maybe(z.array(transcriptWord)),
  utterances: maybe(z.array(transcriptUtterance)),
  /** 0–1 over the whole transcript. */
  confidence: maybe(z.number()),
  /** Integer seconds (unlike every other time here, which is milliseconds). */
  audio_duration: maybe(z.number()),
  /** Present with `multichannel`. */
  audio_channels: maybe(z.number()),
  /** The model that actually transcribed, after routing through `speech_models`. */
  speech_model_used: maybe(speechModel),
  speech_models: maybe(z.array(speechModel)),
  /** @deprecated Use `speech_models`. */
  speech_model: maybe(speechModel),
  language_code: maybe(languageCode),
  language_codes: maybe(z.array(languageCode)),
  language_detection: maybe(z.boolean()),
  language_detection_options: maybe(z.looseObject(languageDetectionOptions.shape)),
  /** 0–1 confidence in the detected language. */
  language_confidence: maybe(z.number()),
  language_confidence_threshold: maybe(z.number()),
  punctuate: maybe(z.boolean()),
  format_text: maybe(z.boolean()),
  disfluencies: maybe(z.boolean()),
  filter_profanity: maybe(z.boolean()),
  multichannel: maybe(z.boolean()),
  /** Milliseconds. */
  audio_start_from: maybe(z.number()),
  /** Milliseconds. */
  audio_end_at: maybe(z.number()),
  speech_threshold: maybe(z.number()),
  keyterms_prompt: maybe(z.array(z.string())),
  prompt: maybe(z.string()),
  temperature: maybe(z.number()),
  custom_spelling: maybe(z.array(z.looseObject(customSpellingShape.shape))),
  remove_audio_tags: maybe(openEnum(['all'])),
  speaker_labels: maybe(z.boolean()),
  speakers_expected: maybe(z.number()),
  sentiment_analysis: maybe(z.boolean()),
  sentiment_analysis_results: maybe(z.array(sentimentAnalysisResult)),
  content_safety: maybe(z.boolean()),
  content_safety_labels: maybe(contentSafetyLabelsResult),
  entity_detection: maybe(z.boolean()),
  entities: maybe(z.array(entity)),
  auto_highlights: maybe(z.boolean()),
  auto_highlights_result: maybe(autoHighlightsResult),
  iab_categories: maybe(z.boolean()),
  iab_categories_result: maybe(topicDetectionModelResult),
  redact_pii: maybe(z.boolean()),
  redact_pii_policies: maybe(z.array(piiPolicy)),
  redact_pii_sub: maybe(substitutionPolicy),
  redact_pii_audio: maybe(z.boolean()),
  redact_pii_audio_quality: maybe(openEnum(['mp3', 'wav'])),
  redact_pii_audio_options: maybe(z.looseObject(redactPiiAudioOptions.shape)),
  speech_understanding: maybe(speechUnderstandingShape),
  /** Language code → the full text translated (speech understanding). */
  translated_texts: maybe(z.record(z.string(), z.string())),
  webhook_url: maybe(z.string()),
  /** True when a webhook auth header was configured; its value is never returned. */
  webhook_auth: maybe(z.boolean()),
  webhook_auth_header_name: maybe(z.string()),
  /** The HTTP status your webhook endpoint answered with. */
  webhook_status_code: maybe(z.number()),
  /** True when the job was delayed by the account's concurrency limit. */
  throttled: maybe(z.boolean()),
  /** @deprecated Replaced by `speech_understanding.response.summarization`. */
  summarization: maybe(z.boolean()),
  /** @deprecated */
  summary: maybe(z.string()),
  /** @deprecated */
  summary_model: maybe(summaryModel),
  /** @deprecated */
  summary_type: maybe(summaryType),
  /** @deprecated */
  auto_chapters: maybe(z.boolean()),
  /** @deprecated Replaced by the sections of `speech_understanding.response.summarization`. */
  chapters: maybe(z.array(chapter)),
  /** @deprecated */
  custom_topics: maybe(z.boolean()),
  /** @deprecated */
  topics: maybe(z.array(z.string())),
  /** @deprecated */
  speed_boost: maybe(z.boolean()),
  /** @deprecated Always `assemblyai_default`. */
  language_model: maybe(z.string()),
  /** @deprecated Always `assemblyai_default`. */
  acoustic_model: maybe(z.string()),
});
/** A transcript as `POST`/`GET`/`DELETE /v2/transcript[/{id}]` return it. */
export interface Transcript extends z.infer<typeof transcriptShape> {}
export const transcript: z.ZodMiniType<Transcript> = transcriptShape;
