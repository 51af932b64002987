import { type Clock, Timer } from '@x/core/socket';
import { type AudioFormat, bytesToMs, msToBytes } from './audio-format.js';
import { AudioQueue, type QueueItem } from './audio-queue.js';
import { Framer } from './framer.js';
import { ReplayBuffer } from './replay.js';
import { SilenceSkipper, SkipTimeline } from './silence.js';

export interface SenderSettings {
  format: AudioFormat;
  frameMs: number;
  /** Audio that may wait to be sent (before `Begin`, while reconnecting, or ahead of real time). */
  maxQueueMs: number;
  /**
   * Audio kept since the last final turn, to replay after a reconnect; 0 keeps none. At most half of
   * `maxQueueMs` is kept, and a replay never takes more than the queue has free, so live audio keeps room.
   */
  replayMs: number;
  /** How much of each pause is always sent (see `SilenceSkipper`); read at each pause, as it may change. */
  keepSilenceMs(): number;
  /** How far audio may run ahead of the session's clock; Infinity sends as soon as the socket takes it. */
  maxLeadMs: number;
  /** Past this many bytes unsent in the socket, frames wait (the link is slower than the audio). */
  maxBufferedBytes: number;
  clock: Clock;
  /** Hands an item to the live socket; false when there is none. */
  transmit(item: QueueItem): boolean;
  /** Bytes the socket holds unsent (`bufferedAmount`). */
  buffered(): number;
  /** The queue has room again after audio was refused. */
  drained(): void;
}

/**
 * The audio path: any chunk in, frames of `frameMs` out, through a bounded queue, at no more than real
 * time plus `maxLeadMs` since the session began (the service closes 3007 on audio faster than real time),
 * recording what was sent for a replay. Offsets are bytes of the whole stream, across sessions. While
 * more than `maxLeadMs` waits, silence past the part of each pause a turn end needs is skipped, so that a
 * backlog (a replay) drains instead of delaying every later turn; the session's `SkipTimeline` maps its
 * times back to the stream's.
 */
export class AudioSender {
  readonly #s: SenderSettings;
  readonly #framer: Framer;
  readonly #queue: AudioQueue;
  readonly #replay: ReplayBuffer;
  readonly #timer: Timer;
  readonly #skipper: SilenceSkipper;
  /** The current (or last) session's map from its times to the stream's. */
  #timeline = new SkipTimeline(0);
  #skippedBytes = 0;
  /** A session is running: `Begin` came and the socket has not dropped since. */
  #live = false;
  #sessionStartedAt = 0;
  #sessionBytes = 0;
  /** Stream offset of the next audio byte to send. */
  #offset = 0;
  /** Audio was refused since the queue last had room: `drained` is owed. */
  #refused = false;
  #waiters: { empty: boolean; resolve(): void; reject(error: unknown): void }[] = [];

  constructor(settings: SenderSettings) {
    this.#s = settings;
    this.#framer = new Framer(settings.format, settings.frameMs);
    this.#queue = new AudioQueue(msToBytes(settings.maxQueueMs, settings.format));
    const replayMs = Math.min(settings.replayMs, settings.maxQueueMs / 2);
    this.#replay = new ReplayBuffer(msToBytes(replayMs, settings.format));
    this.#timer = new Timer(settings.clock);
    this.#skipper = new SilenceSkipper(settings.format, settings.keepSilenceMs);
  }

