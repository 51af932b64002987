import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import {
  customSpellingShape,
  languageCode,
  languageDetectionOptions,
  piiPolicy,
  redactPiiAudioOptions,
  redactPiiAudioQuality,
  speakerOptions,
  speechModel,
  speechUnderstandingRequest,
  substitutionPolicy,
  summaryModel,
  summaryType,
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
