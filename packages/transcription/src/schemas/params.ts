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

/** `speech_models` as AssemblyAI's migration guide suggests it: the newest model, then a wide-language fallback. */
const MODELS_EXAMPLE = '["assemblyai-stt-3-7", "universal-2"]';

/*
 * A missing `speech_models` is the most common first mistake (older examples omit it, the service now
 * requires it), so its message says what to pass rather than zod's "expected array".
 */
const speechModels = z
  .array(speechModel, {
    error: (issue) =>
      issue.input === undefined
        ? `is required: the speech models to use in priority order, e.g. speech_models: ${MODELS_EXAMPLE}`
        : `must be an array of model ids in priority order, e.g. ${MODELS_EXAMPLE}`,
  })
  .check(z.minLength(1, `must name at least one model, e.g. ${MODELS_EXAMPLE}`));

/*
 * The old singular `speech_model` is still in the spec (deprecated) and still in many examples, but the
 * service now refuses it; a call that sets it gets told what the rename means instead of a 400.
 */
const renamedSpeechModel = z.optional(z.nullable(speechModel)).check(
  z.superRefine((value, ctx) => {
    if (value == null) return;
    ctx.addIssue({
      code: 'custom',
      input: value,
      message: `was renamed to speech_models, a list of models in priority order (the service falls back to the next one): did you mean speech_models: ${JSON.stringify([value])}?`,
    });
  }),
);

/**
 * An absolute http(s) URL with a host, IP addresses and single-label hosts included: zod's `httpUrl()`
 * insists on a dotted domain name and would refuse `http://10.0.0.5:8080/hook`, a common webhook receiver
 * in a private network. The raw text must already carry `//host`: the URL parser would turn `http:hook` or
 * `http:///hook` into `http://hook/`, a host the user never wrote.
 */
const webhookUrl = z.string().check(
  z.refine((value) => {
    if (!/^https?:\/\/[^/?#\\]/i.test(value) || /\s/.test(value) || hasControl(value)) return false;
    try {
      return new URL(value).hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL with a host and no spaces or control characters, e.g. https://example.com/hooks/assemblyai'),
);

function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** RFC 9110 `token`: what a header name may be made of. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/*
 * AssemblyAI sends this name as a header on every webhook; a name it cannot send would only show up later
 * as webhooks that never authenticate.
 */
const headerName = z.string().check(
  z.superRefine((value, ctx) => {
    const message =
      value === ''
        ? 'must not be empty'
        : /[\r\n]/.test(value)
          ? 'must not contain CR or LF'
          : HEADER_TOKEN.test(value)
            ? undefined
            : `must be a valid header name (letters, digits and !#$%&'*+-.^_\`|~; no spaces, colons or control characters), e.g. "X-Webhook-Secret"`;
    if (message) ctx.addIssue({ code: 'custom', input: value, message });
  }),
);

// A secret: its message must never quote it.
const headerValue = z
  .string()
  .check(z.refine((value) => !/[\r\n\0]/.test(value), 'must not contain CR, LF or NUL'));

/*
 * The service fetches `audio_url` itself, so a `file:` URL names a file it can never see; the fix is the
 * client's upload, which is what the message says.
 */
const audioUrl = z
  .string()
  .check(
    z.refine(
      (value) => !/^\s*file:/i.test(value),
      'is a file: URL, which the service cannot read: pass the local path as `audio` to transcripts.transcribe() (it is uploaded first), or upload it with files.upload() and pass the upload_url here',
    ),
  );

/** Everything `TranscriptOptionalParams` documents, deprecated options included. */
const optionalParamsShape = {
  /** Priority order; the server falls back to the next model when one is unavailable. */
  speech_models: speechModels,
  /** @deprecated Renamed to `speech_models`; the service refuses it, and so does this client. */
  speech_model: renamedSpeechModel,
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
  /** Tasks to run on the transcript (translation, speaker identification, formatting, summary, action items). */
  speech_understanding: z.optional(z.strictObject({ request: speechUnderstandingRequest })),
  /** Receives a POST when the transcript completes or fails; your own query parameters are kept. */
  webhook_url: z.optional(webhookUrl),
  /** Sent on webhook requests together with `webhook_auth_header_value`. */
  webhook_auth_header_name: z.optional(z.nullable(headerName)),
  /** Never echoed back by the API. */
  webhook_auth_header_value: z.optional(z.nullable(headerValue)),
  /** @deprecated Use `speech_understanding: { request: { summarization: {} } }` (topic summaries with headlines). */
  summarization: z.optional(z.boolean()),
  /** @deprecated The speech-understanding summarization has `effort` instead. */
  summary_model: z.optional(summaryModel),
  /** @deprecated Pass it as `speech_understanding.request.summarization.summary_type`. */
  summary_type: z.optional(summaryType),
  /** @deprecated Use `speech_understanding.request.summarization`: its sections are the chapters. */
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
    audio_url: audioUrl,
    ...optionalParamsShape,
  })
  .check(webhookAuthTogether);
/** Body of `POST /v2/transcript`. */
export interface TranscriptParams extends z.infer<typeof paramsObject> {}
export const transcriptParams: z.ZodMiniType<TranscriptParams> = paramsObject;
