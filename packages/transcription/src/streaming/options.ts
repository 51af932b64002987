import { credentialIssue, parseInput, ValidationError, type ValidationIssue } from '@x/core';
import type { BackoffOptions, SocketLog, WebSocketFactory } from '@x/core/socket';
import * as z from 'zod/mini';
import { MAX_FRAME_MS, MIN_FRAME_MS } from './audio-format.js';
import { DEFAULT_STREAMING_BASE_URL } from './query.js';

/** A fresh temporary token (the string, or `createTemporaryToken()`'s answer as it is). */
export type TokenSource = () => string | { token: string } | Promise<string | { token: string }>;

/** How the transcriber connects and behaves; the session's own settings are the params. */
export interface StreamingTranscriberOptions {
  /**
   * The API key, sent in the `Authorization` header. Node only: a browser's WebSocket cannot send headers,
   * and a key does not belong in a browser anyway (use `getToken`). `client.streaming.transcriber()` sets it.
   */
  apiKey?: string;
  /** A temporary token for one session. Tokens are single-use, so a transcriber with one cannot reconnect. */
  token?: string;
  /** Called for each connection, reconnections included, for a fresh temporary token (e.g. from your server). */
  getToken?: TokenSource;
  /** The streaming host (`https://`, `http://`, `wss://` or `ws://`). Default `https://streaming.assemblyai.com`. */
  baseUrl?: string;
  /** Send connection parameters this SDK does not know instead of refusing them. Default false. */
  allowUnknownFields?: boolean;
  /** Milliseconds of audio per frame sent, 50–1000 (the service's bounds). Default 100. */
  frameMs?: number;
  /**
   * Milliseconds of audio that may wait to be sent: before `Begin`, while reconnecting, or when audio comes
   * faster than real time. Past it `sendAudio()` returns false and `stream()` writes wait. Default 30000.
   */
  maxQueueMs?: number;
  /**
   * How far (ms) the audio sent may run ahead of the session's clock. The service closes a session that
   * receives audio faster than real time (3007) and documents no tolerance; `Infinity` turns pacing off.
   * While more than this waits (a replay, a file sent faster than real time), silence in pauses is skipped
   * to catch up (see `skippedSilenceMs`). Default 1000.
   */
  maxLeadMs?: number;
  /**
   * Milliseconds per attempt from asking `getToken` for a token to `Begin`; past it the attempt fails. At
   * most 2^31-1 (setTimeout's range). Default 10000.
   */
  connectTimeoutMs?: number;
  /**
   * After an unexpected drop of a session that had begun: reconnect with full-jitter backoff (a fresh token
   * from `getToken` each time) and replay the audio since the last final turn. `false` ends the transcriber
   * with the drop's error instead.
   */
  reconnect?:
    | false
    | {
        /**
         * Consecutive failed attempts before giving up. An attempt fails when it never reaches `Begin`, or
         * when its session drops before delivering a final turn or lasting 10 s. Default 10.
         */
        maxAttempts?: number;
        /** Default 500 ms doubling up to 10 s. */
        backoff?: BackoffOptions;
        /**
         * Milliseconds of audio kept for the replay (since the last final turn), at most half of
         * `maxQueueMs`, so that live audio keeps room. Default 60000 (so 15000 with the default queue).
         */
        replayMs?: number;
      };
  /**
   * Ping after `idleMs` without a message from the service, and treat the socket as dropped if no pong
   * comes within `timeoutMs`. Needs a WebSocket that can ping (`ws`, in Node); elsewhere it does nothing.
   * Default 5000 and 5000.
   */
  heartbeat?: false | { idleMs?: number; timeoutMs?: number };
  /** Turns `for await` may hold for a slow reader (partials are dropped first). Default 256. */
  maxQueuedTurns?: number;
  /** Opens the sockets: for tests and runtimes with an unusual WebSocket. */
  webSocketFactory?: WebSocketFactory;
  /** Where the connection reports (`(level, message, ...args)`); silent by default. */
  log?: SocketLog;
}

/**
 * A delay that becomes a timer: setTimeout's range at most (2^31 - 1 ms, ~24.8 days), since runtimes fire a
 * longer one after 1 ms (a heartbeat would ping in a tight loop, a connect timeout expire at once).
 */
const delay = z
  .number()
  .check(z.positive(), z.maximum(2_147_483_647, "must be at most 2147483647 ms (setTimeout's range)"));
const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'expected a function');

