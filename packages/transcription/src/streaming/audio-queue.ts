/**
 * Frames waiting to be sent, oldest first, bounded in bytes. The bound is what makes backpressure
 * visible: the transcriber refuses audio that would pass it instead of growing without limit while the
 * socket is down or the service is slower than the source.
 */
export class AudioQueue {
  #frames: Uint8Array[] = [];
  #head = 0;
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  get length(): number {
    return this.#frames.length - this.#head;
  }

  /** Whether `bytes` more would stay within the bound. */
  fits(bytes: number): boolean {
    return this.#bytes + bytes <= this.maxBytes;
  }

  push(frame: Uint8Array): void {
    this.#frames.push(frame);
    this.#bytes += frame.length;
  }

  /** Puts frames back at the front, in order (audio to replay after a reconnect goes before the rest). */
  unshift(frames: readonly Uint8Array[]): void {
    if (frames.length === 0) return;
    this.#frames = [...frames, ...this.#frames.slice(this.#head)];
    this.#head = 0;
    for (const frame of frames) this.#bytes += frame.length;
  }

  peek(): Uint8Array | undefined {
    return this.#frames[this.#head];
  }

  shift(): Uint8Array | undefined {
    const frame = this.#frames[this.#head];
    if (!frame) return undefined;
    this.#frames[this.#head] = EMPTY;
    this.#head += 1;
    this.#bytes -= frame.length;
    // Compact once the dead prefix is half the array, so shifting stays O(1) amortised.
    if (this.#head > 64 && this.#head * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#head);
      this.#head = 0;
    }
    return frame;
  }

  clear(): void {
    this.#frames = [];
    this.#head = 0;
    this.#bytes = 0;
  }
}

const EMPTY = new Uint8Array(0);
