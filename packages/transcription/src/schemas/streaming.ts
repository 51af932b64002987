import { openEnum } from '@x/core';
import * as z from 'zod/mini';

/*
 * Streaming Speech-to-Text v3 requests: the connection parameters of `wss://…/v3/ws` (sent as the URL's
 * query), the `UpdateConfiguration` message, and `GET /v3/token`. Strict like the REST requests: the
 * service ignores a query parameter it does not know, so a misspelt `format_turn` would silently do
 * nothing. Sources: AssemblyAI's streaming API reference, usm-streaming.yml / usm-streaming-u3-pro.yml,
 * streaming-token.yml and the `assemblyai` SDK 4.41.5 types (where they disagree, the docs win, noted).
 *
 * This file is imported by the browser entry (`@x/transcription/streaming`), so it imports nothing
 * from the REST schemas: zod/mini and `openEnum` only.
 */

/** The highest `sample_rate` taken (the docs give none; see `sample_rate`). */
const MAX_SAMPLE_RATE = 192_000;

const unit = z.number().check(z.minimum(0), z.maximum(1));
const milliseconds = z.number().check(z.int(), z.minimum(0));
const terms = z.array(z.string().check(z.minLength(1, 'must not be an empty string')));

/**
 * Streaming models. The docs list the first four (and say there is no default: the parameter is
 * required); the SDK also knows the others. Open, because models change faster than this package.
 */
export const streamingSpeechModel = openEnum([
  'u3-rt-pro',
  'universal-streaming-english',
  'universal-streaming-multilingual',
  'whisper-rt',
  'universal-3-5-pro',
  'universal-3-6',
  'universal-3-6-pro',
  'u3-rt-pro-beta-1',
]);
export type StreamingSpeechModel = z.infer<typeof streamingSpeechModel>;

/**
 * The two encodings the docs list. The SDK also types `opus`, `ogg_opus` and `aac`, which the docs do not
 * document; a compressed stream could not be cut into frames of a given duration by this client either.
 */
export const streamingEncoding = z.enum(['pcm_s16le', 'pcm_mulaw']);
export type StreamingEncoding = z.infer<typeof streamingEncoding>;

/**
 * Kinds of personal information streaming PII redaction removes (the SDK's list). Open, and a type only:
 * any string is sent, so the list costs a browser bundle nothing.
 */
export type StreamingPiiPolicy =
  | 'account_number'
  | 'banking_information'
  | 'blood_type'
  | 'corporate_action'
  | 'credit_card_cvv'
  | 'credit_card_expiration'
  | 'credit_card_number'
  | 'date'
  | 'date_interval'
  | 'date_of_birth'
  | 'day'
  | 'drivers_license'
  | 'drug'
  | 'duration'
  | 'effect'
  | 'email_address'
  | 'event'
  | 'filename'
  | 'financial_metric'
  | 'gender'
  | 'gender_sexuality'
  | 'healthcare_number'
  | 'injury'
  | 'ip_address'
  | 'language'
  | 'location'
  | 'location_address'
  | 'location_address_street'
  | 'location_city'
  | 'location_coordinate'
  | 'location_country'
  | 'location_state'
  | 'location_zip'
  | 'marital_status'
  | 'medical_code'
  | 'medical_condition'
  | 'medical_process'
  | 'money_amount'
  | 'month'
  | 'nationality'
  | 'number_sequence'
  | 'occupation'
  | 'organization'
  | 'organization_id'
  | 'organization_medical_facility'
  | 'passport_number'
  | 'password'
  | 'person_age'
  | 'person_name'
  | 'phone_number'
  | 'physical_attribute'
  | 'political_affiliation'
  | 'product'
  | 'project'
  | 'religion'
  | 'sexuality'
  | 'statistics'
  | 'time'
  | 'trend'
  | 'url'
  | 'us_social_security_number'
  | 'username'
  | 'vehicle_id'
  | 'year'
  | 'zodiac_sign'
  | (string & {});
const streamingPiiPolicy = z.string() as z.ZodMiniType<StreamingPiiPolicy>;

