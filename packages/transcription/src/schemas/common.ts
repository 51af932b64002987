import { openEnum } from '@x/core';
import * as z from 'zod/mini';

/**
 * Building blocks shared by the transcript, list, derived-output and webhook schemas.
 *
 * Responses are loose objects and their enums open, so a field or value AssemblyAI adds later
 * reaches the user instead of failing the parse; requests are strict (see `params.ts`).
 * Numbers in responses carry no range or integer checks: a server rounding differently must not
 * turn a finished transcript into a validation error.
 */

/** A transcript's lifecycle; `completed` and `error` are final. */
export const transcriptStatus = openEnum(['queued', 'processing', 'completed', 'error']);
export type TranscriptStatus = z.infer<typeof transcriptStatus>;

/**
 * Speech model ids. Open because AssemblyAI ships new models often and routes between them;
 * a closed list would reject a model released after this package.
 */
export const speechModel = openEnum([
  'assemblyai-stt-3-7',
  'universal-3-5-pro',
  'universal-3-pro',
  'universal-2',
  'universal',
  'slam-1',
  'nano',
  'best',
]);
export type SpeechModel = z.infer<typeof speechModel>;

/**
 * `TranscriptLanguageCode` of the spec; any other code is passed on for the server to judge.
 * (`no` is Norwegian: YAML 1.1 readers turn the spec's bare `no` into `false`.)
 */
// biome-ignore format: a table of codes, packed so the file stays readable
export const languageCode = openEnum([
  'en', 'en_au', 'en_uk', 'en_us', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'af', 'sq', 'am', 'ar', 'hy', 'as',
  'az', 'ba', 'eu', 'be', 'bn', 'bs', 'br', 'bg', 'my', 'ca', 'zh', 'hr', 'cs', 'da', 'et', 'fo', 'fi',
  'gl', 'ka', 'el', 'gu', 'ht', 'ha', 'haw', 'he', 'hi', 'hu', 'is', 'id', 'ja', 'jw', 'kn', 'kk', 'km',
  'ko', 'lo', 'la', 'lv', 'ln', 'lt', 'lb', 'mk', 'mg', 'ms', 'ml', 'mt', 'mi', 'mr', 'mn', 'ne', 'no',
  'nn', 'oc', 'pa', 'ps', 'fa', 'pl', 'ro', 'ru', 'sa', 'sr', 'sn', 'sd', 'si', 'sk', 'sl', 'so', 'su',
  'sw', 'sv', 'tl', 'tg', 'ta', 'tt', 'te', 'th', 'bo', 'tr', 'tk', 'uk', 'ur', 'uz', 'vi', 'cy', 'yi',
  'yo',
]);
export type LanguageCode = z.infer<typeof languageCode>;

/** The spec's `PiiPolicy` and `EntityType` enums list the same 44 kinds of information. */
// biome-ignore format: a table of names, packed so the file stays readable
const PII_KINDS = [
  'account_number', 'banking_information', 'blood_type', 'credit_card_cvv', 'credit_card_expiration',
  'credit_card_number', 'date', 'date_interval', 'date_of_birth', 'drivers_license', 'drug', 'duration',
  'email_address', 'event', 'filename', 'gender_sexuality', 'healthcare_number', 'injury', 'ip_address',
  'language', 'location', 'marital_status', 'medical_condition', 'medical_process', 'money_amount',
  'nationality', 'number_sequence', 'occupation', 'organization', 'passport_number', 'password',
  'person_age', 'person_name', 'phone_number', 'physical_attribute', 'political_affiliation', 'religion',
  'statistics', 'time', 'url', 'us_social_security_number', 'username', 'vehicle_id', 'zodiac_sign',
] as const;

/** A kind of personal information `redact_pii` can remove. */
export const piiPolicy = openEnum(PII_KINDS);
export type PiiPolicy = z.infer<typeof piiPolicy>;

/** The kind of an entity found by Entity Detection. */
export const entityType = openEnum(PII_KINDS);
export type EntityType = z.infer<typeof entityType>;

/** What replaces redacted PII in the text: the entity's type name (`[PERSON_NAME]`) or `####`. */
export const substitutionPolicy = openEnum(['entity_name', 'hash']);
export type SubstitutionPolicy = z.infer<typeof substitutionPolicy>;

/** File type of the redacted audio copy; `wav` is uncompressed. */
export const redactPiiAudioQuality = z.enum(['mp3', 'wav']);
export type RedactPiiAudioQuality = z.infer<typeof redactPiiAudioQuality>;

/** Deprecated with `summarization` (LLM Gateway replaces it); kept so old transcripts still type. */
export const summaryModel = openEnum(['informative', 'conversational', 'catchy']);
export type SummaryModel = z.infer<typeof summaryModel>;

/**
 * Shape of a summary: the deprecated top-level `summary_type` and the speech-understanding
 * `summarization` task's, which kept the option when it replaced the top-level one.
 */
export const summaryType = openEnum(['bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph']);
export type SummaryType = z.infer<typeof summaryType>;

