import { describeType, ValidationError } from '@x/core';
import { type AudioFormat, MIN_FRAME_MS, msToBytes } from './audio-format.js';

/** Audio as a caller may hold it: raw bytes, any typed array or DataView, a Node `Buffer`. */
export type AudioChunk = ArrayBuffer | ArrayBufferView;

/** A view of the chunk's bytes, without copying. Returns undefined for anything that is not audio. */
export function chunkBytes(chunk: unknown): Uint8Array | undefined {
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/** The chunk's bytes; a `ValidationError` naming what was given when it is not audio. */
export function audioBytes(chunk: unknown): Uint8Array {
  const bytes = chunkBytes(chunk);
  if (bytes) return bytes;
  throw new ValidationError('audio chunk', [
    {
      path: 'chunk',
      message: `expected an ArrayBuffer, a typed array or a Buffer, received ${describeType(chunk)}`,
    },
  ]);
}

/**
 * Cuts audio of any chunk size into frames of exactly `frameMs` (the service refuses a frame outside
 * 50–1,000 ms with close 3007). Frames are copies: a caller may reuse its buffer as soon as the call
 * returns (an AudioWorklet does).
 */
export class Framer {
  readonly frameBytes: number;
  readonly #format: AudioFormat;
  #pending: Uint8Array;
  #filled = 0;

  constructor(format: AudioFormat, frameMs: number) {
    this.#format = format;
    this.frameBytes = msToBytes(frameMs, format);
    this.#pending = new Uint8Array(this.frameBytes);
  }

  /** Bytes held back until a frame is complete. */
  get pendingBytes(): number {
    return this.#filled;
  }

  /** The complete frames `bytes` finishes, in order; the rest waits for the next call. */
  push(bytes: Uint8Array): Uint8Array[] {
    const frames: Uint8Array[] = [];
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(this.frameBytes - this.#filled, bytes.length - at);
      this.#pending.set(bytes.subarray(at, at + take), this.#filled);
      this.#filled += take;
      at += take;
      if (this.#filled === this.frameBytes) {
        frames.push(this.#pending);
        this.#pending = new Uint8Array(this.frameBytes);
        this.#filled = 0;
      }
    }
    return frames;
  }

  /**
   * The held-back tail as a last frame, padded with silence to the 50 ms minimum (and to whole samples) so
   * that the service takes it; undefined when nothing is held back.
   */
  flush(): Uint8Array | undefined {
    if (this.#filled === 0) return undefined;
    const width = this.#format.bytesPerSample;
    const whole = Math.ceil(this.#filled / width) * width;
    const size = Math.max(whole, msToBytes(MIN_FRAME_MS, this.#format));
    const frame = new Uint8Array(size).fill(this.#format.silence);
    frame.set(this.#pending.subarray(0, this.#filled));
    this.#filled = 0;
    return frame;
  }

  /** Forgets the held-back tail. */
  clear(): void {
    this.#filled = 0;
  }
}
