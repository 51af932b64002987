import { ValidationError } from '@x/core';
import {
  type CloseVerdict,
  Emitter,
  type Listener,
  type SocketClose,
  systemClock,
  Timer,
} from '@x/core/socket';
import type { StreamingParams, StreamingUpdateConfiguration } from '../schemas/streaming.js';
import type { BeginEvent, TerminationEvent, TurnEvent } from '../schemas/streaming-messages.js';
import { decodeMessage } from '../schemas/streaming-messages.js';
import { Attempts } from './attempt.js';
import { audioFormat } from './audio-format.js';
import { openError, redactor, socketEndError, TerminationWait } from './closes.js';
import { StreamingConnection } from './connection.js';
import { isFinalClose, StreamingError } from './errors.js';
import type { CloseOptions, StreamingTranscriberEvents } from './events.js';
import { type AudioChunk, audioBytes } from './framer.js';
import { type ResolvedOptions, resolveOptions, type StreamingTranscriberOptions } from './options.js';
import { checkStreamingParams, checkUpdateConfiguration } from './params.js';
import { connectionQuery } from './query.js';
import { ReconnectPolicy } from './reconnects.js';
import { AudioSender } from './sender.js';
import { pauseToKeepMs } from './silence.js';
import { TurnStream } from './turn-stream.js';
import { TurnTracker } from './turns.js';

const TERMINATE = '{"type":"Terminate"}';

/**
 * A live transcription over AssemblyAI's Streaming v3 WebSocket: audio in (any chunk size, any pace:
 * framed, paced and queued within bounds), turns out (events and `for await`), across reconnects when the
 * network drops a session. See the package README's streaming section.
 */
export class StreamingTranscriber implements AsyncIterable<TurnEvent> {
  /** The connection parameters, as checked. */
  readonly params: StreamingParams;
  readonly #o: ResolvedOptions;
  /** A listener that throws is reported to the `log` option (the other listeners still run). */
  readonly #events = new Emitter<StreamingTranscriberEvents>((...line) => this.#o.log?.(...line));
  readonly #sender: AudioSender;
  readonly #tracker = new TurnTracker();
  readonly #redact: (text: string) => string;
  #socket: StreamingConnection | undefined;
  #connecting: Promise<BeginEvent> | undefined;
  #settleConnect: { resolve(begin: BeginEvent): void; reject(error: unknown): void } | undefined;
  #closing: Promise<TerminationEvent | undefined> | undefined;
  #done = false;
  /** The current session, while its socket is up. */
  #session: BeginEvent | undefined;
  #everBegan = false;
  /** The `Error` message the service sent on the current socket (its close follows). */
  #serviceError: { code?: number | undefined; text?: string | undefined } | undefined;
  #termination: TerminationEvent | undefined;
  readonly #termWait = new TerminationWait();
  readonly #attempts: Attempts;
  readonly #reconnects: ReconnectPolicy;
  #replayedMs = 0;
  /** `updateConfiguration()` changes, applied to later sessions' URLs too. */
  #updates: StreamingUpdateConfiguration = {};
  #turns: TurnStream | undefined;
  readonly #endTimer = new Timer(systemClock);

  constructor(params: StreamingParams, options: StreamingTranscriberOptions) {
    this.#o = resolveOptions(options);
    this.params = checkStreamingParams(params, this.#o.allowUnknownFields);
    this.#attempts = new Attempts(this.#o, () => this.#socket?.traffic());
    this.#reconnects = new ReconnectPolicy(this.#o.reconnect?.maxAttempts ?? 0, systemClock);
    const auth = this.#o.auth;
    this.#redact = redactor('apiKey' in auth ? [auth.apiKey] : 'token' in auth ? [auth.token] : []);
    this.#sender = new AudioSender({
      format: audioFormat(this.params.sample_rate, this.params.encoding),
      frameMs: this.#o.frameMs,
      maxQueueMs: this.#o.maxQueueMs,
      replayMs: this.#o.reconnect?.replayMs ?? 0,
      keepSilenceMs: () => pauseToKeepMs(this.#updates.max_turn_silence ?? this.params.max_turn_silence),
      maxLeadMs: this.#o.maxLeadMs,
      maxBufferedBytes: 256 * 1024,
      clock: systemClock,
      transmit: (item) => this.#socket?.send(item) ?? false,
      buffered: () => this.#socket?.bufferedAmount ?? 0,
      drained: () => this.#events.emit('drain'),
    });
  }

