import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import {
  audioIntelligenceModelStatus,
  customSpellingShape,
  entityType,
  languageCode,
  languageDetectionOptions,
  piiPolicy,
  redactPiiAudioOptions,
  redactPiiAudioQuality,
  sentiment,
  speakerOptions,
  speechModel,
  speechUnderstandingRequest,
  substitutionPolicy,
  summaryModel,
  summaryType,
  timestamp,
  transcriptStatus,
  transcriptWord,
  unitInterval,
} from './common.js';

/*
 * Request: `POST /v2/transcript`. Strict, so a misspelt option (`speaker_label`) fails here rather
 * than being ignored by the server and silently producing a transcript without it.
 */

const milliseconds = z.number().check(z.int(), z.minimum(0));

/**
 * Any http(s) URL, IP addresses and single-label hosts included: zod's `httpUrl()` insists on a dotted
 * domain name and would refuse `http://10.0.0.5:8080/hook`, a common webhook receiver in a private network.
 */
const httpUrl = z.string().check(
  z.refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL'),
);

/** Everything `TranscriptOptionalParams` documents, deprecated options included. */
const optionalParamsShape = {
  /** Priority order; the server falls back to the next model when one is unavailable. */
  speech_models: z.array(speechModel).check(z.minLength(1)),
  /** @deprecated Use `speech_models`. */
  speech_model: z.optional(z.nullable(speechModel)),
  /** Defaults to `en_us` unless `language_detection` is on. */
  language_code: z.optional(z.nullable(languageCode)),
  /** For code switching; one of them must be `en`. */
  language_codes: z.optional(z.nullable(z.array(languageCode))),
  language_detection: z.optional(z.boolean()),
  /** 0–1: the job fails if the detected language's confidence is lower. */
  language_confidence_threshold: z.optional(unitInterval),
  language_detection_options: z.optional(languageDetectionOptions),
  punctuate: z.optional(z.boolean()),
  format_text: z.optional(z.boolean()),
  /** Keep filler words such as "umm". */
  disfluencies: z.optional(z.boolean()),
  filter_profanity: z.optional(z.boolean()),
  multichannel: z.optional(z.boolean()),
  /** Milliseconds into the media at which to start transcribing. */
  audio_start_from: z.optional(milliseconds),
  /** Milliseconds into the media at which to stop transcribing. */
  audio_end_at: z.optional(milliseconds),
  /** 0–1: the job fails when a smaller fraction of the audio is speech. */
  speech_threshold: z.optional(z.nullable(unitInterval)),
  /** Up to 200 (Universal-2) or 1000 (Universal-3 Pro) terms of at most 6 words. */
  keyterms_prompt: z.optional(z.array(z.string())),
  /** Up to 1,500 words of context for the model. */
  prompt: z.optional(z.string()),
  /** 0–1: randomness of the model's output. */
  temperature: z.optional(unitInterval),
  custom_spelling: z.optional(z.array(customSpellingShape)),
  /** `all` strips audio event tags such as `[laughter]` from the text. */
  remove_audio_tags: z.optional(z.nullable(openEnum(['all']))),
  speaker_labels: z.optional(z.boolean()),
  /** Exact number of speakers, when known. */
  speakers_expected: z.optional(z.nullable(z.number().check(z.int()))),
  /** A range of speakers, when the exact number is not known. */
  speaker_options: z.optional(speakerOptions),
  sentiment_analysis: z.optional(z.boolean()),
  /** Content moderation. */
  content_safety: z.optional(z.boolean()),
  /** Percent (25–100) a label's confidence must reach to be reported; default 50. */
  content_safety_confidence: z.optional(z.number().check(z.int(), z.minimum(25), z.maximum(100))),
  entity_detection: z.optional(z.boolean()),
  /** Key phrases. */
  auto_highlights: z.optional(z.boolean()),
  /** Topic detection (IAB taxonomy). */
  iab_categories: z.optional(z.boolean()),
  redact_pii: z.optional(z.boolean()),
  redact_pii_policies: z.optional(z.array(piiPolicy)),
  /** Defaults to `hash`. */
  redact_pii_sub: z.optional(z.nullable(substitutionPolicy)),
  /** Also produce a copy of the audio with the PII beeped out. */
  redact_pii_audio: z.optional(z.boolean()),
  redact_pii_audio_quality: z.optional(redactPiiAudioQuality),
  redact_pii_audio_options: z.optional(redactPiiAudioOptions),
  speech_understanding: z.optional(z.strictObject({ request: speechUnderstandingRequest })),
  /** Receives a POST when the transcript completes or fails; your own query parameters are kept. */
  webhook_url: z.optional(httpUrl),
  /** Sent on webhook requests together with `webhook_auth_header_value`. */
  webhook_auth_header_name: z.optional(z.nullable(z.string())),
  /** Never echoed back by the API. */
  webhook_auth_header_value: z.optional(z.nullable(z.string())),
  /** @deprecated Use LLM Gateway. */
  summarization: z.optional(z.boolean()),
  /** @deprecated Use LLM Gateway. */
  summary_model: z.optional(summaryModel),
  /** @deprecated Use LLM Gateway. */
  summary_type: z.optional(summaryType),
  /** @deprecated Use LLM Gateway. */
  auto_chapters: z.optional(z.boolean()),
  /** @deprecated Has no effect, per the spec. */
  custom_topics: z.optional(z.boolean()),
  /** @deprecated Has no effect, per the spec. */
  topics: z.optional(z.array(z.string())),
};

