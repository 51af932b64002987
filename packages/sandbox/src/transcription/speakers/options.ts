/**
 * How many speakers a request allows, from `speakers_expected` and `speaker_options`. AssemblyAI's docs
 * (assemblyai-api-spec, speaker-diarization.mdx): `speakers_expected` is the exact count, to be used "only when
 * you are confident"; `speaker_options` sets a range, and "by default, the model will return between 1 and 10
 * speakers". With `multichannel` the range applies per channel (multichannel-transcription.mdx).
 */

/** Speakers are lettered A to Z; a bound above that is read as Z (the SDK types set no upper limit). */
export const MAX_SPEAKERS = 26;
/** The service's upper limit when `speaker_options` sets none. */
export const DEFAULT_MAX_SPEAKERS = 10;

export interface SpeakerRange {
  min: number;
  max: number;
  /** True when the request fixed the count (`speakers_expected`, or min equal to max). */
  exact: boolean;
}

type Params = Record<string, unknown>;

const SPEAKER_OPTION_FIELDS: readonly string[] = ['min_speakers_expected', 'max_speakers_expected'];

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1;

/**
 * Why `speakers_expected` / `speaker_options` cannot be honoured, naming the field; null when they can. The
 * request parser checks `speakers_expected` (an integer 1–10) and calls this at creation for the fields inside
 * `speaker_options`; the job asks again for records stored before that check existed.
 */
export function speakerOptionsProblem(params: Params): string | null {
  const options = params.speaker_options;
  if (options === undefined || options === null) return null;
  if (typeof options !== 'object' || Array.isArray(options)) return 'speaker_options must be an object';
  // openapi.yml: speaker_options has `additionalProperties: false`, so a misspelt bound is refused, not ignored.
  const unknown = Object.keys(options).find((key) => !SPEAKER_OPTION_FIELDS.includes(key));
  if (unknown !== undefined) {
    return `speaker_options has no field ${JSON.stringify(unknown.slice(0, 64))}; it takes ${SPEAKER_OPTION_FIELDS.join(', ')}`;
  }
  const { min_speakers_expected: min, max_speakers_expected: max } = options as Params;
  if (min !== undefined && min !== null && !isCount(min)) {
    return 'speaker_options.min_speakers_expected must be an integer of at least 1';
  }
  if (max !== undefined && max !== null && !isCount(max)) {
    return 'speaker_options.max_speakers_expected must be an integer of at least 1';
  }
  if (isCount(min) && isCount(max) && min > max) {
    return 'speaker_options.min_speakers_expected must not be greater than speaker_options.max_speakers_expected';
  }
  return null;
}

/**
 * The allowed number of speakers. `speakers_expected` wins over `speaker_options` (it is the exact count);
 * without either, 1 to `DEFAULT_MAX_SPEAKERS` (or to the minimum, when that is higher). Call after `speakerOptionsProblem` returned null; anything malformed
 * that reaches here anyway is ignored, never thrown.
 */
export function speakerRange(params: Params): SpeakerRange {
  const expected = params.speakers_expected;
  if (isCount(expected)) {
    const n = Math.min(expected, MAX_SPEAKERS);
    return { min: n, max: n, exact: true };
  }
  const options = (typeof params.speaker_options === 'object' && params.speaker_options) || {};
  const { min_speakers_expected: rawMin, max_speakers_expected: rawMax } = options as Params;
  const min = isCount(rawMin) ? Math.min(rawMin, MAX_SPEAKERS) : 1;
  const max = Math.max(min, isCount(rawMax) ? Math.min(rawMax, MAX_SPEAKERS) : DEFAULT_MAX_SPEAKERS);
  return { min, max, exact: min === max };
}