  /** The current session's id, while one is open. */
  get sessionId(): string | undefined {
    return this.#session?.id;
  }

  /** Milliseconds of audio waiting to be sent. */
  get queuedMs(): number {
    return this.#sender.queuedMs;
  }

  /** Milliseconds of silence skipped to catch up with real time after a backlog (word times include it). */
  get skippedSilenceMs(): number {
    return this.#sender.skippedMs;
  }

  on<K extends keyof StreamingTranscriberEvents & string>(
    event: K,
    listener: Listener<StreamingTranscriberEvents[K]>,
  ): this {
    this.#events.bind(event, listener);
    return this;
  }

  off<K extends keyof StreamingTranscriberEvents & string>(
    event?: K,
    listener?: Listener<StreamingTranscriberEvents[K]>,
  ): this {
    this.#events.unbind(event, listener);
    return this;
  }

  /**
   * Opens the session; resolves with `Begin`. Rejects (never hangs) on a timeout (`TimeoutError`), a
   * network failure (`ConnectionError`), a refusal (`StreamingAuthenticationError` for 1008, the other
   * `StreamingError`s for 3005–3009) or `close()` before `Begin`. Audio sent before it is queued.
   */
  connect(): Promise<BeginEvent> {
    if (this.#connecting) return this.#connecting;
    if (this.#done || this.#closing) return Promise.reject(new StreamingError('the transcriber is closed'));
    this.#connecting = new Promise((resolve, reject) => {
      this.#settleConnect = { resolve, reject };
    });
    this.#socket = this.#openSocket();
    this.#socket.connect();
    return this.#connecting;
  }

  /**
   * Queues audio (an ArrayBuffer, a typed array, a Buffer; 16-bit little-endian PCM or μ-law, as the
   * params say) of any size. Returns false, taking none of it, when the queue (`maxQueueMs`) has no room
   * for it: the `drain` event says when it has. Throws once the transcriber is closing.
   */
  sendAudio(chunk: AudioChunk): boolean {
    const bytes = this.#audio(chunk);
    if (bytes.length > this.#sender.capacityBytes) {
      throw new ValidationError('sendAudio chunk', [
        { path: 'chunk', message: 'is longer than maxQueueMs of audio: split it, or write it to stream()' },
      ]);
    }
    return this.#sender.offer(bytes, false) === bytes.length;
  }