  /** Milliseconds of audio waiting (queued frames and the partial frame being filled). */
  get queuedMs(): number {
    return bytesToMs(this.#queue.bytes + this.#framer.pendingBytes, this.#s.format);
  }

  /** Milliseconds of audio sent or replayed, i.e. the stream position of the next frame. */
  get offsetMs(): number {
    return bytesToMs(this.#offset, this.#s.format);
  }

  /** Milliseconds of audio the replay buffer had to let go before a final turn covered it. */
  get droppedMs(): number {
    return bytesToMs(this.#replay.droppedBytes, this.#s.format);
  }

  /** Milliseconds of silence skipped to drain a backlog, over all sessions. */
  get skippedMs(): number {
    return bytesToMs(this.#skippedBytes, this.#s.format);
  }

  /** The most audio one call can ever queue (the bound minus nothing). */
  get capacityBytes(): number {
    return this.#queue.maxBytes;
  }

  /**
   * Takes audio: all of it or none (`partial` false), or as much as fits (`partial` true). Returns the
   * bytes taken.
   */
  offer(bytes: Uint8Array, partial: boolean): number {
    const room = this.#queue.maxBytes - this.#queue.bytes - this.#framer.pendingBytes;
    const take = partial ? Math.min(room, bytes.length) : bytes.length <= room ? bytes.length : 0;
    if (take < bytes.length) this.#refused = true;
    if (take === 0) return 0;
    for (const frame of this.#framer.push(take === bytes.length ? bytes : bytes.subarray(0, take))) {
      this.#queue.push(frame);
    }
    this.#pump();
    return take;
  }

  /** Queues a JSON message behind the audio taken so far. */
  control(message: string): void {
    this.#queue.push(message);
    this.#pump();
  }

  /** The partial last frame goes out padded to 50 ms (the stream is ending). */
  flushTail(): void {
    const tail = this.#framer.flush();
    if (tail) this.#queue.push(tail);
    this.#pump();
  }

  /**
   * A session began: its clock starts now. Returns its timeline: the stream offset (ms) its audio starts
   * at, and the silence skipped as it goes.
   */
  sessionStarted(): SkipTimeline {
    this.#live = true;
    this.#sessionStartedAt = this.#s.clock.now();
    this.#sessionBytes = 0;
    this.#timeline = new SkipTimeline(this.offsetMs);
    this.#skipper.reset();
    this.#pump();
    return this.#timeline;
  }

  /**
   * The session's socket dropped: what was sent since the last final turn goes back to the front of the
   * queue, for the next session, as much of its end as the queue has room for. Returns the milliseconds
   * put back.
   */
  sessionLost(): number {
    this.#live = false;
    this.#timer.clear();
    const taken = this.#replay.take(this.#queue.maxBytes - this.#queue.bytes - this.#framer.pendingBytes);
    if (!taken) return 0;
    this.#queue.unshift(taken.frames);
    const bytes = this.#offset - taken.start;
    this.#offset = taken.start;
    return bytes <= 0 ? 0 : bytesToMs(bytes, this.#s.format);
  }

  /** A final turn covered the audio up to stream time `endMs`: no reconnect needs it again. */
  finalCovered(endMs: number): void {
    const samples = Math.floor((endMs * this.#s.format.sampleRate) / 1000);
    this.#replay.trimBefore(samples * this.#s.format.bytesPerSample);
  }

  /** Resolves when the queue has room again (half empty), or when it is empty (`empty`). */
  wait(empty: boolean): Promise<void> {
    if (this.#satisfied(empty)) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ empty, resolve, reject }));
  }

  /**
   * A `WritableStream` over `offer`: each write takes what fits and waits for room for the rest, so a
   * pipe runs at the pace the queue drains. `bytes` checks a chunk (and that writing is still allowed).
   */
  writable<T>(
    bytes: (chunk: T) => Uint8Array,
    sink: { close(): Promise<unknown>; abort(): Promise<unknown> },
  ): WritableStream<T> {
    return new WritableStream<T>({
      write: async (chunk) => {
        let rest = bytes(chunk);
        while (rest.length > 0) {
          rest = rest.subarray(this.offer(rest, true));
          if (rest.length > 0) await this.wait(false);
        }
      },
      close: async () => {
        await sink.close();
      },
      abort: async () => {
        await sink.abort();
      },
    });
  }

  /** The transcriber is done: waiters reject with `error`, and nothing more is sent. */
  stop(error: unknown): void {
    this.#live = false;
    this.#timer.clear();
    this.#queue.clear();
    this.#framer.clear();
    this.#replay.clear();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }

  #pump(): void {
    if (!this.#live) return;
    this.#timer.clear();
    const s = this.#s;
    for (let item = this.#queue.peek(); item !== undefined; item = this.#queue.peek()) {
      if (typeof item !== 'string') {
        if (s.buffered() > s.maxBufferedBytes) {
          this.#timer.set(s.frameMs / 2, () => this.#pump());
          break;
        }
        const elapsed = s.clock.now() - this.#sessionStartedAt;
        const ahead = bytesToMs(this.#sessionBytes + item.length, s.format) - elapsed - s.maxLeadMs;
        if (ahead > 0) {
          this.#timer.set(Math.ceil(ahead), () => this.#pump());
          break;
        }
        const backlog = bytesToMs(this.#queue.bytes, s.format) > s.maxLeadMs;
        if (this.#skipper.skip(item, bytesToMs(item.length, s.format), backlog)) {
          this.#queue.shift();
          this.#timeline.add(bytesToMs(this.#sessionBytes, s.format), bytesToMs(item.length, s.format));
          this.#skippedBytes += item.length;
          // Kept for a replay all the same: the next session decides again whether it needs it.
          this.#replay.record(this.#offset, item);
          this.#offset += item.length;
          continue;
        }
      }
      if (!this.#transmit(item)) break;
      this.#queue.shift();
      if (typeof item !== 'string') {
        this.#replay.record(this.#offset, item);
        this.#offset += item.length;
        this.#sessionBytes += item.length;
      }
    }
    this.#settle();
  }

  #transmit(item: QueueItem): boolean {
    try {
      return this.#s.transmit(item);
    } catch {
      // A socket closing under us: the close that follows decides what happens to the session.
      return false;
    }
  }

  #satisfied(empty: boolean): boolean {
    return empty ? this.#queue.length === 0 : this.#queue.bytes * 2 <= this.#queue.maxBytes;
  }

  #settle(): void {
    if (this.#refused && this.#satisfied(false)) {
      this.#refused = false;
      this.#s.drained();
    }
    if (this.#waiters.length === 0) return;
    const ready = this.#waiters.filter((w) => this.#satisfied(w.empty));
    if (ready.length === 0) return;
    this.#waiters = this.#waiters.filter((w) => !ready.includes(w));
    for (const waiter of ready) waiter.resolve();
  }
}
