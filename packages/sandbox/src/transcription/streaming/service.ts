/**
 * The streaming API beside the v2 REST emulator: `GET /v3/token` (through the emulator's HTTP pipeline) and
 * the `/v3/ws` socket. This file admits a connect (faults, auth, parameters, limits, in that order, each
 * refusal an `Error` frame and a close with its code) and holds the live sessions and the handle.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { RateWindows } from '../../kit/rate-windows.js';
import type { Reply } from '../../kit/reply.js';
import { type Authentication, authenticate } from './auth.js';
import { CLOSE, closeReason, type ErrorCloseCode, MESSAGE } from './closures.js';
import { RefusalQueue, type StreamingRefusal } from './faults.js';
import { errorMessage } from './messages.js';
import { readConnectionParams, type SessionConfig } from './params.js';
import {
  defaultRecognizerFactory,
  type StreamingRecognizer,
  type StreamingRecognizerFactory,
} from './recognizer.js';
import { Session, type StreamingSessionInfo } from './session.js';
import { issueToken } from './token-route.js';
import { TokenStore } from './tokens.js';

export interface StreamingEmulatorOptions {
  /** Starts a session's recogniser. Default: PocketSphinx through `python3-pocketsphinx`. */
  recognizer?: StreamingRecognizerFactory;
  /**
   * New sessions per key in any 60 s, as the service limits them (the docs' free tier starts at 5, paid at
   * 100); over it a connect is closed with 3009. `false`: no limit. Default 5.
   */
  newSessionsPerMinute?: number | false;
  /**
   * Sessions open at once, all keys together (3009 past it). The service caps only new sessions per minute;
   * the sandbox bounds this too, since each session runs a recogniser process (counted until it is closed, so
   * sessions dropped while theirs start cannot pile up processes). Default 32.
   */
  maxConcurrentSessions?: number;
  /** The longest a session lives (3008), and what a token may grant. Default 10800 (3 hours), as the service. */
  maxSessionSeconds?: number;
  /**
   * How far the audio received may run ahead of the time since `Begin`, in ms, before 3007 ("Audio
   * Transmission Rate Exceeded"). The docs name no figure; default 5000.
   */
  realtimeToleranceMs?: number;
  /** The smallest `inactivity_timeout` accepted (seconds). Default 5, as documented; tests may lower it. */
  minInactivityTimeoutSeconds?: number;
}

export interface StreamingStats {
  /** Sessions that got `Begin` since start (or `resetStats`). */
  opened: number;
  /** Connects closed before `Begin`, by close code. */
  refused: Record<number, number>;
  /** `Termination` messages sent (after `Terminate`, an inactivity timeout or the session's expiry). */
  terminations: number;
  /** Sessions open now. */
  open: number;
}

/** The streaming part of the transcription handle (`sandbox.transcription.streaming`). */
export interface StreamingSandbox {
  /** `ws://` or `wss://` URL of the socket: `${url}?sample_rate=16000&…`, with the key in `Authorization`. */
  readonly url: string;
  sessions(): StreamingSessionInfo[];
  /** Drops the socket of one session (or every session) without a close frame: clients see 1006. */
  dropSessions(id?: string): number;
  /**
   * Stops one session (or every live session) from reading or answering, socket open: what the client sends
   * waits in the connection, our messages are dropped, its clocks stop. Returns the function that ends it.
   */
  stallSessions(id?: string): () => void;
  /** The next connects are closed at once with the fault's code (default 3009) and its `Error` frame. */
  refuseSessions(refusal?: StreamingRefusal): void;
  stats(): StreamingStats;
  resetStats(): void;
}

export interface StreamingService {
  /** `GET /v3/token`, for the emulator's HTTP pipeline (after its key check, rate window and faults). */
  tokenRoute(call: { key: string; method: string; query: URLSearchParams }): Reply;
  handleSocket(ws: WebSocket, request: IncomingMessage): void;
  handle: StreamingSandbox;
  /** Closes every session (3005), forgets tokens, windows and faults. */
  reset(): void;
  /** Drops every session: the sandbox is stopping. */
  close(): void;
}

/**
 * The factory, counting what it started until it is closed: a session dropped while its recogniser starts is
 * gone at once, but that recogniser (a python3 loading its model) lives on until it is ready and closed.
 */
function countedFactory(factory: StreamingRecognizerFactory): {
  factory: StreamingRecognizerFactory;
  alive(): number;
} {
  let alive = 0;
  const counted = async (): Promise<StreamingRecognizer> => {
    alive += 1;
    let recognizer: StreamingRecognizer;
    try {
      recognizer = await factory();
    } catch (error) {
      alive -= 1;
      throw error;
    }
    let closed = false;
    return {
      write: (pcm) => recognizer.write(pcm),
      onUpdate: (listener) => recognizer.onUpdate(listener),
      endUtterance: () => recognizer.endUtterance(),
      onError: (listener) => recognizer.onError(listener),
      close: () => {
        if (!closed) alive -= 1;
        closed = true;
        recognizer.close();
      },
    };
  };
  return { factory: counted, alive: () => alive };
}