  /**
   * A `WritableStream` of audio chunks: each `write()` waits while the queue is full, so `pipeTo` runs at
   * the pace the service allows. Closing the stream closes the transcriber (pass `preventClose: true` to
   * `pipeTo` to keep the session); aborting it closes without waiting for `Termination`.
   */
  stream(): WritableStream<AudioChunk> {
    return this.#sender.writable((chunk: AudioChunk) => this.#audio(chunk), {
      close: () => this.close(),
      abort: () => this.close({ waitForTermination: false }),
    });
  }

  /** Changes turn detection or prompting mid-session, in order with the audio; later sessions keep it. */
  updateConfiguration(config: StreamingUpdateConfiguration): void {
    const checked = checkUpdateConfiguration(config, this.#o.allowUnknownFields);
    this.#usable();
    this.#updates = { ...this.#updates, ...checked };
    this.#sender.control(JSON.stringify({ type: 'UpdateConfiguration', ...checked }));
  }

  /** Ends the current turn once the audio queued before this call has been sent. */
  forceEndpoint(): void {
    this.#usable();
    this.#sender.control('{"type":"ForceEndpoint"}');
  }

  /** Resets the service's `inactivity_timeout` while no audio is sent. */
  keepAlive(): void {
    this.#usable();
    this.#sender.control('{"type":"KeepAlive"}');
  }

  /**
   * Ends the session: the audio queued is sent (the last partial frame padded to 50 ms), then `Terminate`;
   * resolves with `Termination` (after the last final turn), or undefined if it did not come within
   * `timeoutMs` or the session could not go on. Idempotent.
   */
  close(options: CloseOptions = {}): Promise<TerminationEvent | undefined> {
    this.#closing ??= this.#close(options.waitForTermination ?? true, options.timeoutMs ?? 10_000);
    return this.#closing;
  }

  /** Every turn, partial and final, from now until the transcriber closes (one reader). */
  [Symbol.asyncIterator](): AsyncIterator<TurnEvent> {
    if (!this.#turns) {
      this.#turns = new TurnStream(this.#o.maxQueuedTurns);
      if (this.#done) this.#turns.end();
    }
    return this.#turns;
  }

  async #close(wait: boolean, timeoutMs: number): Promise<TerminationEvent | undefined> {
    if (this.#done) return this.#termination;
    // Before Begin; or not waiting while reconnecting, where waiting would outlast every attempt.
    if (!this.#socket || !this.#everBegan || (!wait && this.#socket.state !== 'connected')) {
      const reason = this.#everBegan ? 'closed' : 'closed before the session began';
      this.#finish(undefined, { code: 1000, reason });
      return undefined;
    }
    this.#sender.flushTail();
    this.#sender.control(TERMINATE);
    try {
      // Everything queued goes out first; a reconnect meanwhile replays it and queues Terminate again.
      for (;;) {
        await this.#sender.wait(true);
        if (!wait) break;
        if (this.#termination || this.#done) break;
        if ((await this.#termWait.wait(timeoutMs)) !== 'lost') break;
      }
    } catch {
      // The transcriber failed while closing: that error was emitted already.
    }
    this.#finish(undefined, { code: 1000, reason: 'closed' });
    return this.#termination;
  }

  #openSocket(): StreamingConnection {
    const host = {
      url: () => this.#attempts.url(connectionQuery({ ...this.params, ...this.#updates })),
      factory: () => this.#attempts.factory(),
      message: (data: unknown) => this.#received(data),
      classify: (close: SocketClose, wasConnected: boolean, errorEvent: unknown) =>
        this.#classify(close, wasConnected, errorEvent),
      openFailed: (error: unknown) => this.#openFailed(error),
      // Without a WebSocket ping (browsers) there is nothing to ask: the link counts as alive.
      ping: () => (this.#attempts.ping ? this.#attempts.ping() : this.#socket?.traffic()),
    };
    return new StreamingConnection(host, this.#o);
  }

  #received(data: unknown): void {
    this.#socket?.traffic();
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
    const decoded = decodeMessage(text);
    if (decoded.kind === 'invalid') {
      this.#events.emit(
        'error',
        new StreamingError(`unreadable message from the service: ${decoded.reason}`),
      );
      return;
    }
    if (decoded.kind === 'error') {
      this.#serviceError = { code: decoded.message.error_code, text: decoded.message.error };
      return;
    }
    if (decoded.kind === 'other') {
      this.#events.emit('message', decoded.message);
      return;
    }
    const message = decoded.message;
    switch (message.type) {
      case 'Begin':
        this.#began(message);
        break;
      case 'Turn': {
        const turn = this.#tracker.accept(message);
        if (!turn) break;
        if (turn.end_of_turn) {
          this.#sender.finalCovered(this.#tracker.finalEndMs);
          this.#reconnects.progressed();
        }
        this.#events.emit('turn', turn);
        this.#turns?.push(turn);
        break;
      }
      case 'SpeechStarted':
        this.#events.emit('speechStarted', this.#tracker.speechStarted(message));
        break;
      case 'Termination':
        this.#termination = message;
        this.#events.emit('termination', message);
        if (this.#termWait.waiting) this.#termWait.settle('done');
        // Not asked for: the service ended the session itself (inactivity_timeout, or 3008 at its time
        // limit), and its close, which says which, comes next; should it not, the transcriber ends anyway.
        else if (!this.#closing) {
          this.#endTimer.set(5000, () =>
            this.#finish(undefined, { code: 1000, reason: 'terminated by the service' }),
          );
        }
        break;
      case 'Warning':
        this.#events.emit('warning', message);
        break;
    }
  }

  #began(begin: BeginEvent): void {
    if (!this.#socket || this.#session) return;
    this.#session = begin;
    this.#serviceError = undefined;
    this.#reconnects.began();
    this.#socket.begin();
    this.#tracker.startSession(this.#sender.sessionStarted());
    this.#events.emit('begin', begin);
    if (!this.#everBegan) {
      this.#everBegan = true;
      this.#settleConnect?.resolve(begin);
      return;
    }
    const gapMs = Date.now() - this.#reconnects.droppedAt;
    this.#events.emit('reconnected', { gapMs, replayedMs: this.#replayedMs, sessionId: begin.id });
  }

  #classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict {
    const error = socketEndError(
      close,
      { wasConnected, errorEvent },
      this.#serviceError,
      { id: this.#session?.id, connectTimeoutMs: this.#o.connectTimeoutMs },
      this.#redact,
    );
    this.#serviceError = undefined;
    if (this.#termination) {
      // The session ended with Termination: no reconnect; the close says whether it ended well (1000).
      return this.#fail(close.code === 1000 ? undefined : error, close);
    }
    const reconnect = this.#o.reconnect;
    const wasLive = this.#session !== undefined;
    this.#session = undefined;
    if (!this.#everBegan || isFinalClose(close.code) || !reconnect || 'token' in this.#o.auth) {
      return this.#fail(error, close);
    }
    // A session that dropped before proving stable is a failed attempt, up to `maxAttempts` in a row.
    const step = wasLive ? this.#reconnects.dropped() : this.#reconnects.failed();
    if (step === 'give up') return this.#fail(error, close);
    if (wasLive) {
      this.#replayedMs = this.#sender.sessionLost();
      if (this.#closing) this.#sender.control(TERMINATE);
      this.#termWait.settle('lost');
      this.#events.emit('reconnecting', { ...close, error });
    }
    return step;
  }

  #openFailed(error: unknown): CloseVerdict {
    const wrapped = openError(error, this.#redact);
    const close = { code: 1006, reason: 'could not open' };
    if (!this.#everBegan || !this.#o.reconnect || wrapped instanceof ValidationError) {
      return this.#fail(wrapped, close);
    }
    return this.#reconnects.failed() === 'give up' ? this.#fail(wrapped, close) : 'backoff';
  }

  #fail(error: Error | undefined, close: SocketClose): CloseVerdict {
    this.#finish(error, close);
    return { fail: error };
  }

  /** Ends the transcriber once: the socket closed, waiters released, `error` (if any) then `close`. */
  #finish(error: Error | undefined, close: SocketClose): void {
    if (this.#done) return;
    this.#done = true;
    this.#endTimer.clear();
    const ended = error ?? new StreamingError('the transcriber is closed');
    this.#socket?.disconnect();
    this.#sender.stop(ended);
    this.#settleConnect?.reject(error ?? new StreamingError('closed before the session began'));
    this.#termWait.settle('done');
    if (error) this.#events.emit('error', error);
    this.#turns?.end(error);
    this.#events.emit('close', { code: close.code, reason: close.reason });
  }

  #usable(): void {
    if (this.#done || this.#closing) {
      throw new StreamingError('the transcriber is closed (or closing): create a new one for a new session');
    }
  }

  #audio(chunk: unknown): Uint8Array {
    this.#usable();
    return audioBytes(chunk);
  }
}
