/**
 * The speech engine seam of the transcription emulator. The REST layer only sees `Engine`, so another
 * recogniser (whisper.cpp, when a user has it and a model) is a new implementation picked by configuration,
 * not a change to the jobs, the routes or the formatting.
 */

/** One recognised word. Times are integer milliseconds from the start of the audio, as on the service. */
export interface EngineWord {
  text: string;
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
}

/** How the voice sounded over one word (`TranscribeOptions.voices`), for telling speakers apart. */
export interface WordVoice {
  /** Median pitch of the word's voiced frames; null when none was voiced. */
  pitch_hz: number | null;
  voiced_frames: number;
  /** Mean loudness of the word's non-silent frames (dBFS); null when all were silent. */
  energy_db: number | null;
}

export interface EngineResult {
  /** In time order; after formatting a spoken number is one word ("456") spanning its spoken words. */
  words: EngineWord[];
  /** With `TranscribeOptions.voices`: one entry per word of `words`, in the same order. */
  voices?: WordVoice[];
  text: string;
  /** Seconds (fractional; the service's integer `audio_duration` is the REST layer's rounding). */
  audio_duration: number;
}

export interface TranscribeOptions {
  signal?: AbortSignal;
  /** Final punctuation (the service's `punctuate`, default true). */
  punctuate?: boolean;
  /** Sentence case and spoken numbers as digits (the service's `format_text`, default true). */
  format_text?: boolean;
  /**
   * The most seconds of audio to convert and recognise. A header that declares no duration (a FLAC written to
   * a pipe) can hide hours of audio in a small file: the conversion stops just past this, and audio that
   * reaches it is refused before recognition (`EngineError` 'failed').
   */
  maxSeconds?: number;
  /** Recognise only this channel (1-based) of a multichannel file instead of the mixdown. */
  channel?: number;
  /** Measure each word's pitch and loudness (`EngineResult.voices`), for speaker labels. */
  voices?: boolean;
}

/** What an audio file's header declares, before any of it is decoded. */
export interface AudioHeader {
  sampleRate: number;
  channels: number;
  /** Seconds of audio; undefined when the header does not say. */
  seconds: number | undefined;
}

export interface Engine {
  /** A stable name for configuration and logs, e.g. `pocketsphinx`. */
  readonly name: string;
  /**
   * Recognise the speech in an audio file (a path). Rejects with `EngineError` (unavailable, bad audio,
   * timeout, failure) or with the signal's reason on abort; every child process it started has exited by then.
   */
  transcribe(audioPath: string, options?: TranscribeOptions): Promise<EngineResult>;
  /**
   * The audio's declared format, read from its header without converting or recognising it, so the job can
   * refuse audio it would not accept before paying for either. Undefined when the header cannot be read.
   */
  probe?(audioPath: string, options?: { signal?: AbortSignal }): Promise<AudioHeader | undefined>;
}

export type EngineErrorCode = 'unavailable' | 'bad_audio' | 'timeout' | 'failed';

/** The one install line, so every "not installed" message tells the same, complete story. */
export const INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us sox';

/**
 * Why a transcription could not be made. The message is written for the person running the sandbox: the REST
 * layer puts it as is into the transcript's `error` (a job that ends in `status: "error"`).
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** What an aborted call rejects with: the signal's own reason, as fetch and Node's APIs do. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