const optionsSchema = z.strictObject({
  apiKey: z.optional(z.string()),
  token: z.optional(z.string()),
  getToken: z.optional(fn),
  baseUrl: z.optional(z.string()),
  allowUnknownFields: z.optional(z.boolean()),
  frameMs: z.optional(z.number().check(z.minimum(MIN_FRAME_MS), z.maximum(MAX_FRAME_MS))),
  maxQueueMs: z.optional(z.number().check(z.minimum(MAX_FRAME_MS))),
  // Infinity is allowed (no pacing), which z.number() refuses.
  maxLeadMs: z.optional(
    z.custom<number>((v) => typeof v === 'number' && v >= 0, 'expected a number >= 0 (Infinity: no pacing)'),
  ),
  connectTimeoutMs: z.optional(delay),
  reconnect: z.optional(
    z.union([
      z.literal(false),
      z.strictObject({
        maxAttempts: z.optional(z.number().check(z.int(), z.minimum(1))),
        backoff: z.optional(z.strictObject({ baseDelayMs: delay, maxDelayMs: delay })),
        replayMs: z.optional(z.number().check(z.minimum(0))),
      }),
    ]),
  ),
  heartbeat: z.optional(
    z.union([z.literal(false), z.strictObject({ idleMs: z.optional(delay), timeoutMs: z.optional(delay) })]),
  ),
  maxQueuedTurns: z.optional(z.number().check(z.int(), z.minimum(1))),
  webSocketFactory: z.optional(fn),
  log: z.optional(fn),
});

export interface ResolvedOptions {
  auth: { apiKey: string } | { token: string } | { getToken: TokenSource };
  baseUrl: string;
  allowUnknownFields: boolean;
  frameMs: number;
  maxQueueMs: number;
  maxLeadMs: number;
  connectTimeoutMs: number;
  reconnect: { maxAttempts: number; backoff: BackoffOptions; replayMs: number } | undefined;
  heartbeat: { idleMs: number; timeoutMs: number } | undefined;
  maxQueuedTurns: number;
  webSocketFactory: WebSocketFactory | undefined;
  log: SocketLog | undefined;
}

/** The options checked (every bad one named, a misspelt one with the closest name) and defaulted. */
export function resolveOptions(options: StreamingTranscriberOptions): ResolvedOptions {
  const o = parseInput(optionsSchema, options, 'StreamingTranscriber options') as StreamingTranscriberOptions;
  const issues: ValidationIssue[] = [];
  const given = (['apiKey', 'token', 'getToken'] as const).filter((k) => o[k] !== undefined);
  if (given.length !== 1) {
    issues.push({
      path: given.length ? given.join(', ') : 'getToken',
      message: given.length
        ? 'give one of apiKey, token and getToken, not several'
        : 'is required (or token, or apiKey in Node): how the transcriber authenticates',
    });
  }
  for (const key of ['apiKey', 'token'] as const) {
    const issue =
      o[key] === undefined ? undefined : credentialIssue(key, o[key], { inHeader: key === 'apiKey' });
    if (issue) issues.push(issue);
  }
  const baseUrl = o.baseUrl ?? DEFAULT_STREAMING_BASE_URL;
  if (!/^(https?|wss?):\/\/[^/?#\s]+/i.test(baseUrl) || /\/\/[^/]*@/.test(baseUrl)) {
    issues.push({ path: 'baseUrl', message: 'must be an http(s) or ws(s) URL without credentials' });
  }
  if (issues.length > 0) throw new ValidationError('StreamingTranscriber options', issues);
  const reconnect = o.reconnect === false ? undefined : (o.reconnect ?? {});
  const heartbeat = o.heartbeat === false ? undefined : (o.heartbeat ?? {});
  return {
    auth:
      o.apiKey !== undefined
        ? { apiKey: o.apiKey }
        : o.token !== undefined
          ? { token: o.token }
          : { getToken: o.getToken! },
    baseUrl,
    allowUnknownFields: o.allowUnknownFields ?? false,
    frameMs: o.frameMs ?? 100,
    maxQueueMs: o.maxQueueMs ?? 30_000,
    maxLeadMs: o.maxLeadMs ?? 1000,
    connectTimeoutMs: o.connectTimeoutMs ?? 10_000,
    reconnect: reconnect && {
      maxAttempts: reconnect.maxAttempts ?? 10,
      backoff: reconnect.backoff ?? { baseDelayMs: 500, maxDelayMs: 10_000 },
      replayMs: reconnect.replayMs ?? 60_000,
    },
    heartbeat: heartbeat && { idleMs: heartbeat.idleMs ?? 5000, timeoutMs: heartbeat.timeoutMs ?? 5000 },
    maxQueuedTurns: o.maxQueuedTurns ?? 256,
    webSocketFactory: o.webSocketFactory,
    log: o.log,
  };
}