/** A header name the service can send on webhooks (RFC 9110 token characters). */
const headerName = z
  .string()
  .check(
    z.regex(
      /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/,
      'must be a valid header name (letters, digits and !#$%&\'*+-.^_`|~), e.g. "X-Webhook-Secret"',
    ),
  );

/*
 * An old name the service still takes but the docs call deprecated: refused with the new name, so new
 * code does not start on a name that is going away.
 */
const renamed = <T extends z.ZodMiniType>(base: T, to: string, example: (value: unknown) => string) =>
  z.optional(base).check(
    z.superRefine((value, ctx) => {
      if (value === undefined) return;
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `is deprecated and was renamed to ${to}: did you mean ${to}: ${example(value)}?`,
      });
    }),
  );

/**
 * What both the connection and `UpdateConfiguration` may set: turn detection, prompting, formatting.
 * Ranges are the documented ones.
 */
const tunableShape = {
  /** 0–1 (default 0.4): how sure the model must be that a turn ended before the semantic end fires; 1 disables it. */
  end_of_turn_confidence_threshold: z.optional(unit),
  /** Milliseconds of silence before the confident end-of-turn check (u3-rt-pro default 100, others 400). */
  min_turn_silence: z.optional(milliseconds),
  /**
   * @deprecated The docs' old name of `min_turn_silence`; still accepted by the service, so it is sent
   * as given, but new code should use `min_turn_silence`.
   */
  min_end_of_turn_silence_when_confident: z.optional(milliseconds),
  /** Milliseconds of silence that end a turn whatever the confidence (default 1280; u3-rt-pro 1000). */
  max_turn_silence: z.optional(milliseconds),
  /** 0–1 (default 0.4; u3-rt-pro 0.3): frames whose voice probability is below it count as silence. */
  vad_threshold: z.optional(unit),
  /** Send each final turn again formatted (`turn_is_formatted: true`). */
  format_turns: z.optional(z.boolean()),
  /** Words and phrases to recognise better; sent as one JSON array. */
  keyterms_prompt: z.optional(terms),
  /** Instructions for u3-rt-pro (beta); a default tuned for turn detection applies without it. */
  prompt: z.optional(z.string()),
  /** Context about the agent's side of the conversation (SDK). */
  agent_context: z.optional(z.string()),
  filter_profanity: z.optional(z.boolean()),
  /** Languages to steer towards, e.g. `["en", "es"]`; sent as a JSON array (SDK; Universal-3.5 Pro). */
  language_codes: z.optional(z.array(z.string())),
  /** Ask for `Heartbeat` messages (SDK). */
  session_heartbeat: z.optional(z.boolean()),
  /** Ask for `Silence` messages while nothing is spoken (SDK; U3 Pro models). */
  acknowledge_silence: z.optional(z.boolean()),
  /** Milliseconds (SDK). */
  interruption_delay: z.optional(milliseconds),
  /** Milliseconds of audio kept before a turn's first word (SDK). */
  turn_left_pad_ms: z.optional(milliseconds),
};

