import { StreamingTranscriber, type TurnEvent } from '@x/transcription/streaming';
import type { CallView, LiveCallStart, LiveTurnInput } from '../shared/api.js';
import { LIVE_TURN_LIMITS } from '../shared/live-transcript.js';
import type { LiveCallApi } from './api.js';
import { TurnOutbox } from './live-outbox.js';

/** Where the audio comes from: the microphone in the page, a WAV in tests. */
export interface AudioSource {
  /** Asks for the device (the browser's permission prompt), before any call is opened. */
  open(): Promise<void>;
  /** Delivers 16-bit PCM at `sampleRate` until `stop()`. */
  start(sampleRate: number, onAudio: (pcm: Int16Array) => void): Promise<void>;
  /** Releases the device; idempotent. */
  stop(): Promise<void>;
}

export type LiveStatus = 'idle' | 'opening' | 'connecting' | 'listening' | 'ending' | 'ended';

export interface LiveSessionEvents {
  status(status: LiveStatus): void;
  /** The call record, when opened and when ended. */
  call(call: CallView): void;
  /** Each partial and final turn, as this tab shows it (the others get it through the app server). */
  turn(callId: string, turn: LiveTurnInput): void;
  error(error: unknown): void;
}

/**
 * A service turn as the desk relays it. The service's `transcript` holds only the final words, so a
 * partial's text is all its words; a final's is its `transcript` (formatted, with `format_turns`). Both
 * are kept within the relay's bounds, keeping the latest words.
 */
export function relayedTurn(turn: TurnEvent): LiveTurnInput {
  const text = turn.end_of_turn ? turn.transcript : turn.words.map((w) => w.text).join(' ');
  return {
    turn_order: turn.turn_order,
    end_of_turn: turn.end_of_turn,
    turn_is_formatted: turn.turn_is_formatted,
    text: text.slice(-LIVE_TURN_LIMITS.maxChars),
    ...(turn.end_of_turn
      ? {
          words: turn.words.slice(-LIVE_TURN_LIMITS.maxWords).map((w) => ({
            text: w.text.slice(0, 100),
            start: Math.max(0, w.start),
            end: Math.max(0, w.end),
          })),
        }
      : {}),
  };
}

/**
 * One live call from this tab: the microphone streamed straight to the streaming service with a temporary
 * token from the app server (fresh ones for reconnections), each turn shown here and relayed to the app
 * server, which keeps the transcript, pushes it to the other tabs and analyses it when the call ends.
 */
export class LiveCallSession {
  #started: LiveCallStart | null = null;
  #transcriber: StreamingTranscriber | null = null;
  #outbox: TurnOutbox | null = null;
  #sessionId: string | undefined;
  #audioSeconds: number | undefined;
  #stopping: Promise<void> | null = null;

  constructor(
    private readonly api: LiveCallApi,
    private readonly audio: AudioSource,
    private readonly events: LiveSessionEvents,
    /** This tab's realtime connection, which the app server leaves out of its own turns' pushes. */
    private readonly socketId: () => string | null | undefined = () => undefined,
  ) {}

  get callId(): string | null {
    return this.#started?.call.id ?? null;
  }

  /** Opens the microphone, the call and the session; on any failure reports it and ends what was opened. */
  async start(): Promise<void> {
    try {
      this.events.status('opening');
      await this.audio.open();
      const started = await this.api.start();
      this.#started = started;
      this.events.call(started.call);
      const { id } = started.call;
      this.#outbox = new TurnOutbox({
        send: (turns) => {
          const socket = this.socketId();
          return this.api.relay(id, started.key, { ...(socket ? { socket_id: socket } : {}), turns });
        },
        onError: (error) => this.events.error(error),
      });
      const transcriber = this.#open(started);
      this.events.status('connecting');
      await transcriber.connect();
      if (this.#stopping) return;
      await this.audio.start(started.streaming.params.sample_rate, (pcm) => {
        transcriber.sendAudio(pcm);
      });
      this.events.status('listening');
    } catch (error) {
      // Stopped while connecting: the refusal is the stop's own doing, not worth an error.
      if (!this.#stopping) this.events.error(error);
      await this.stop();
    }
  }

  /**
   * The tab is going away: ends the call at once (a request that outlives the page), without waiting for
   * the session's last turn; the app server analyses the final turns it has.
   */
  abandon(): void {
    if (this.#stopping) return;
    this.#stopping = Promise.resolve();
    void this.audio.stop().catch(() => {});
    void this.#transcriber?.close({ waitForTermination: false });
    const started = this.#started;
    if (started) void this.api.end(started.call.id, started.key, {}).catch(() => {});
  }

  /** Ends the call: the microphone, then the session (its last final turn), the relay, the call. Idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  #open(started: LiveCallStart): StreamingTranscriber {
    let first: string | null = started.token;
    const transcriber = new StreamingTranscriber(started.streaming.params, {
      baseUrl: started.streaming.url,
      // The first token came with the call; a reconnection asks for a new one (each opens one session).
      getToken: async () => {
        const token = first;
        first = null;
        return token ?? (await this.api.token(started.call.id, started.key)).token;
      },
    });
    transcriber.on('begin', (begin) => {
      this.#sessionId ??= begin.id;
    });
    transcriber.on('turn', (turn) => {
      const relayed = relayedTurn(turn);
      this.events.turn(started.call.id, relayed);
      this.#outbox?.push(relayed);
    });
    transcriber.on('termination', (t) => {
      this.#audioSeconds = t.audio_duration_seconds;
    });
    transcriber.on('error', (error) => this.events.error(error));
    // The session ended without Stop (the service closed it, or reconnecting failed): so does the call.
    transcriber.on('close', () => void this.stop());
    this.#transcriber = transcriber;
    return transcriber;
  }

  async #stop(): Promise<void> {
    this.events.status('ending');
    await this.audio.stop().catch((error: unknown) => this.events.error(error));
    // Resolves after `Termination`, which follows the last final turn.
    await this.#transcriber?.close();
    await this.#outbox?.flush();
    const started = this.#started;
    if (started) {
      try {
        const { call } = await this.api.end(started.call.id, started.key, {
          ...(this.#sessionId ? { session_id: this.#sessionId } : {}),
          ...(this.#audioSeconds !== undefined ? { audio_duration_seconds: this.#audioSeconds } : {}),
        });
        this.events.call(call);
      } catch (error) {
        this.events.error(error);
      }
    }
    this.events.status('ended');
  }
}
