/**
 * One `/v3/ws` session from `Begin` to its close: audio frames checked (50..1000 ms, no faster than real time)
 * and fed to the recogniser and the turn tracker, client messages dispatched, the session's clocks (its
 * maximum duration, `inactivity_timeout`), and every way it can end. Whatever way it ends, the recogniser is
 * closed exactly once, including when it is still starting.
 */
import type { WebSocket } from 'ws';
import { reportHandlerFailure } from '../../kit/emulator.js';
import { decodeMulaw, EnergyVad, frameSamples, RECOGNIZER_RATE, Resampler, S16Reader } from './audio.js';
import { parseClientMessage } from './client-messages.js';
import { CLOSE, closeReason, type ErrorCloseCode, MESSAGE } from './closures.js';
import { beginMessage, errorMessage, terminationMessage } from './messages.js';
import { readUpdate, type SessionConfig } from './params.js';
import type { StreamingRecognizer, StreamingRecognizerFactory } from './recognizer.js';
import { TurnTracker } from './turns.js';

export interface SessionLimits {
  /** How far the audio received may run ahead of the wall clock since `Begin` before 3007. */
  realtimeToleranceMs: number;
  /** A client that leaves this much of our messages unread is closed (3005). */
  maxBufferedBytes: number;
}

/** What the handle lists of a live session (no key or token: those are secrets). */
export interface StreamingSessionInfo {
  id: string;
  via: 'api_key' | 'token';
  speech_model: string;
  sample_rate: number;
  encoding: string;
  /** ms of audio received so far. */
  audio_ms: number;
  turn_order: number;
  stalled: boolean;
  /** `Date.now()` at `Begin`. */
  started_at: number;
}

/** How long `Terminate` waits for the recogniser's last words before answering without them. */
const FLUSH_TIMEOUT_MS = 10_000;

/** Audio kept while the recogniser starts: 60 s at 16 kHz; more means it is not starting. */
const MAX_PENDING_BYTES = 60 * RECOGNIZER_RATE * 2;

export class Session {
  readonly startedAt = Date.now();
  readonly #started = performance.now();
  readonly #vad = new EnergyVad();
  readonly #s16 = new S16Reader();
  readonly #resampler: Resampler;
  readonly #tracker: TurnTracker;
  #recognizer: StreamingRecognizer | undefined;
  #starting: Promise<StreamingRecognizer> | undefined;
  #pending: Uint8Array[] | undefined = [];
  #pendingBytes = 0;
  /** Samples received, at the client's rate. */
  #samples = 0;
  #lastActivity = performance.now();
  #timers: NodeJS.Timeout[] = [];
  #stalled = false;
  #ending = false;
  #gone = false;

