import type { AudioFormat } from './audio-format.js';

/*
 * Draining a backlog without sending faster than real time (the service closes 3007 on that, and documents
 * no tolerance): while more than `maxLeadMs` waits to be sent (a replay after a reconnect, a file piped
 * faster than real time), frames of silence are skipped instead of sent, but never so much of a pause that
 * the service could not end a turn in it. Skipped stretches are recorded on the session's `SkipTimeline`,
 * so word times still name the user's audio.
 */

/**
 * A frame is silence when every 10 ms of it stays below -55 dBFS (RMS): quieter than a quiet room through a
 * microphone, and below what a VAD takes for speech (the emulator's, at either profile's default
 * `vad_threshold`, starts at -48 and -51 dBFS; speech is around -30). Judged per 10 ms so a short sound
 * (a plosive, a word's onset) inside an otherwise quiet frame keeps the whole frame.
 */
const SILENCE_DBFS = -55;
const SILENCE_AMPLITUDE = 32768 * 10 ** (SILENCE_DBFS / 20);

/**
 * `max_turn_silence` where the params leave it unset: the larger of the documented defaults
 * (1,280 ms for universal-streaming, 1,000 ms for u3-rt-pro), so that no model's turn end is cut short.
 */
const DEFAULT_MAX_TURN_SILENCE_MS = 1280;
/** Kept on top of `max_turn_silence`: the service may hear a pause begin a little late. */
const PAUSE_MARGIN_MS = 400;

/** How much of each pause is always sent: the service ends a turn after `max_turn_silence` at the latest. */
export function pauseToKeepMs(maxTurnSilence: number | undefined): number {
  return (maxTurnSilence ?? DEFAULT_MAX_TURN_SILENCE_MS) + PAUSE_MARGIN_MS;
}

/** One G.711 μ-law byte as a 16-bit sample. */
function mulaw(byte: number): number {
  const u = ~byte & 0xff;
  const magnitude = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

/** Whether every 10 ms of `frame` is below the silence level. */
export function isSilent(frame: Uint8Array, format: AudioFormat): boolean {
  const width = format.bytesPerSample;
  const samples = Math.floor(frame.length / width);
  const window = Math.max(1, Math.round(format.sampleRate / 100));
  for (let from = 0; from < samples; from += window) {
    const to = Math.min(samples, from + window);
    let sum = 0;
    for (let i = from; i < to; i++) {
      const at = i * width;
      const sample = width === 2 ? ((frame[at]! | (frame[at + 1]! << 8)) << 16) >> 16 : mulaw(frame[at]!);
      sum += sample * sample;
    }
    if (sum >= SILENCE_AMPLITUDE * SILENCE_AMPLITUDE * (to - from)) return false;
  }
  return true;
}

/**
 * Decides, frame by frame in sending order, which frames to skip: only silent ones, only while there is a
 * backlog, and only once the current pause has had `keepMs()` of silence sent.
 */
export class SilenceSkipper {
  readonly #format: AudioFormat;
  readonly #keepMs: () => number;
  /** Silence sent since the last sound: the part of the current pause the service has heard. */
  #keptMs = 0;

  constructor(format: AudioFormat, keepMs: () => number) {
    this.#format = format;
    this.#keepMs = keepMs;
  }

  /** A session starts: it has heard no pause yet. */
  reset(): void {
    this.#keptMs = 0;
  }

  /** Whether to skip `frame` (`ms` long), the next to go out; `backlog`: more than the lead is waiting. */
  skip(frame: Uint8Array, ms: number, backlog: boolean): boolean {
    if (!isSilent(frame, this.#format)) {
      this.#keptMs = 0;
      return false;
    }
    if (backlog && this.#keptMs >= this.#keepMs()) return true;
    this.#keptMs += ms;
    return false;
  }
}

/**
 * A session's time mapped back to the stream's: `baseMs` (where the session's audio starts in the stream)
 * plus every stretch skipped at or before that point of the session. Piecewise: a word after a skip point
 * gets the skipped duration added, a word before it does not.
 */
export class SkipTimeline {
  readonly baseMs: number;
  /** Session time (ms of audio sent) of each skip, ascending. */
  readonly #at: number[] = [];
  /** Skipped ms up to and including each point. */
  readonly #total: number[] = [];

  constructor(baseMs: number) {
    this.baseMs = baseMs;
  }

  /** Milliseconds skipped in this session. */
  get skippedMs(): number {
    return this.#total[this.#total.length - 1] ?? 0;
  }

  /** `ms` of audio was skipped after `atMs` of the session's audio was sent. */
  add(atMs: number, ms: number): void {
    const last = this.#at.length - 1;
    if (last >= 0 && this.#at[last] === atMs) this.#total[last]! += ms;
    else {
      this.#at.push(atMs);
      this.#total.push(this.skippedMs + ms);
    }
  }

  /** The stream time of session time `ms`. */
  toStream(ms: number): number {
    // The last skip point at or before `ms` (binary search: a long session has one per long pause).
    let lo = 0;
    let hi = this.#at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#at[mid]! <= ms) lo = mid + 1;
      else hi = mid;
    }
    return this.baseMs + ms + (lo > 0 ? this.#total[lo - 1]! : 0);
  }
}
