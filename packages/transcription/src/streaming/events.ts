import type {
  BeginEvent,
  SpeechStartedEvent,
  TerminationEvent,
  TurnEvent,
  WarningEvent,
} from '../schemas/streaming-messages.js';

/** The transcriber's events, each with its arguments. */
export interface StreamingTranscriberEvents {
  /** A session began (again after each reconnect). */
  begin: [BeginEvent];
  /** A partial or final turn, with times and `turn_order` continued across reconnects. */
  turn: [TurnEvent];
  speechStarted: [SpeechStartedEvent];
  /** The service's answer to `Terminate` (or its own end, on `inactivity_timeout`). */
  termination: [TerminationEvent];
  /** The session's socket dropped; a new session is being opened. */
  reconnecting: [{ code: number; reason: string; error: Error }];
  /** A new session took over: `gapMs` without a session, `replayedMs` of audio sent again to it. */
  reconnected: [{ gapMs: number; replayedMs: number; sessionId: string }];
  warning: [WarningEvent];
  /** A message this client does not act on (`Heartbeat`, `SpeakerRevision`, …), as the service sent it. */
  message: [{ type: string } & Record<string, unknown>];
  /** `sendAudio()` refused audio, and the queue has room again. */
  drain: [];
  /** A failure: the ones that end the transcriber come right before `close`. */
  error: [Error];
  /** The transcriber is done; nothing more comes. */
  close: [{ code: number; reason: string }];
}

export interface CloseOptions {
  /** Send `Terminate` and wait for `Termination`, which comes after the last final turn. Default true. */
  waitForTermination?: boolean;
  /**
   * Milliseconds to wait for `Termination` once everything queued was sent. `Infinity` waits as long as it
   * takes; a finite value past 2^31-1 (setTimeout's range) is cut to it. Default 10000.
   */
  timeoutMs?: number;
}
