/**
 * The connection's query parameters and `UpdateConfiguration`'s fields, as the AsyncAPI specs
 * (usm-streaming.yml, usm-streaming-u3-pro.yml) and the model pages document them. Unknown parameters are
 * ignored, as the service ignores them; a documented one with a value out of its type or range refuses the
 * session (3006): the service validates its input and the docs list no silent fallback.
 */

/** Universal-Streaming (word-by-word partials, confidence-based turns) or Universal-3 Pro (punctuation-based). */
export type TurnProfile = 'universal' | 'u3';

/** The speech models the docs and the `assemblyai` SDK name, with the message sequence each one follows. */
const MODELS: Record<string, TurnProfile> = {
  'universal-streaming-english': 'universal',
  'universal-streaming-multilingual': 'universal',
  'whisper-rt': 'universal',
  'u3-rt-pro': 'u3',
  'u3-rt-pro-beta-1': 'u3',
  'u3-pro': 'u3',
  'universal-3-5-pro': 'u3',
  'universal-3-6': 'u3',
  'universal-3-6-pro': 'u3',
};
/** "It's optional; if omitted, the session defaults to `u3-rt-pro`" (model selection page, current). */
export const DEFAULT_MODEL = 'u3-rt-pro';

export const ENCODINGS = ['pcm_s16le', 'pcm_mulaw'] as const;
export type Encoding = (typeof ENCODINGS)[number];
/** The docs give 16000 (default) and 48000 as examples and no range; the emulator takes telephone to studio. */
export const SAMPLE_RATES = { min: 8000, max: 48_000 } as const;

/** What `UpdateConfiguration` may change mid-session. */
export interface TurnSettings {
  end_of_turn_confidence_threshold: number;
  /** ms of silence after speech before a turn may end when confident (u3: before the punctuation check). */
  min_turn_silence: number;
  /** ms of silence after which the turn ends whatever the confidence. */
  max_turn_silence: number;
  /** 0..1: a frame whose speech probability is below it is silence. */
  vad_threshold: number;
  format_turns: boolean;
  keyterms_prompt: string[];
  prompt: string | undefined;
}

export interface SessionConfig extends TurnSettings {
  /** Seconds; undefined = no inactivity timeout (the documented default). */
  inactivity_timeout: number | undefined;
  speech_model: string;
  profile: TurnProfile;
  sample_rate: number;
  encoding: Encoding;
  language_detection: boolean;
  speaker_labels: boolean;
  max_speakers: number | undefined;
}

/** The documented defaults of each profile (usm-streaming.yml vs usm-streaming-u3-pro.yml). */
function defaults(profile: TurnProfile): TurnSettings {
  const u3 = profile === 'u3';
  return {
    end_of_turn_confidence_threshold: 0.4,
    min_turn_silence: u3 ? 100 : 400,
    max_turn_silence: u3 ? 1000 : 1280,
    vad_threshold: u3 ? 0.3 : 0.4,
    format_turns: false,
    keyterms_prompt: [],
    prompt: undefined,
  };
}

export interface ParamLimits {
  /** The smallest `inactivity_timeout` accepted, in seconds: 5 as documented (tests may lower it). */
  minInactivitySeconds: number;
}

type Raw = string | unknown;
/** A checked value, or why it was refused (the message names the parameter). */
type Checked<T> = { value: T } | { error: string };

const quote = (raw: Raw) => JSON.stringify(typeof raw === 'string' ? raw.slice(0, 60) : raw) ?? String(raw);

function bool(name: string, raw: Raw): Checked<boolean> {
  if (raw === true || raw === 'true' || raw === 'True') return { value: true };
  if (raw === false || raw === 'false' || raw === 'False') return { value: false };
  return { error: `${name} must be true or false, got ${quote(raw)}` };
}

function number(
  name: string,
  raw: Raw,
  range: { min: number; max: number; integer?: boolean },
): Checked<number> {
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)
        ? Number(raw)
        : Number.NaN;
  const kind = range.integer ? 'an integer' : 'a number';
  if (!Number.isFinite(n) || n < range.min || n > range.max || (range.integer && !Number.isInteger(n))) {
    return { error: `${name} must be ${kind} from ${range.min} to ${range.max}, got ${quote(raw)}` };
  }
  return { value: n };
}

/** A list of terms: a JSON array of strings in the query (as the SDK sends it), an array in a message. */
function terms(name: string, raw: Raw): Checked<string[]> {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { error: `${name} must be a JSON array of strings, got ${quote(raw)}` };
    }
  }
  if (!Array.isArray(value) || value.length > 1000 || !value.every((t) => typeof t === 'string')) {
    return { error: `${name} must be an array of at most 1000 strings` };
  }
  return { value: value as string[] };
}

function text(name: string, raw: Raw): Checked<string> {
  return typeof raw === 'string' ? { value: raw } : { error: `${name} must be a string, got ${quote(raw)}` };
}