  constructor(
    readonly id: string,
    readonly via: 'api_key' | 'token',
    private readonly ws: WebSocket,
    private readonly config: SessionConfig,
    private readonly maxSessionSeconds: number,
    private readonly limits: SessionLimits,
    private readonly hooks: {
      /** Called once, when the session is over, however it ended. */
      gone(session: Session): void;
      /** `Termination` was sent. */
      terminated(): void;
    },
  ) {
    this.#resampler = new Resampler(config.sample_rate);
    this.#tracker = new TurnTracker({
      profile: config.profile,
      settings: () => this.config,
      speakerLabels: config.speaker_labels,
      languageDetection: config.language_detection,
      write: (pcm) => this.#write(pcm),
      endUtterance: () => this.#endUtterance(),
      send: (text) => this.#send(text),
      fail: (error) => this.#serverError(error),
    });
  }

  /** Sends `Begin`, starts the clocks and the recogniser, and listens. */
  start(factory: StreamingRecognizerFactory): void {
    this.ws.on('close', () => this.#dispose());
    this.ws.on('error', () => this.terminate());
    this.ws.on('message', (data, isBinary) => {
      try {
        this.#receive(data as Buffer, isBinary);
      } catch (error) {
        reportHandlerFailure('transcription', 'streaming frame', error);
        this.close(CLOSE.serverError, MESSAGE.serverError);
      }
    });
    const expiresAt = Math.floor((Date.now() + this.maxSessionSeconds * 1000) / 1000);
    this.#send(beginMessage(this.id, expiresAt));
    this.#after(this.maxSessionSeconds * 1000, () => this.#expire());
    if (this.config.inactivity_timeout !== undefined)
      this.#watchActivity(this.config.inactivity_timeout * 1000);
    this.#starting = factory();
    this.#starting.then(
      (recognizer) => this.#ready(recognizer),
      (error: unknown) => this.#serverError(error),
    );
  }

  info(): StreamingSessionInfo {
    return {
      id: this.id,
      via: this.via,
      speech_model: this.config.speech_model,
      sample_rate: this.config.sample_rate,
      encoding: this.config.encoding,
      audio_ms: Math.round((this.#samples * 1000) / this.config.sample_rate),
      turn_order: this.#tracker.turnOrder,
      stalled: this.#stalled,
      started_at: this.startedAt,
    };
  }

  get open(): boolean {
    return !this.#gone;
  }

  /** An error closure: the `Error` frame, then the close with the same code. */
  close(code: ErrorCloseCode, message: string): void {
    if (this.#gone) return;
    this.#send(errorMessage(code, message));
    this.#closeSocket(code, message);
  }

  /** Drops the socket without a close frame (the client sees 1006), as a crashed server would. */
  terminate(): void {
    this.#dispose();
    this.ws.terminate();
  }

  /** Stops reading and answering, socket open: frames wait in the connection, our messages are dropped. */
  stall(): void {
    if (this.#gone || this.#stalled) return;
    this.#stalled = true;
    this.ws.pause();
  }

  resume(): void {
    if (!this.#stalled) return;
    this.#stalled = false;
    this.#lastActivity = performance.now();
    if (!this.#gone) this.ws.resume();
  }

  #receive(data: Buffer, isBinary: boolean): void {
    if (this.#gone || this.#ending) return;
    this.#lastActivity = performance.now();
    if (isBinary) {
      this.#audio(data);
      return;
    }
    const parsed = parseClientMessage(data);
    if ('error' in parsed) {
      this.close(CLOSE.invalidMessage, parsed.error);
      return;
    }
    const { message } = parsed;
    switch (message.type) {
      case 'KeepAlive':
        return;
      case 'ForceEndpoint':
        void this.#tracker.forceEndpoint();
        return;
      case 'Terminate':
        void this.#finish(() => this.#closeSocket(CLOSE.normal, 'Session terminated'));
        return;
      case 'UpdateConfiguration': {
        const update = readUpdate(message.fields, this.config);
        if ('error' in update) this.close(CLOSE.invalidMessage, MESSAGE.invalidMessage(update.error));
        else Object.assign(this.config, update.settings);
        return;
      }
    }
  }

  #audio(data: Buffer): void {
    const rate = this.config.sample_rate;
    const samples = frameSamples(data.length, this.config.encoding, this.#s16.carried);
    // In samples, so 50 ms at 44.1 kHz (2205 samples) is exactly 50 and never 49.99999.
    if (samples * 1000 < 50 * rate || samples * 1000 > 1000 * rate) {
      this.close(CLOSE.audioViolation, MESSAGE.inputDuration((samples * 1000) / rate));
      return;
    }
    this.#samples += samples;
    const audioMs = (this.#samples * 1000) / rate;
    const elapsedMs = performance.now() - this.#started;
    if (audioMs - elapsedMs > this.limits.realtimeToleranceMs) {
      this.close(CLOSE.audioViolation, MESSAGE.transmissionRate(audioMs / 1000, elapsedMs / 1000));
      return;
    }
    const linear = this.config.encoding === 'pcm_mulaw' ? decodeMulaw(data) : this.#s16.read(data);
    const pcm = this.#resampler.push(linear);
    this.#tracker.audio(this.#vad.push(pcm, this.config.vad_threshold));
  }

  /** The tracker's writes: to the recogniser, or kept (bounded) while it starts. */
  #write(bytes: Uint8Array): void {
    if (this.#gone) return;
    if (this.#recognizer) {
      this.#recognizer.write(bytes);
      return;
    }
    if (!this.#pending) return;
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes > MAX_PENDING_BYTES) {
      this.#serverError(new Error('the recogniser did not start within 60 s of audio'));
    }
  }

  #ready(recognizer: StreamingRecognizer): void {
    if (this.#gone) {
      recognizer.close();
      return;
    }
    this.#recognizer = recognizer;
    recognizer.onUpdate((update) => {
      if (!this.#gone) this.#tracker.update(update);
    });
    recognizer.onError((error) => this.#serverError(error));
    for (const chunk of this.#pending ?? []) recognizer.write(chunk);
    this.#pending = undefined;
  }

  /** Waits for the recogniser to start, so audio kept meanwhile is in the utterance it belongs to. */
  async #endUtterance() {
    const recognizer = this.#recognizer ?? (await this.#starting);
    if (!recognizer || this.#gone) return [];
    return recognizer.endUtterance();
  }

  /** Ends answering: the last turn, `Termination`, then `close` (a normal close, or an error closure). */
  async #finish(close: () => void): Promise<void> {
    if (this.#ending || this.#gone) return;
    this.#ending = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    });
    await Promise.race([this.#tracker.flush(), late]);
    clearTimeout(timer);
    if (this.#gone) return;
    const sessionSeconds = (performance.now() - this.#started) / 1000;
    this.#send(terminationMessage(this.#samples / this.config.sample_rate, sessionSeconds));
    this.hooks.terminated();
    close();
  }

  #expire(): void {
    void this.#finish(() => this.close(CLOSE.sessionExpired, MESSAGE.sessionExpired));
  }

  /** `inactivity_timeout`: nothing from the client for that long ends the session as `Terminate` would. */
  #watchActivity(timeoutMs: number): void {
    const check = () => {
      const idle = performance.now() - this.#lastActivity;
      if (this.#stalled || idle < timeoutMs) this.#after(Math.max(10, timeoutMs - idle), check);
      else void this.#finish(() => this.#closeSocket(CLOSE.normal, 'Session terminated: inactivity timeout'));
    };
    this.#after(timeoutMs, check);
  }

  #serverError(error: unknown): void {
    if (this.#gone) return;
    const detail = error instanceof Error ? error.message : String(error);
    this.close(CLOSE.serverError, detail ? `Session Cancelled: ${detail}` : MESSAGE.serverError);
  }

  #send(text: string): void {
    if (this.#gone || this.#stalled) return;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      this.#closeSocket(CLOSE.serverError, 'Session Cancelled: the client does not read its messages');
      return;
    }
    this.ws.send(text);
  }

  #after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers = this.#timers.filter((t) => t !== timer);
      if (!this.#gone) run();
    }, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #closeSocket(code: number, message: string): void {
    if (this.#gone) return;
    const ws = this.ws;
    this.#dispose();
    try {
      ws.close(code, closeReason(message));
    } catch {
      ws.terminate();
      return;
    }
    // A client that never answers the close frame is dropped after a second.
    setTimeout(() => ws.terminate(), 1000).unref();
  }

  #dispose(): void {
    if (this.#gone) return;
    this.#gone = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
    this.#pending = undefined;
    this.#recognizer?.close();
    this.hooks.gone(this);
  }
}