/** Whether an audio-intelligence model ran: `unavailable` means it failed and the results are empty. */
export const audioIntelligenceModelStatus = openEnum(['success', 'unavailable']);
export type AudioIntelligenceModelStatus = z.infer<typeof audioIntelligenceModelStatus>;

export const sentiment = openEnum(['POSITIVE', 'NEUTRAL', 'NEGATIVE']);
export type Sentiment = z.infer<typeof sentiment>;

const timestampShape = z.looseObject({
  /** Integer milliseconds from the start of the audio. */
  start: z.number(),
  /** Integer milliseconds from the start of the audio. */
  end: z.number(),
});
/** A span of the audio in milliseconds. */
export interface Timestamp extends z.infer<typeof timestampShape> {}
export const timestamp: z.ZodMiniType<Timestamp> = timestampShape;

const transcriptWordShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds from the start of the audio. */
  start: z.number(),
  /** Integer milliseconds from the start of the audio. */
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  /** `"A"`, `"B"`… with `speaker_labels`, otherwise null. */
  speaker: z.optional(z.nullable(z.string())),
  /** `"1"`, `"2"`… with `multichannel` (1 is left, 2 right). */
  channel: z.optional(z.nullable(z.string())),
});
/** One recognised word. */
export interface TranscriptWord extends z.infer<typeof transcriptWordShape> {}
export const transcriptWord: z.ZodMiniType<TranscriptWord> = transcriptWordShape;

/** Status of the redacted copy of the audio. */
export const redactedAudioStatus = openEnum(['redacted_audio_ready']);
export type RedactedAudioStatus = z.infer<typeof redactedAudioStatus>;

const redactedAudioShape = z.looseObject({
  status: redactedAudioStatus,
  /** Download it within 24 hours; the file is deleted afterwards. */
  redacted_audio_url: z.string(),
});
/** Body of `GET /v2/transcript/{id}/redacted-audio` and of the redacted-audio webhook alike. */
export interface RedactedAudio extends z.infer<typeof redactedAudioShape> {}
export const redactedAudio: z.ZodMiniType<RedactedAudio> = redactedAudioShape;

const errorBodyShape = z.looseObject({
  error: z.string(),
  status: z.optional(z.string()),
});
/** The JSON body of a 4xx/5xx answer (503 and 504 come without one). */
export interface ErrorBody extends z.infer<typeof errorBodyShape> {}
export const errorBody: z.ZodMiniType<ErrorBody> = errorBodyShape;

/*
 * Option objects of the request. Strict here (the request rejects unknown keys); the transcript echoes
 * them back, and `transcripts.ts` loosens their shapes for that.
 */

/** A request number in 0–1 (thresholds, temperature). */
export const unitInterval = z.number().check(z.minimum(0), z.maximum(1));

export const customSpellingShape = z.strictObject({
  /** Words or phrases as the model would write them. */
  from: z.array(z.string()),
  /** What each of them becomes in the text. */
  to: z.string(),
});
export interface TranscriptCustomSpelling extends z.infer<typeof customSpellingShape> {}
export const transcriptCustomSpelling: z.ZodMiniType<TranscriptCustomSpelling> = customSpellingShape;

export const languageDetectionOptions = z.strictObject({
  /** Languages the audio may be in; the server assumes `["all"]` when absent. */
  expected_languages: z.optional(z.array(z.string())),
  /** Used when the detected language is not expected; `auto` lets the model choose. */
  fallback_language: z.optional(z.string()),
  code_switching: z.optional(z.boolean()),
  code_switching_confidence_threshold: z.optional(unitInterval),
  /**
   * Below `language_confidence_threshold`: `error` (the default) fails the transcript, `fallback` keeps it.
   * In the SDK (4.41.5) and honoured by the sandbox; not yet in openapi.yml.
   */
  on_low_language_confidence: z.optional(openEnum(['error', 'fallback'])),
});

export const redactPiiAudioOptions = z.strictObject({
  /** Also return a redacted file when no speech was found (by default there is none). */
  return_redacted_no_speech_audio: z.optional(z.boolean()),
  /** `silence` instead of the default beep. */
  override_audio_redaction_method: z.optional(openEnum(['silence'])),
});

export const speakerOptions = z.strictObject({
  min_speakers_expected: z.optional(z.number().check(z.int())),
  /** Setting this too high hurts accuracy, per AssemblyAI. */
  max_speakers_expected: z.optional(z.number().check(z.int())),
});

/*
 * `speech_understanding.request`: several tasks in one object, each run after transcription.
 * Followed: AssemblyAI's docs (Speech Understanding pages and the summarization / auto-chapters migration
 * guides, 2026), which run any of the five tasks together and add `effort`, `summarization` and
 * `action_items`. openapi.yml (March 2026) still has a `oneOf` of three single-task bodies and the SDK
 * 4.41.5 types three tasks; where they differ from the docs, the docs win.
 */

/**
 * How much processing a speech-understanding task may spend: `medium` does better on hard audio (meetings,
 * several languages, long files) at a higher price. The docs name the option without listing values; these
 * are the SDK's (4.41.5). Open, so a level added later reaches the server to judge.
 */
