/**
 * `POST /v2/transcript` bodies as the service checks them: `audio_url` and `speech_models` required, each
 * documented parameter of its type and range. The service answers a bad body with 400 `{"error": "..."}`; the
 * messages here name the parameter and what was expected, since that is what a user needs to fix the call.
 * Parameters the emulator does not know are kept and echoed, as a newer service would accept them.
 */
import { TRANSLATABLE } from '../intelligence/index.js';
import { speakerOptionsProblem } from '../speakers/options.js';

export type TranscriptParams = Record<string, unknown> & { audio_url: string; speech_models: string[] };

type Check = (value: unknown) => string | null;

const bool: Check = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');
const string: Check = (v) => (typeof v === 'string' ? null : 'must be a string');
const object: Check = (v) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'must be an object';
const stringArray: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? null : 'must be an array of strings';

function int(min: number, max = Number.MAX_SAFE_INTEGER): Check {
  return (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? null
      : max === Number.MAX_SAFE_INTEGER
        ? `must be an integer of at least ${min}`
        : `must be an integer between ${min} and ${max}`;
}

function number(min: number, max: number): Check {
  return (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
      ? null
      : `must be a number between ${min} and ${max}`;
}

function oneOf(...values: string[]): Check {
  return (v) =>
    typeof v === 'string' && values.includes(v)
      ? null
      : `must be one of ${values.map((x) => `"${x}"`).join(', ')}`;
}

const nullable =
  (check: Check): Check =>
  (v) =>
    v === null ? null : check(v);

/** White space inside a `to`: more than one word. */
const INNER_SPACE = /\S\s+\S/;

const customSpelling: Check = (v) => {
  const shape = 'must be an array of { from: string[], to: string }';
  if (!Array.isArray(v)) return shape;
  for (const [i, x] of v.entries()) {
    if (
      typeof x !== 'object' ||
      x === null ||
      !Array.isArray((x as { from?: unknown }).from) ||
      !(x as { from: unknown[] }).from.every((f) => typeof f === 'string') ||
      typeof (x as { to?: unknown }).to !== 'string'
    ) {
      return shape;
    }
    // custom-spelling.mdx: "the `to` key must only contain one word, while the `from` key can contain multiple
    // words" (openapi.yml TranscriptCustomSpelling.to: "Word to replace with"). The value is not quoted back: it
    // may be a megabyte long.
    if (INNER_SPACE.test((x as { to: string }).to)) return `[${i}].to must be a single word`;
  }
  return null;
};

/** The service takes up to 1,000 key terms (docs: "Keyterms Prompting"). */
const MAX_KEYTERMS = 1000;
const keyterms: Check = (v) =>
  stringArray(v) ??
  ((v as string[]).length > MAX_KEYTERMS
    ? `can have at most ${MAX_KEYTERMS} terms, got ${(v as string[]).length}`
    : null);

/** The tasks speech_understanding.request takes (docs: translation, speaker identification, custom formatting, summarization, action items). */
const UNDERSTANDING_TASKS = [
  'translation',
  'speaker_identification',
  'custom_formatting',
  'summarization',
  'action_items',
];
// The SDK (4.41.5) types effort as "low" | "medium" on every task; the docs name the parameter without listing
// values, so the SDK's two are what is accepted.
const EFFORTS = oneOf('low', 'medium');
const isObject = (v: unknown): v is Record<string, unknown> => object(v) === null;

/**
 * Each task's fields and their checks; a problem is returned as "<path> <what is wrong>". Fields a task does not
 * know are accepted, as unknown top-level fields are: openapi.yml's TranslationRequestBody,
 * SpeakerIdentificationRequestBody and CustomFormattingRequestBody do not say `additionalProperties: false`
 * (speaker_options does, see speakers/options.ts), so refusing them would be stricter than the documented service.
 */
function understandingTaskProblem(name: string, task: Record<string, unknown>): string | null {
  const field = (key: string, check: Check) =>
    task[key] === undefined ? null : ((p) => (p ? `${name}.${key} ${p}` : null))(check(task[key]));
  const effort = field('effort', EFFORTS);
  if (effort) return effort;
  switch (name) {
    case 'translation': {
      const targets = task.target_languages;
      if (!Array.isArray(targets) || targets.length === 0 || !targets.every((t) => typeof t === 'string')) {
        return `${name}.target_languages must be a non-empty array of language codes`;
      }
      const other = targets.find((t) => !TRANSLATABLE.test(t));
      if (other !== undefined) {
        return `${name}.target_languages: the sandbox cannot translate; it answers English ("en") with the transcript's own text, not ${JSON.stringify(other)}`;
      }
      return field('formal', bool) ?? field('match_original_utterance', bool);
    }
    case 'speaker_identification': {
      const type = task.speaker_type;
      if (type !== 'name' && type !== 'role') return `${name}.speaker_type must be one of "name", "role"`;
      const known = field('known_values', stringArray);
      if (known) return known;
      if ((task.known_values as string[] | undefined)?.some((v) => v.length > 35)) {
        return `${name}.known_values must each be 35 characters or less`;
      }
      const speakers = task.speakers;
      if (speakers !== undefined && (!Array.isArray(speakers) || !speakers.every(isObject))) {
        return `${name}.speakers must be an array of objects`;
      }
      if (type === 'role' && task.known_values === undefined && speakers === undefined) {
        return `${name}.known_values is required when speaker_type is "role"`;
      }
      return null;
    }
    case 'custom_formatting':
      return field('date', string) ?? field('phone_number', string) ?? field('email', string);
    case 'summarization':
      return field('summary_type', oneOf('bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph'));
    default:
      return null;
  }
}

const speechUnderstanding: Check = (v) => {
  if (!isObject(v)) return 'must be an object';
  const request = v.request;
  if (!isObject(request)) return 'must have a request object';
  const tasks = Object.keys(request);
  const unknown = tasks.find((t) => !UNDERSTANDING_TASKS.includes(t));
  if (tasks.length === 0 || unknown !== undefined) {
    return `request must name one or more of ${UNDERSTANDING_TASKS.join(', ')}${unknown === undefined ? '' : `, not ${JSON.stringify(unknown)}`}`;
  }
  for (const task of tasks) {
    if (!isObject(request[task])) return `request.${task} must be an object`;
    const problem = understandingTaskProblem(task, request[task]);
    if (problem) return `request.${problem}`;
  }
  return null;
};

/** Every documented optional parameter, with the check the service applies to it. */
const CHECKS: Record<string, Check> = {
  speech_model: nullable(string),
  language_code: nullable(string),
  language_codes: nullable(stringArray),
  language_detection: bool,
  language_confidence_threshold: number(0, 1),
  language_detection_options: object,
  punctuate: bool,
  format_text: bool,
  disfluencies: bool,
  filter_profanity: bool,
  multichannel: bool,
  audio_start_from: int(0),
  audio_end_at: int(0),
  speech_threshold: nullable(number(0, 1)),
  keyterms_prompt: keyterms,
  prompt: string,
  temperature: number(0, 1),
  custom_spelling: customSpelling,
  remove_audio_tags: nullable(oneOf('all')),
  speaker_labels: bool,
  speakers_expected: nullable(int(1, 10)),
  speaker_options: object,
  sentiment_analysis: bool,
  content_safety: bool,
  content_safety_confidence: int(25, 100),
  entity_detection: bool,
  auto_highlights: bool,
  iab_categories: bool,
  redact_pii: bool,
  redact_pii_policies: stringArray,
  redact_pii_sub: nullable(oneOf('entity_name', 'hash')),
  redact_pii_audio: bool,
  redact_pii_audio_quality: oneOf('mp3', 'wav'),
  redact_pii_audio_options: object,
  speech_understanding: speechUnderstanding,
  summarization: bool,
  summary_model: oneOf('informative', 'conversational', 'catchy'),
  summary_type: oneOf('bullets', 'bullets_verbose', 'gist', 'headline', 'paragraph'),
  auto_chapters: bool,
  custom_topics: bool,
  topics: stringArray,
  webhook_url: string,
  webhook_auth_header_name: nullable(string),
  webhook_auth_header_value: nullable(string),
};

/** An absolute http(s) URL with a host: anything else could never be delivered to. */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

/** An HTTP field name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What a field value may hold: visible Latin-1 and spaces or tabs, no CR, LF or NUL. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Why the webhook's auth header could never be sent (a name that is not a field name, a value with a line
 * break in it), as the service refuses them when the transcript is created rather than at delivery.
 */
function webhookHeaderProblem(name: unknown, value: unknown): string | null {
  if (typeof name === 'string' && !TOKEN.test(name)) {
    return "webhook_auth_header_name must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)";
  }
  if (typeof value === 'string' && !FIELD_VALUE.test(value)) {
    return 'webhook_auth_header_value must be a valid HTTP header value (no line breaks or control characters)';
  }
  return null;
}

/** Above this a body is refused before parsing; the longest legitimate one (a 1,500-word prompt) is far below. */
export const MAX_PARAMS_BYTES = 1024 * 1024;

export type ParamsResult = { params: TranscriptParams } | { error: string };

export function checkTranscriptParams(body: unknown): ParamsResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { error: 'Invalid request body: expected a JSON object with audio_url and speech_models.' };
  }
  const input = body as Record<string, unknown>;
  if (input.audio_url === undefined || input.audio_url === null) {
    return { error: 'Invalid request body: audio_url is required.' };
  }
  if (typeof input.audio_url !== 'string')
    return { error: 'Invalid request body: audio_url must be a string.' };
  if (!/^https?:\/\//i.test(input.audio_url)) {
    return { error: 'Transcript creation error, audio_url should start with http' };
  }
  if (input.speech_models === undefined || input.speech_models === null) {
    return {
      error:
        'Invalid request body: speech_models is required: a list of model ids in priority order, e.g. ["assemblyai-stt-3-7", "universal-2"].',
    };
  }
  if (
    !Array.isArray(input.speech_models) ||
    input.speech_models.length === 0 ||
    !input.speech_models.every((m) => typeof m === 'string' && m.length > 0)
  ) {
    return { error: 'Invalid request body: speech_models must be a non-empty array of model ids.' };
  }
  for (const [key, check] of Object.entries(CHECKS)) {
    const value = input[key];
    if (value === undefined) continue;
    const problem = check(value);
    // An entry's problem ("[2].to ...") reads as custom_spelling[2].to.
    if (problem)
      return { error: `Invalid request body: ${key}${problem.startsWith('[') ? '' : ' '}${problem}.` };
  }
  // The service checks these when the transcript is created (openapi.yml TranscriptOptionalParams
  // .speaker_options: integers, `additionalProperties: false`); the job used to find them only when it ran.
  const speakerProblem = speakerOptionsProblem(input);
  if (speakerProblem) return { error: `Invalid request body: ${speakerProblem}.` };
  const hasName = typeof input.webhook_auth_header_name === 'string';
  const hasValue = typeof input.webhook_auth_header_value === 'string';
  if (hasName !== hasValue) {
    return {
      error:
        'Invalid request body: webhook_auth_header_name and webhook_auth_header_value must be given together.',
    };
  }
  if (input.webhook_url !== undefined && !isHttpUrl(input.webhook_url as string)) {
    return { error: 'Invalid request body: webhook_url must be an http(s) URL.' };
  }
  const headerProblem = webhookHeaderProblem(input.webhook_auth_header_name, input.webhook_auth_header_value);
  if (headerProblem) return { error: `Invalid request body: ${headerProblem}.` };
  if (
    typeof input.audio_start_from === 'number' &&
    typeof input.audio_end_at === 'number' &&
    input.audio_end_at <= input.audio_start_from
  ) {
    return { error: 'Invalid request body: audio_end_at must be greater than audio_start_from.' };
  }
  if (typeof input.language_code === 'string' && !/^en(_|$)/.test(input.language_code)) {
    return {
      error: `The sandbox's speech engine recognises English only (language_code "en", "en_us", "en_uk"...), not ${JSON.stringify(input.language_code)}.`,
    };
  }
  return { params: input as TranscriptParams };
}