export function createStreamingService(
  options: StreamingEmulatorOptions,
  keys: readonly string[],
  homeUrl: () => string,
): StreamingService {
  const recognizers = countedFactory(options.recognizer ?? defaultRecognizerFactory);
  const perMinute = options.newSessionsPerMinute ?? 5;
  const windows = new RateWindows(perMinute === false ? false : { limit: perMinute, intervalMs: 60_000 });
  const maxConcurrent = options.maxConcurrentSessions ?? 32;
  const maxSessionSeconds = options.maxSessionSeconds ?? 10_800;
  const limits = {
    realtimeToleranceMs: options.realtimeToleranceMs ?? 5000,
    maxBufferedBytes: 1024 * 1024,
  };
  const paramLimits = { minInactivitySeconds: options.minInactivityTimeoutSeconds ?? 5 };
  const tokens = new TokenStore();
  const refusals = new RefusalQueue();
  const sessions = new Map<string, Session>();
  let stats: Omit<StreamingStats, 'open'> = { opened: 0, refused: {}, terminations: 0 };

  function refuse(ws: WebSocket, code: ErrorCloseCode, message: string): void {
    stats.refused[code] = (stats.refused[code] ?? 0) + 1;
    ws.on('error', () => ws.terminate());
    ws.send(errorMessage(code, message));
    ws.close(code, closeReason(message));
    setTimeout(() => ws.terminate(), 1000).unref();
  }

  type Admission =
    | { ok: true; auth: Extract<Authentication, { ok: true }>; config: SessionConfig }
    | { ok: false; code: ErrorCloseCode; message: string };

  /** Whether a connect becomes a session: faults first, then auth, parameters and limits. */
  function admit(request: IncomingMessage): Admission {
    const query = new URL(request.url ?? '/', 'http://sandbox').searchParams;
    const refusal = refusals.take();
    if (refusal) return { ok: false, ...refusal };
    const auth = authenticate(request, query, keys, tokens);
    if (!auth.ok) return { ok: false, code: CLOSE.unauthorized, message: auth.message };
    const params = readConnectionParams(query, paramLimits);
    if ('error' in params) {
      return { ok: false, code: CLOSE.invalidMessage, message: `Input validation error: ${params.error}` };
    }
    // Recognisers too: each is a process, and one outlives a session dropped while it starts.
    const busy = Math.max(sessions.size, recognizers.alive());
    if (busy >= maxConcurrent || windows.take(auth.key, Date.now()) > 0) {
      return { ok: false, code: CLOSE.tooManySessions, message: MESSAGE.tooManySessions };
    }
    return { ok: true, auth, config: params.config };
  }

  function handleSocket(ws: WebSocket, request: IncomingMessage): void {
    const admission = admit(request);
    if (!admission.ok) {
      refuse(ws, admission.code, admission.message);
      return;
    }
    const { auth, config } = admission;
    const session = new Session(
      randomUUID(),
      auth.via,
      ws,
      config,
      Math.min(auth.maxSessionSeconds, maxSessionSeconds),
      limits,
      {
        gone: (gone) => sessions.delete(gone.id),
        terminated: () => {
          stats.terminations += 1;
        },
      },
    );
    sessions.set(session.id, session);
    stats.opened += 1;
    session.start(recognizers.factory);
  }

  const pick = (id?: string) =>
    id === undefined ? [...sessions.values()] : [sessions.get(id)].filter((s) => s !== undefined);

  const handle: StreamingSandbox = {
    get url() {
      return `${homeUrl().replace(/^http/, 'ws')}/v3/ws`;
    },
    sessions: () => [...sessions.values()].map((s) => s.info()),
    dropSessions(id) {
      const chosen = pick(id);
      for (const s of chosen) s.terminate();
      return chosen.length;
    },
    stallSessions(id) {
      const chosen = pick(id);
      for (const s of chosen) s.stall();
      return () => {
        for (const s of chosen) s.resume();
      };
    },
    refuseSessions: (refusal) => refusals.inject(refusal),
    stats: () => ({ ...stats, refused: { ...stats.refused }, open: sessions.size }),
    resetStats() {
      stats = { opened: 0, refused: {}, terminations: 0 };
    },
  };

  return {
    tokenRoute: (call) => issueToken(tokens, call),
    handleSocket,
    handle,
    reset() {
      for (const s of [...sessions.values()])
        s.close(CLOSE.serverError, 'Session Cancelled: the sandbox was reset');
      tokens.clear();
      windows.clear();
      refusals.clear();
    },
    close() {
      for (const s of [...sessions.values()]) s.terminate();
    },
  };
}