export const speechUnderstandingEffort = openEnum(['low', 'medium']);
export type SpeechUnderstandingEffort = z.infer<typeof speechUnderstandingEffort>;

const effort = z.optional(speechUnderstandingEffort);

const translationTaskShape = z.strictObject({
  /** e.g. `["es", "de"]`. */
  target_languages: z.array(z.string()).check(z.minLength(1, 'must name at least one language, e.g. ["es"]')),
  formal: z.optional(z.boolean()),
  /** With `speaker_labels`, put each translation on its utterance (`translated_texts`). */
  match_original_utterance: z.optional(z.boolean()),
  effort,
});
export interface TranslationTask extends z.infer<typeof translationTaskShape> {}
export const translationTask: z.ZodMiniType<TranslationTask> = translationTaskShape;

const speakerIdentificationTaskShape = z
  .strictObject({
    speaker_type: openEnum(['role', 'name']),
    /** Required when `speaker_type` is `role`; each at most 35 characters. */
    known_values: z.optional(z.array(z.string())),
    // Speaker descriptions may carry more keys (the docs show `company` and `title`), so these stay loose.
    speakers: z.optional(
      z.array(
        z.looseObject({
          role: z.optional(z.string()),
          name: z.optional(z.string()),
          description: z.optional(z.string()),
        }),
      ),
    ),
    effort,
  })
  .check(
    z.superRefine((task, ctx) => {
      // Without them the service has no roles to choose from and fails the transcript after transcribing.
      if (task.speaker_type !== 'role' || task.known_values !== undefined || task.speakers !== undefined)
        return;
      ctx.addIssue({
        code: 'custom',
        path: ['known_values'],
        input: task,
        message:
          'is required when speaker_type is "role" (the roles to choose from, e.g. ["agent", "customer"])',
      });
    }),
  );
export interface SpeakerIdentificationTask extends z.infer<typeof speakerIdentificationTaskShape> {}
export const speakerIdentificationTask: z.ZodMiniType<SpeakerIdentificationTask> =
  speakerIdentificationTaskShape;

const customFormattingTaskShape = z.strictObject({
  /** A pattern such as `mm/dd/yyyy`. */
  date: z.optional(z.string()),
  /** A pattern such as `(xxx)xxx-xxxx`. */
  phone_number: z.optional(z.string()),
  /** A pattern such as `username@domain.com`. */
  email: z.optional(z.string()),
  effort,
});
export interface CustomFormattingTask extends z.infer<typeof customFormattingTaskShape> {}
export const customFormattingTask: z.ZodMiniType<CustomFormattingTask> = customFormattingTaskShape;

const summarizationTaskShape = z.strictObject({
  summary_type: z.optional(summaryType),
  effort,
});
/** Topic summaries with headlines and times; replaces the deprecated `summarization` and `auto_chapters`. */
export interface SummarizationTask extends z.infer<typeof summarizationTaskShape> {}
export const summarizationTask: z.ZodMiniType<SummarizationTask> = summarizationTaskShape;

const actionItemsTaskShape = z.strictObject({ effort });
/** Follow-ups with a quote of where each was said (open beta); `{}` asks with the defaults. */
export interface ActionItemsTask extends z.infer<typeof actionItemsTaskShape> {}
export const actionItemsTask: z.ZodMiniType<ActionItemsTask> = actionItemsTaskShape;

const SPEECH_UNDERSTANDING_TASKS = [
  'translation',
  'speaker_identification',
  'custom_formatting',
  'summarization',
  'action_items',
] as const;

const speechUnderstandingRequestShape = z
  .strictObject({
    translation: z.optional(translationTaskShape),
    speaker_identification: z.optional(speakerIdentificationTaskShape),
    custom_formatting: z.optional(customFormattingTaskShape),
    summarization: z.optional(summarizationTaskShape),
    action_items: z.optional(actionItemsTaskShape),
  })
  .check(
    z.refine(
      (request) => SPEECH_UNDERSTANDING_TASKS.some((task) => request[task] !== undefined),
      `must ask for at least one task: ${SPEECH_UNDERSTANDING_TASKS.join(', ')}`,
    ),
  );
/** The speech-understanding tasks to run after transcription, any number of them in one request. */
export interface SpeechUnderstandingRequest extends z.infer<typeof speechUnderstandingRequestShape> {}
export const speechUnderstandingRequest: z.ZodMiniType<SpeechUnderstandingRequest> =
  speechUnderstandingRequestShape;

/** The request as a transcript echoes it: loose, since it is read back rather than checked. */
export const speechUnderstandingRequestEcho = z.looseObject({
  translation: z.optional(z.looseObject(translationTaskShape.shape)),
  speaker_identification: z.optional(z.looseObject(speakerIdentificationTaskShape.shape)),
  custom_formatting: z.optional(z.looseObject(customFormattingTaskShape.shape)),
  summarization: z.optional(z.looseObject(summarizationTaskShape.shape)),
  action_items: z.optional(z.looseObject(actionItemsTaskShape.shape)),
});
