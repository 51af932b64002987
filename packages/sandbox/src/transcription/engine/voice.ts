import { open } from 'node:fs/promises';
import { isNative, NATIVE_RATE, readWavFormat } from './audio.js';
import type { EngineWord, WordVoice } from './types.js';

/**
 * What a voice sounds like over each recognised word: its pitch (YIN over voiced frames) and loudness, read from
 * the 16 kHz mono PCM the recogniser was given. Each word's span is read on its own, so memory is bounded by the
 * longest word and the work is linear in the speech's length (silence between words is never read).
 */

/** Pitch is measured at 8 kHz (pairs of samples averaged): a quarter of the work, and pitch lives far below 4 kHz. */
const RATE = NATIVE_RATE / 2;
/** 40 ms frames every 20 ms: two periods of the lowest pitch searched. */
const FRAME = Math.round(RATE * 0.04);
const HOP = Math.round(RATE * 0.02);
/** Speaking pitch of adults and children: 60–400 Hz. */
const MIN_LAG = Math.floor(RATE / 400);
const MAX_LAG = Math.ceil(RATE / 60);
/** YIN's absolute threshold on the cumulative mean normalised difference; above it a frame is unvoiced. */
const YIN_THRESHOLD = 0.2;
/** Frames quieter than this (dBFS) are breath or silence, not voice. */
const SILENCE_DB = -50;
/** A word longer than this is read only this far: a recogniser's "word" of minutes is noise, not speech. */
const MAX_WORD_MS = 5_000;

export async function measureVoices(wavPath: string, words: readonly EngineWord[]): Promise<WordVoice[]> {
  const format = await readWavFormat(wavPath);
  if (!format || !isNative(format)) return words.map(() => UNVOICED);
  const file = await open(wavPath, 'r');
  try {
    const voices: WordVoice[] = [];
    for (const word of words) {
      const startByte = Math.max(0, Math.floor((word.start * NATIVE_RATE) / 1000)) * 2;
      const endMs = Math.min(word.end, word.start + MAX_WORD_MS);
      const endByte = Math.min(format.dataBytes, Math.floor((endMs * NATIVE_RATE) / 1000) * 2);
      if (endByte - startByte < FRAME * 4) {
        voices.push(UNVOICED);
        continue;
      }
      const buffer = Buffer.alloc(endByte - startByte);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, format.dataOffset + startByte);
      voices.push(voiceOf(decimate(buffer.subarray(0, bytesRead))));
    }
    return voices;
  } finally {
    await file.close();
  }
}

const UNVOICED: WordVoice = { pitch_hz: null, voiced_frames: 0, energy_db: null };

/** 16-bit little-endian PCM at 16 kHz to floats at 8 kHz (each output sample the mean of two inputs). */
function decimate(pcm: Buffer): Float64Array {
  const out = new Float64Array(Math.floor(pcm.length / 4));
  for (let i = 0; i < out.length; i++)
    out[i] = (pcm.readInt16LE(i * 4) + pcm.readInt16LE(i * 4 + 2)) / 65_536;
  return out;
}

/** The median pitch of the voiced frames of one word, and its loudness. Exported for tests and the bench. */
export function voiceOf(samples: Float64Array): WordVoice {
  const pitches: number[] = [];
  let energy = 0;
  let frames = 0;
  const diff = new Float64Array(MAX_LAG + 1);
  for (let at = 0; at + FRAME + MAX_LAG <= samples.length; at += HOP) {
    let power = 0;
    for (let i = at; i < at + FRAME; i++) power += samples[i]! * samples[i]!;
    const db = 10 * Math.log10(power / FRAME + 1e-12);
    if (db < SILENCE_DB) continue;
    energy += db;
    frames++;
    const pitch = yinPitch(samples, at, diff);
    if (pitch !== null) pitches.push(pitch);
  }
  if (frames === 0) return UNVOICED;
  pitches.sort((a, b) => a - b);
  return {
    pitch_hz: pitches.length ? pitches[pitches.length >> 1]! : null,
    voiced_frames: pitches.length,
    energy_db: energy / frames,
  };
}

/** YIN (de Cheveigné & Kawahara 2002): the first dip of the normalised difference below the threshold. */
function yinPitch(samples: Float64Array, at: number, diff: Float64Array): number | null {
  let running = 0;
  diff[0] = 1;
  for (let lag = 1; lag <= MAX_LAG; lag++) {
    let sum = 0;
    for (let i = at; i < at + FRAME; i++) {
      const d = samples[i]! - samples[i + lag]!;
      sum += d * d;
    }
    running += sum;
    diff[lag] = running > 0 ? (sum * lag) / running : 1;
  }
  for (let lag = MIN_LAG; lag < MAX_LAG; lag++) {
    if (diff[lag]! < YIN_THRESHOLD) {
      while (lag + 1 < MAX_LAG && diff[lag + 1]! < diff[lag]!) lag++;
      return RATE / refine(diff, lag);
    }
  }
  return null;
}

/** Parabolic interpolation around the chosen lag, for pitch finer than one sample at 8 kHz. */
function refine(diff: Float64Array, lag: number): number {
  const a = diff[lag - 1]!;
  const b = diff[lag]!;
  const c = diff[lag + 1]!;
  const denominator = a - 2 * b + c;
  return denominator > 0 ? lag + (a - c) / (2 * denominator) : lag;
}
