/**
 * The audio sent since the last final turn, kept so that a reconnect can send it again to the new
 * session: the words spoken after the last final turn are then recognised again instead of lost with the
 * old session. Offsets are bytes of the whole stream (all sessions), so they never depend on a session.
 *
 * Bounded: past `maxBytes` the oldest frames go (and count as `droppedBytes`), so one endless turn cannot
 * hold the whole call in memory.
 */
export class ReplayBuffer {
  #frames: { start: number; frame: Uint8Array }[] = [];
  #bytes = 0;
  /** Bytes the bound pushed out before a final turn covered them: what a reconnect could not replay. */
  droppedBytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Stream offset of the oldest frame kept, or undefined when empty. */
  get start(): number | undefined {
    return this.#frames[0]?.start;
  }

  /** Records a frame just sent, which starts at stream offset `start`. */
  record(start: number, frame: Uint8Array): void {
    if (this.maxBytes <= 0) return;
    this.#frames.push({ start, frame });
    this.#bytes += frame.length;
    let drop = 0;
    while (this.#bytes > this.maxBytes && drop < this.#frames.length) {
      const oldest = this.#frames[drop]!;
      this.#bytes -= oldest.frame.length;
      this.droppedBytes += oldest.frame.length;
      drop += 1;
    }
    if (drop > 0) this.#frames.splice(0, drop);
  }

  /** Forgets the frames that end at or before stream offset `offset` (a final turn covered them). */
  trimBefore(offset: number): void {
    let drop = 0;
    for (const { start, frame } of this.#frames) {
      if (start + frame.length > offset) break;
      this.#bytes -= frame.length;
      drop += 1;
    }
    if (drop > 0) this.#frames.splice(0, drop);
  }

  /**
   * Hands over the frames kept, oldest first, and empties the buffer: the newest ones that fit in
   * `maxBytes`; the older ones count as `droppedBytes`.
   */
  take(maxBytes = Number.POSITIVE_INFINITY): { start: number; frames: Uint8Array[] } | undefined {
    let drop = 0;
    for (let bytes = this.#bytes; bytes > maxBytes && drop < this.#frames.length; drop++) {
      const frame = this.#frames[drop]!.frame;
      bytes -= frame.length;
      this.droppedBytes += frame.length;
    }
    const first = this.#frames[drop];
    if (!first) {
      this.clear();
      return undefined;
    }
    const taken = { start: first.start, frames: this.#frames.slice(drop).map((f) => f.frame) };
    this.#frames = [];
    this.#bytes = 0;
    return taken;
  }

  clear(): void {
    this.#frames = [];
    this.#bytes = 0;
  }
}
