/**
 * The audio a session receives, made into what the recogniser reads (16 kHz mono s16le) and what the turn
 * logic measures (speech or silence per 10 ms). Pure functions and small stateful stages, no I/O.
 */
import type { Encoding } from './params.js';

export const RECOGNIZER_RATE = 16_000;

/** Samples a binary frame holds: 2 bytes each in `pcm_s16le` (an odd byte waits for the next frame), 1 in μ-law. */
export function frameSamples(bytes: number, encoding: Encoding, carried: number): number {
  return encoding === 'pcm_mulaw' ? bytes : Math.floor((bytes + carried) / 2);
}

/** ITU-T G.711 μ-law to 16-bit linear (the standard expansion: invert, then sign, exponent and mantissa). */
export function decodeMulaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const u = ~bytes[i]! & 0xff;
    const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)) - 0x84;
    out[i] = u & 0x80 ? -magnitude : magnitude;
  }
  return out;
}

/**
 * Little-endian 16-bit samples from a stream of byte frames that may split a sample: the odd byte of one
 * frame is kept for the next (clients such as the SDK's dual-channel mixer send whole samples, but a raw
 * WebSocket client may not).
 */
export class S16Reader {
  #odd: number | undefined;

  get carried(): number {
    return this.#odd === undefined ? 0 : 1;
  }

  read(bytes: Uint8Array): Int16Array {
    const total = bytes.length + this.carried;
    const out = new Int16Array(Math.floor(total / 2));
    let at = 0;
    let i = 0;
    if (this.#odd !== undefined && bytes.length > 0) {
      out[at++] = (((bytes[0]! << 8) | this.#odd) << 16) >> 16;
      this.#odd = undefined;
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) out[at++] = (((bytes[i + 1]! << 8) | bytes[i]!) << 16) >> 16;
    if (i < bytes.length) this.#odd = bytes[i]!;
    return out;
  }
}

/**
 * A streaming resampler to 16 kHz. Downsampling averages the input samples each output sample spans (a box
 * filter: enough against the aliasing that would turn 48 kHz hiss into speech-band noise for a recogniser);
 * upsampling interpolates linearly. The fractional position carries across frames, so frame boundaries leave
 * no clicks and the output length tracks `input × 16000 / rate` within one sample over a whole session.
 */
export class Resampler {
  readonly #step: number;
  /** Where the next output sample falls, in input samples from the start of the input not yet used. */
  #position = 0;
  /** Downsampling: input the last output sample did not reach. Upsampling: the last input sample (index -1). */
  #pending: Int16Array = new Int16Array(0);
  #last = 0;

  constructor(readonly inputRate: number) {
    this.#step = inputRate / RECOGNIZER_RATE;
  }

  push(samples: Int16Array): Int16Array {
    if (this.inputRate === RECOGNIZER_RATE) return samples;
    return this.#step > 1 ? this.#down(samples) : this.#up(samples);
  }

  #down(samples: Int16Array): Int16Array {
    const input = new Int16Array(this.#pending.length + samples.length);
    input.set(this.#pending);
    input.set(samples, this.#pending.length);
    const out: number[] = [];
    for (; this.#position + this.#step <= input.length; this.#position += this.#step) {
      const from = Math.floor(this.#position);
      const to = Math.floor(this.#position + this.#step);
      let sum = 0;
      for (let i = from; i < to; i++) sum += input[i]!;
      out.push(Math.round(sum / Math.max(1, to - from)));
    }
    const used = Math.floor(this.#position);
    this.#pending = input.slice(used);
    this.#position -= used;
    return Int16Array.from(out);
  }

  #up(input: Int16Array): Int16Array {
    const out: number[] = [];
    // Output at position p lies between input[floor(p)] and the next one; index -1 is the previous frame's last.
    for (; Math.floor(this.#position) + 1 < input.length; this.#position += this.#step) {
      const i = Math.floor(this.#position);
      const a = i < 0 ? this.#last : input[i]!;
      const b = input[i + 1]!;
      out.push(Math.round(a + (b - a) * (this.#position - i)));
    }
    if (input.length > 0) {
      this.#last = input[input.length - 1]!;
      this.#position -= input.length;
    }
    return Int16Array.from(out);
  }
}

/** 10 ms frames at 16 kHz: the unit silence is measured in. */
export const VAD_FRAME_SAMPLES = 160;
export const VAD_FRAME_MS = 10;

/**
 * How likely a 10 ms frame is speech, from its energy alone: 0 at -60 dBFS (a quiet room through a
 * microphone) rising linearly to 1 at -30 dBFS (plain speech). The service's VAD is a model; this one only has
 * to tell synthetic or recorded speech from the silence between phrases, which energy does. A frame is speech
 * when its probability reaches the session's `vad_threshold` (default 0.4: -48 dBFS; u3 0.3: -51 dBFS).
 */
export function speechProbability(frame: Int16Array): number {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += frame[i]! * frame[i]!;
  const rms = Math.sqrt(sum / Math.max(1, frame.length)) / 32768;
  const dbfs = rms > 0 ? 20 * Math.log10(rms) : -120;
  return Math.min(1, Math.max(0, (dbfs + 60) / 30));
}

/** One 10 ms frame: its samples and verdict, at its end time in ms of session audio. */
export interface VadFrame {
  endMs: number;
  speech: boolean;
  probability: number;
  samples: Int16Array;
}

/**
 * Cuts 16 kHz samples into 10 ms frames (keeping the remainder for the next call) and classifies each. The
 * recogniser is fed these same frames, so an utterance ended at a frame holds exactly the audio before it.
 */
export class EnergyVad {
  #rest: Int16Array = new Int16Array(0);
  #frames = 0;

  push(samples: Int16Array, threshold: number): VadFrame[] {
    const input = new Int16Array(this.#rest.length + samples.length);
    input.set(this.#rest);
    input.set(samples, this.#rest.length);
    const out: VadFrame[] = [];
    let at = 0;
    for (; at + VAD_FRAME_SAMPLES <= input.length; at += VAD_FRAME_SAMPLES) {
      const samples = input.subarray(at, at + VAD_FRAME_SAMPLES);
      const probability = speechProbability(samples);
      this.#frames += 1;
      out.push({
        endMs: this.#frames * VAD_FRAME_MS,
        speech: probability >= threshold,
        probability,
        samples,
      });
    }
    this.#rest = input.slice(at);
    return out;
  }
}