const SILENCE = { min: 0, max: 3_600_000, integer: true };

/** The turn settings a query or an `UpdateConfiguration` names, checked one by one onto `into`. */
function readTurnSettings(get: (name: string) => Raw | undefined, into: TurnSettings): string | undefined {
  const apply = <K extends keyof TurnSettings>(
    key: K,
    check: (name: string, raw: Raw) => Checked<TurnSettings[K]>,
    names: string[] = [key],
  ): string | undefined => {
    for (const name of names) {
      const raw = get(name);
      if (raw === undefined || raw === null) continue;
      const checked = check(name, raw);
      if ('error' in checked) return checked.error;
      into[key] = checked.value;
      return undefined;
    }
    return undefined;
  };
  return (
    apply('end_of_turn_confidence_threshold', (n, r) => number(n, r, { min: 0, max: 1 })) ??
    // The deprecated name is read only when the current one is absent, as the SDK sends it.
    apply('min_turn_silence', (n, r) => number(n, r, SILENCE), [
      'min_turn_silence',
      'min_end_of_turn_silence_when_confident',
    ]) ??
    apply('max_turn_silence', (n, r) => number(n, r, SILENCE)) ??
    apply('vad_threshold', (n, r) => number(n, r, { min: 0, max: 1 })) ??
    apply('format_turns', bool) ??
    apply('keyterms_prompt', terms) ??
    apply('prompt', text)
  );
}

/** The connection's configuration from its query, or the 3006 message naming the parameter. */
export function readConnectionParams(
  query: URLSearchParams,
  limits: ParamLimits,
): { config: SessionConfig } | { error: string } {
  // A repeated parameter is read as its first value, as most web frameworks do.
  const get = (name: string) => query.get(name) ?? undefined;
  const speech_model = get('speech_model') || DEFAULT_MODEL;
  // Own names only: `MODELS.toString` or `MODELS.__proto__` would otherwise pass as a model with no profile.
  const profile = Object.hasOwn(MODELS, speech_model) ? MODELS[speech_model] : undefined;
  if (!profile) {
    return {
      error: `speech_model must be one of ${Object.keys(MODELS).join(', ')}, got ${quote(speech_model)}`,
    };
  }
  const encoding = get('encoding') ?? 'pcm_s16le';
  if (!(ENCODINGS as readonly string[]).includes(encoding)) {
    return {
      error: `encoding must be one of ${ENCODINGS.join(', ')} (the sandbox decodes no compressed audio), got ${quote(encoding)}`,
    };
  }
  const rate = get('sample_rate');
  const sample_rate =
    rate === undefined ? { value: 16_000 } : number('sample_rate', rate, { ...SAMPLE_RATES, integer: true });
  if ('error' in sample_rate) return sample_rate;
  const flags: Record<'language_detection' | 'speaker_labels', boolean> = {
    language_detection: false,
    speaker_labels: false,
  };
  for (const name of ['language_detection', 'speaker_labels'] as const) {
    const raw = get(name);
    if (raw === undefined) continue;
    const checked = bool(name, raw);
    if ('error' in checked) return checked;
    flags[name] = checked.value;
  }
  let max_speakers: number | undefined;
  const speakers = get('max_speakers');
  if (speakers !== undefined) {
    const checked = number('max_speakers', speakers, { min: 1, max: 10, integer: true });
    if ('error' in checked) return checked;
    max_speakers = checked.value;
  }
  let inactivity_timeout: number | undefined;
  const inactivity = get('inactivity_timeout');
  if (inactivity !== undefined) {
    const range = { min: limits.minInactivitySeconds, max: 3600, integer: true };
    const checked = number('inactivity_timeout', inactivity, range);
    if ('error' in checked) return checked;
    inactivity_timeout = checked.value;
  }
  const turn = defaults(profile);
  const error = readTurnSettings(get, turn);
  if (error) return { error };
  return {
    config: {
      ...turn,
      speech_model,
      profile,
      sample_rate: sample_rate.value,
      encoding: encoding as Encoding,
      ...flags,
      max_speakers,
      inactivity_timeout,
    },
  };
}

/**
 * `UpdateConfiguration`'s fields onto a copy of the session's turn settings, or the 3006 message. Fields the
 * message does not document (including `inactivity_timeout` and the audio format) are ignored; `null` keeps
 * the current value (the spec makes each field nullable).
 */
export function readUpdate(
  message: Record<string, unknown>,
  current: TurnSettings,
): { settings: TurnSettings } | { error: string } {
  const settings = { ...current, keyterms_prompt: [...current.keyterms_prompt] };
  const own = (name: string) => (Object.hasOwn(message, name) ? message[name] : undefined);
  const error = readTurnSettings(own, settings);
  return error ? { error } : { settings };
}