const connectionShape = {
  /**
   * Required: the docs say there is no default model and a session without one fails. (The SDK types it
   * optional; the docs win.)
   */
  speech_model: z.string({
    error: (issue) =>
      issue.input === undefined
        ? 'is required: the service has no default streaming model, e.g. speech_model: "u3-rt-pro"'
        : 'must be a model id, e.g. "u3-rt-pro" or "universal-streaming-english"',
  }) as z.ZodMiniType<StreamingSpeechModel>,
  /**
   * Hz of the audio you send, e.g. 16000 or 48000. Required for the PCM encodings. The docs name no
   * maximum; this SDK takes at most 192,000 (8,000–192,000 covers all real audio, telephony to studio),
   * since the transcriber sizes its frame buffers from it: 2**40 threw a bare RangeError, 1e9 allocated
   * 200 MB for one 100 ms frame.
   */
  sample_rate: z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? 'is required: the rate of the audio you send, e.g. sample_rate: 16000'
          : 'must be a number of samples per second, e.g. 16000',
    })
    .check(
      z.int('must be a whole number of samples per second (an int)'),
      z.positive('must be more than 0'),
      z.maximum(
        MAX_SAMPLE_RATE,
        `must be at most ${MAX_SAMPLE_RATE} (192 kHz, the highest rate real audio uses)`,
      ),
    ),
  /** Default `pcm_s16le` (16-bit little-endian); `pcm_mulaw` is 8-bit G.711 μ-law. */
  encoding: z.optional(streamingEncoding),
  ...tunableShape,
  /** @deprecated Renamed `keyterms_prompt` (the SDK still maps it). */
  keyterms: renamed(terms, 'keyterms_prompt', (v) => JSON.stringify(v)),
  /** Seconds (5–3600) without audio after which the service ends the session; none by default. */
  inactivity_timeout: z.optional(z.number().check(z.int(), z.minimum(5), z.maximum(3600))),
  /** Return `language_code` and `language_confidence` on final turns (multilingual models). */
  language_detection: z.optional(z.boolean()),
  /** @deprecated Use `language_codes: ["es"]` (SDK). */
  language_code: z.optional(z.string()),
  /** `medical-v1` (SDK). */
  domain: z.optional(openEnum(['medical-v1'])),
  /** Label speakers: `speaker_label` on turns, `speaker` on final words. */
  speaker_labels: z.optional(z.boolean()),
  /** 1–10: the most speakers to tell apart, with `speaker_labels`. */
  max_speakers: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10))),
  /** 0–86,400,000 ms of audio between `SpeakerRevision` messages; 0 sends only the last (SDK). */
  speaker_labels_revision_interval_ms: z.optional(
    z.number().check(z.int(), z.minimum(0), z.maximum(86_400_000)),
  ),
  /** Redact PII from final turns (partials then default to off: see `include_partial_turns`). */
  redact_pii: z.optional(z.boolean()),
  /** Which PII to redact (all by default); sent as a JSON array. */
  redact_pii_policies: z.optional(z.array(streamingPiiPolicy)),
  /** `hash` (`####`) or `entity_name` (`[PERSON_NAME]`). */
  redact_pii_sub: z.optional(openEnum(['hash', 'entity_name'])),
  /** With `redact_pii`, also send partial turns, which carry the unredacted text. */
  include_partial_turns: z.optional(z.boolean()),
  /** `near-field` or `far-field` noise suppression (SDK). */
  voice_focus: z.optional(openEnum(['near-field', 'far-field'])),
  /** 0–1 (SDK). */
  voice_focus_threshold: z.optional(unit),
  continuous_partials: z.optional(z.boolean()),
  /** `max_accuracy`, `min_latency` or `balanced` (SDK). */
  mode: z.optional(openEnum(['max_accuracy', 'min_latency', 'balanced'])),
  /** Run each final turn through the LLM Gateway; answers come as `LLMGatewayResponse` (SDK). */
  llm_gateway: z.optional(
    z.strictObject({
      model: z.string(),
      messages: z.array(z.strictObject({ role: z.string(), content: z.string() })),
      max_tokens: z.number().check(z.int(), z.positive()),
    }),
  ),
  /** Receives the session's transcript when it ends (SDK). */
  webhook_url: z.optional(
    z.string().check(z.regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'must be an absolute http(s) URL')),
  ),
  webhook_auth_header_name: z.optional(headerName),
  /** A secret: never quoted in an error. */
  webhook_auth_header_value: z.optional(
    z.string().check(z.refine((v) => !/[\r\n\0]/.test(v), 'must not contain CR, LF or NUL')),
  ),
};

const connectionObject = z.strictObject(connectionShape);
/**
 * The connection parameters of a streaming session, spelled as the service spells them. Unknown keys
 * are refused (`allowUnknownFields` sends them as they are).
 */
export interface StreamingParams extends z.input<typeof connectionObject> {}
export const streamingParams: z.ZodMiniType<StreamingParams> = connectionObject;

const updateObject = z.strictObject(tunableShape);
/** What `updateConfiguration()` may change mid-session (sent as `{"type":"UpdateConfiguration",…}`). */
export interface StreamingUpdateConfiguration extends z.input<typeof updateObject> {}
export const streamingUpdateConfiguration: z.ZodMiniType<StreamingUpdateConfiguration> = updateObject;
