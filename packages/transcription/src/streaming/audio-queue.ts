/**
 * What waits to be sent, oldest first: audio frames, and the control messages (`ForceEndpoint`,
 * `UpdateConfiguration`, `Terminate`) in their place among them, so that a `ForceEndpoint` ends the turn
 * after the audio sent before it and not before audio still queued. Bounded in bytes of audio: the bound
 * makes backpressure visible, since the transcriber refuses audio that would pass it instead of growing
 * without limit while the socket is down or the source runs faster than the service takes audio.
 */
export type QueueItem = Uint8Array | string;

export class AudioQueue {
  #items: QueueItem[] = [];
  #head = 0;
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes of audio queued. */
  get bytes(): number {
    return this.#bytes;
  }

  get length(): number {
    return this.#items.length - this.#head;
  }

  /** Whether `bytes` more audio would stay within the bound. */
  fits(bytes: number): boolean {
    return this.#bytes + bytes <= this.maxBytes;
  }

  push(item: QueueItem): void {
    this.#items.push(item);
    if (typeof item !== 'string') this.#bytes += item.length;
  }

  /** Puts frames back at the front, in order (audio to replay after a reconnect goes before the rest). */
  unshift(frames: readonly Uint8Array[]): void {
    if (frames.length === 0) return;
    this.#items = [...frames, ...this.#items.slice(this.#head)];
    this.#head = 0;
    for (const frame of frames) this.#bytes += frame.length;
  }

  peek(): QueueItem | undefined {
    return this.#items[this.#head];
  }

  shift(): QueueItem | undefined {
    const item = this.#items[this.#head];
    if (item === undefined) return undefined;
    this.#items[this.#head] = '';
    this.#head += 1;
    if (typeof item !== 'string') this.#bytes -= item.length;
    // Compact once the dead prefix is half the array, so shifting stays O(1) amortised.
    if (this.#head > 64 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
    this.#bytes = 0;
  }
}
