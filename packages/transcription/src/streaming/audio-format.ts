import type { StreamingEncoding } from '../schemas/streaming.js';

/**
 * Byte arithmetic of the two PCM encodings the service takes. Everything that measures audio (frame
 * sizes, queue bounds, stream offsets) counts bytes, which are exact, and converts to milliseconds here.
 */
export interface AudioFormat {
  readonly sampleRate: number;
  /** 2 for `pcm_s16le`, 1 for `pcm_mulaw`. */
  readonly bytesPerSample: number;
  /** The byte value of silence: 0 for 16-bit PCM, 0xff for μ-law (which encodes +0 as 0xff). */
  readonly silence: number;
}

export function audioFormat(sampleRate: number, encoding: StreamingEncoding = 'pcm_s16le'): AudioFormat {
  return encoding === 'pcm_mulaw'
    ? { sampleRate, bytesPerSample: 1, silence: 0xff }
    : { sampleRate, bytesPerSample: 2, silence: 0 };
}

/** Milliseconds of audio in `bytes`. */
export function bytesToMs(bytes: number, format: AudioFormat): number {
  return (bytes / format.bytesPerSample / format.sampleRate) * 1000;
}

/**
 * Bytes of at least `ms` of audio, in whole samples: rounded up, so a 50 ms frame at 22,050 Hz is 1,103
 * samples and never 49.98 ms, which the service would refuse (3007).
 */
export function msToBytes(ms: number, format: AudioFormat): number {
  return Math.max(0, Math.ceil((format.sampleRate * ms) / 1000 - 1e-9)) * format.bytesPerSample;
}

/** The shortest and longest frame the service accepts (3007 outside), per the docs. */
export const MIN_FRAME_MS = 50;
export const MAX_FRAME_MS = 1000;