type WebhookAuth = { webhook_auth_header_name?: string | null; webhook_auth_header_value?: string | null };

// Half a header pair is a silent misconfiguration (the webhook arrives unauthenticated), so it is
// rejected here, on the missing half's path.
const webhookAuthTogether = z.superRefine((params: WebhookAuth, ctx) => {
  const hasName = params.webhook_auth_header_name != null;
  const hasValue = params.webhook_auth_header_value != null;
  if (hasName === hasValue) return;
  const missing = hasName ? 'webhook_auth_header_value' : 'webhook_auth_header_name';
  const given = hasName ? 'webhook_auth_header_name' : 'webhook_auth_header_value';
  ctx.addIssue({
    code: 'custom',
    path: [missing],
    message: `${missing} is required when ${given} is set`,
    input: params,
  });
});

const optionalParamsObject = z.strictObject(optionalParamsShape).check(webhookAuthTogether);
/** Transcription options without the audio (for `transcribe(file, params)`-style calls). */
export interface TranscriptOptionalParams extends z.infer<typeof optionalParamsObject> {}
export const transcriptOptionalParams: z.ZodMiniType<TranscriptOptionalParams> = optionalParamsObject;

const paramsObject = z
  .strictObject({
    /** A public http(s) URL of the media, or an `upload_url` from `POST /v2/upload`. */
    audio_url: z.string(),
    ...optionalParamsShape,
  })
  .check(webhookAuthTogether);
/** Body of `POST /v2/transcript`. */
export interface TranscriptParams extends z.infer<typeof paramsObject> {}
export const transcriptParams: z.ZodMiniType<TranscriptParams> = paramsObject;

/*
 * Response: the transcript. Apart from `id`, `status` and `audio_url` every field is optional and
 * nullable whatever the spec says: queued, failed, deleted and years-old transcripts each lack
 * different fields, and a missing one must not fail `get()`.
 */

const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

const utteranceShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  /** `"A"`, `"B"`…; with multichannel alone, the channel number. */
  speaker: z.string(),
  words: z.array(transcriptWord),
  channel: maybe(z.string()),
  /** Language code → this utterance translated (with `match_original_utterance`). */
  translated_texts: z.optional(z.record(z.string(), z.string())),
});
/** A stretch of uninterrupted speech by one speaker (`speaker_labels` or `multichannel`). */
export interface TranscriptUtterance extends z.infer<typeof utteranceShape> {}
export const transcriptUtterance: z.ZodMiniType<TranscriptUtterance> = utteranceShape;

const sentimentShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  sentiment,
  confidence: z.number(),
  speaker: maybe(z.string()),
  channel: maybe(z.string()),
});
/** The sentiment of one sentence. */
export interface SentimentAnalysisResult extends z.infer<typeof sentimentShape> {}
export const sentimentAnalysisResult: z.ZodMiniType<SentimentAnalysisResult> = sentimentShape;

const contentSafetyLabel = z.looseObject({
  /** e.g. `disasters`, `health_issues`; open, new labels appear. */
  label: z.string(),
  confidence: z.number(),
  /** 0–1; null for labels that have no severity (`financials`, `manga`, `nsfw`…). */
  severity: maybe(z.number()),
});

const contentSafetyShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      text: z.string(),
      labels: z.array(contentSafetyLabel),
      /** Index into the transcript's sentences. */
      sentences_idx_start: z.number(),
      sentences_idx_end: z.number(),
      timestamp,
    }),
  ),
  /** Label → confidence (0–1) for the file as a whole. */
  summary: z.record(z.string(), z.number()),
  /** Label → how the file's flagged content splits into low/medium/high severity. */
  severity_score_summary: z.record(
    z.string(),
    z.looseObject({ low: z.number(), medium: z.number(), high: z.number() }),
  ),
});
/** Content moderation output. */
export interface ContentSafetyLabelsResult extends z.infer<typeof contentSafetyShape> {}
export const contentSafetyLabelsResult: z.ZodMiniType<ContentSafetyLabelsResult> = contentSafetyShape;

const entityShape = z.looseObject({
  entity_type: entityType,
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
});
export interface Entity extends z.infer<typeof entityShape> {}
export const entity: z.ZodMiniType<Entity> = entityShape;

const autoHighlightsShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      /** Times the phrase occurs. */
      count: z.number(),
      /** 0–1 relevance of the phrase to the whole file. */
      rank: z.number(),
      text: z.string(),
      timestamps: z.array(timestamp),
    }),
  ),
});
/** Key phrases output. */
export interface AutoHighlightsResult extends z.infer<typeof autoHighlightsShape> {}
export const autoHighlightsResult: z.ZodMiniType<AutoHighlightsResult> = autoHighlightsShape;

const topicDetectionShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      text: z.string(),
      /** IAB labels such as `Technology&Computing>Computing`; relevance 0–1. */
      labels: z.optional(z.array(z.looseObject({ relevance: z.number(), label: z.string() }))),
      timestamp: z.optional(timestamp),
    }),
  ),
  /** Label → relevance (0–1) for the file as a whole. */
  summary: z.record(z.string(), z.number()),
});
/** Topic detection (`iab_categories`) output. */
export interface TopicDetectionModelResult extends z.infer<typeof topicDetectionShape> {}
export const topicDetectionModelResult: z.ZodMiniType<TopicDetectionModelResult> = topicDetectionShape;

const chapterShape = z.looseObject({
  gist: z.string(),
  headline: z.string(),
  summary: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
});
/** @deprecated Auto chapters are replaced by LLM Gateway. */
export interface Chapter extends z.infer<typeof chapterShape> {}
export const chapter: z.ZodMiniType<Chapter> = chapterShape;

const mapping = z.record(z.string(), z.string());
const speechUnderstandingShape = z.looseObject({
  /** The request as sent; loose here because it is echoed, not checked. */
  request: z.optional(z.record(z.string(), z.unknown())),
  response: z.optional(
    z.looseObject({
      translation: z.optional(z.looseObject({ status: z.optional(z.string()) })),
      speaker_identification: z.optional(
        z.looseObject({
          /** Generic label (`"A"`) → the identified name or role. */
          mapping: z.optional(mapping),
          status: z.optional(z.string()),
        }),
      ),
      custom_formatting: z.optional(
        z.looseObject({ mapping: z.optional(mapping), formatted_text: z.optional(z.string()) }),
      ),
    }),
  ),
});
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
  utterances: maybe(z.array(utteranceShape)),
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
  sentiment_analysis_results: maybe(z.array(sentimentShape)),
  content_safety: maybe(z.boolean()),
  content_safety_labels: maybe(contentSafetyShape),
  entity_detection: maybe(z.boolean()),
  entities: maybe(z.array(entityShape)),
  auto_highlights: maybe(z.boolean()),
  auto_highlights_result: maybe(autoHighlightsShape),
  iab_categories: maybe(z.boolean()),
  iab_categories_result: maybe(topicDetectionShape),
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
  /** @deprecated Use LLM Gateway. */
  summarization: maybe(z.boolean()),
  /** @deprecated */
  summary: maybe(z.string()),
  /** @deprecated */
  summary_model: maybe(summaryModel),
  /** @deprecated */
  summary_type: maybe(summaryType),
  /** @deprecated */
  auto_chapters: maybe(z.boolean()),
  /** @deprecated */
  chapters: maybe(z.array(chapterShape)),
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
