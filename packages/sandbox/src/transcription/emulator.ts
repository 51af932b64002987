import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { cpus } from 'node:os';
import type { WebSocket } from 'ws';
import { type Emulator, type EmulatorHandle, type NodeEnv, reportHandlerFailure } from '../kit/emulator.js';
import { type FaultMatch, FaultQueue, sleep } from '../kit/faults.js';
import { type RateLimit, RateWindows } from '../kit/rate-windows.js';
import { type Reply, toResponse } from '../kit/reply.js';
import { RequestStats, type StatsSnapshot } from '../kit/stats.js';
import { trailingStart } from './derive/edges.js';
import { createEngine, type Engine, type EngineConfig } from './engine/index.js';
import { DurableState } from './model/durable.js';
import { runTranscriptJob } from './model/job.js';
import { JobPool } from './model/jobs.js';
import { type TranscriptRecord, Transcripts } from './model/transcripts.js';
import { Uploads } from './model/uploads.js';
import { type WebhookOptions, WebhookSender } from './model/webhooks.js';
import { dispatch, serveRedactedAudio } from './routes/index.js';
import { modelOfBody, type ParamsBody, readParamsBody } from './routes/params-body.js';
import { fail } from './routes/respond.js';
import type { TranscriptionService } from './routes/service.js';
import {
  createStreamingService,
  type StreamingEmulatorOptions,
  type StreamingSandbox,
} from './streaming/service.js';

/** The fixed key of a sandbox started without `apiKeys` or `randomKeys`, so examples can name it. */
export const TRANSCRIPTION_DEV_KEY = 'sandbox_dev_transcription_key';

/** Trailing slashes are dropped from paths by a loop: `/\/+$/` retries at each slash of a long run. */
const SLASH: ReadonlySet<string> = new Set('/');

export interface TranscriptionEmulatorOptions {
  /** Keys to accept (each a separate project: it sees only its own uploads and transcripts). */
  apiKeys?: string[];
  /** Without `apiKeys`: one generated key instead of `TRANSCRIPTION_DEV_KEY`. */
  randomKeys?: boolean;
  /**
   * Per key and model, sliding window, answered with `X-RateLimit-*` headers and 429 + `Retry-After` when
   * full. A request's model is the first of `speech_models` when it creates a transcript, the transcript's
   * model on the routes of one transcript, and `default` for uploads and lists. Default 60 per 60 s.
   */
  rateLimit?: RateLimit | false;
  /** Windows for particular models, in place of `rateLimit`. */
  modelRateLimits?: Record<string, RateLimit>;
  /** Engine processes at once, across keys. Default: the number of CPU cores. */
  workers?: number;
  /** Jobs per key admitted at once; more wait with `throttled: true`. Default 5 (the service's free tier). */
  concurrency?: number;
  /** Default 2.2 GB, as the service. */
  maxUploadBytes?: number;
  /** Longer audio ends in `error`. Default 10 hours, as the service. */
  maxAudioSeconds?: number;
  /** Webhook delivery; defaults are the service's: 10 attempts, 10 s apart, 10 s to answer. */
  webhooks?: Partial<WebhookOptions>;
  /** The speech engine, or its configuration. Default PocketSphinx. */
  engine?: Engine | EngineConfig;
  /** Fetching a remote `audio_url`. Default 60 s. */
  downloadTimeoutMs?: number;
  /** Where uploads are stored. Default: a private directory under the OS temp directory, removed on close. */
  uploadDir?: string;
  /**
   * Keep uploads and transcripts in this directory across restarts (`uploads/`, `transcripts.json` and its
   * journal): nothing a client has been answered is lost, even on `kill -9`; unfinished jobs run again.
   */
  dataDir?: string;
  /** The streaming API (`GET /v3/token`, the `/v3/ws` socket): its recogniser, limits and clocks. */
  streaming?: StreamingEmulatorOptions;
}

/** A fault answers the next matching request(s) after authentication; `path` is the full path (`/v2/transcript`). */
export interface TranscriptionFault extends FaultMatch {
  status: number;
  /** Default: none for 5xx (the service's 503/504 have empty bodies), `{"error": "Injected fault."}` otherwise. */
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  resetConnection?: boolean;
}

export interface TranscriptionSandbox extends EmulatorHandle<TranscriptionFault, StatsSnapshot> {
  /** The first accepted key. */
  apiKey: string;
  apiKeys: string[];
  /** Resolves when no job is waiting or running and every webhook delivery has finished. */
  idle(): Promise<void>;
  /** Forgets transcripts, uploads, faults and rate windows; closes streaming sessions (3005), forgets tokens. */
  reset(): Promise<void>;
  /** The streaming API's sessions and faults. */
  streaming: StreamingSandbox;
}

/**
 * Mounted at `/v2` (the REST API) and `/v3` (the streaming API's `GET /v3/token`), with the streaming socket at
 * `/v3/ws`.
 */
export interface TranscriptionEmulator extends Emulator<TranscriptionSandbox> {
  fetch(request: Request, env: NodeEnv): Promise<Response>;
  /** The `/v3/ws` socket handler (also the one entry of `sockets`). */
  handleSocket(ws: WebSocket, request: IncomingMessage): void;
}

const UNAUTHORIZED = 'Authentication error, API token missing/invalid';
/** The service's 500; the cause is logged, never sent (it may name server paths). */
const SERVER_ERROR = 'Server error, developers have been alerted.';

/**
 * A path segment as the client meant it. A malformed escape (`%E0%A4%A`) is kept as sent: it then names no
 * route (404) or no transcript (the lookup error), as any other unknown segment does.
 */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function createTranscriptionEmulator(
  options: TranscriptionEmulatorOptions = {},
): Promise<TranscriptionEmulator> {
  const keys = options.apiKeys?.length
    ? [...options.apiKeys]
    : [options.randomKeys ? randomBytes(16).toString('hex') : TRANSCRIPTION_DEV_KEY];
  const defaultLimit =
    options.rateLimit === undefined ? { limit: 60, intervalMs: 60_000 } : options.rateLimit;
  const windows = new RateWindows(defaultLimit);
  const modelWindows = new Map(
    Object.entries(options.modelRateLimits ?? {}).map(([model, rl]) => [model, new RateWindows(rl)]),
  );
  let homeUrl = '';
  const baseUrl = () => homeUrl;
  const engine =
    options.engine && 'transcribe' in options.engine ? options.engine : createEngine(options.engine);
  const uploads = new Uploads(
    options.dataDir
      ? { keptDir: DurableState.uploadsDir(options.dataDir) }
      : { parentDir: options.uploadDir },
  );
  const transcripts = new Transcripts();
  const opened = options.dataDir ? await DurableState.open(options.dataDir, transcripts, uploads) : undefined;
  const durable = opened?.state;
  const save = (record: TranscriptRecord) => durable?.saveTranscript(record);
  const webhooks = new WebhookSender({
    attempts: options.webhooks?.attempts ?? 10,
    retryDelayMs: options.webhooks?.retryDelayMs ?? 10_000,
    timeoutMs: options.webhooks?.timeoutMs ?? 10_000,
  });
  const maxUploadBytes = options.maxUploadBytes ?? 2.2e9;
  const jobContext = {
    engine,
    uploads,
    webhooks,
    maxDownloadBytes: maxUploadBytes,
    downloadTimeoutMs: options.downloadTimeoutMs ?? 60_000,
    maxAudioSeconds: options.maxAudioSeconds ?? 36_000,
    baseUrl,
    save,
  };
  const jobs = new JobPool(
    { workers: options.workers ?? Math.max(1, cpus().length), concurrencyPerKey: options.concurrency ?? 5 },
    (record, signal) => runTranscriptJob(jobContext, record, signal),
  );
  const service: TranscriptionService = { transcripts, uploads, jobs, maxUploadBytes, baseUrl, save };
  for (const record of opened?.unfinished ?? []) jobs.submit(record);
  const faults = new FaultQueue<TranscriptionFault>();
  const stats = new RequestStats();
  const streaming = createStreamingService(options.streaming ?? {}, keys, baseUrl);

  /** Which window a request counts in: see `rateLimit`. */
  function modelOf(key: string, segments: string[], body: ParamsBody | undefined): string {
    if (body) return modelOfBody(body);
    if (segments[0] !== 'transcript' || !segments[1]) return 'default';
    return transcripts.find(key, segments[1])?.params.speech_models[0] ?? 'default';
  }

  /**
   * Every request goes through here, so whatever fails in a route answers that one request with the service's
   * 500 `{"error": ...}`; the cause goes to stderr (its class and frame, never the request's content).
   */
  async function guarded(request: Request, env: NodeEnv): Promise<Response> {
    stats.countRequest();
    try {
      return await handle(request, env);
    } catch (error) {
      return serverError(request, error);
    }
  }

  async function handle(request: Request, env: NodeEnv): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const path = url.pathname.slice(0, trailingStart(url.pathname, SLASH)) || '/';
    const redacted = /^\/v2\/redacted-audio\/([^/]+)$/.exec(path);
    if (redacted && method === 'GET') return serveRedactedAudio(service, redacted[1]!);

    const key = request.headers.get('authorization')?.trim() ?? '';
    if (!keys.includes(key)) return toResponse(fail(401, UNAUTHORIZED), method);
    const segments = path.split('/').slice(2).map(decodeSegment);
    // Read once, here: its model picks the rate window, and the route checks the same parsed body.
    const body =
      method === 'POST' && segments.length === 1 && segments[0] === 'transcript'
        ? await readParamsBody(request)
        : undefined;

    const model = modelOf(key, segments, body);
    const modelWindow = modelWindows.get(model);
    const window = modelWindow ?? windows;
    const windowKey = `${key}\u0000${model}`;
    const now = Date.now();
    const waitMs = window.take(windowKey, now);
    const limitHeaders = rateHeaders(window, windowKey, now);
    if (waitMs > 0) {
      stats.countRateLimited();
      const seconds = String(Math.ceil(waitMs / 1000));
      return toResponse(
        { ...fail(429, 'Too Many Requests'), headers: { ...limitHeaders, 'Retry-After': seconds } },
        method,
      );
    }
    stats.recordArrival(performance.now());

    const fault = faults.take(method, path);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      if (fault.resetConnection) {
        env?.incoming?.socket.destroy();
        return new Response(null, { status: 500 });
      }
      const faultBody =
        fault.body !== undefined ? fault.body : fault.status >= 500 ? null : { error: 'Injected fault.' };
      return toResponse({ status: fault.status, body: faultBody, headers: fault.headers }, method);
    }

    let reply: Reply;
    try {
      reply = path.startsWith('/v3/')
        ? streamingRoute(key, method, path, url.searchParams)
        : await dispatch(service, { key, method, segments, query: url.searchParams, request, body });
    } catch (error) {
      reportHandlerFailure('transcription', `${method} ${url.pathname}`, error);
      reply = fail(500, SERVER_ERROR);
    }
    try {
      // Nothing is answered before what it reports is on disk (a no-op without a data directory).
      await durable?.settled();
    } catch (error) {
      reply = fail(
        500,
        `Server error: the data directory could not be written (${(error as Error).message}).`,
      );
    }
    return toResponse({ ...reply, headers: { ...limitHeaders, ...reply.headers } }, method);
  }

  /** The streaming API's one HTTP route, `GET /v3/token` (the WebSocket is `/v3/ws`). */
  function streamingRoute(key: string, method: string, path: string, query: URLSearchParams): Reply {
    if (path !== '/v3/token') return fail(404, 'Not found');
    return streaming.tokenRoute({ key, method, query });
  }

  function serverError(request: Request, error: unknown): Response {
    reportHandlerFailure('transcription', `${request.method} ${new URL(request.url).pathname}`, error);
    return toResponse(fail(500, SERVER_ERROR), request.method);
  }

  const sandbox: TranscriptionSandbox = {
    get url() {
      return homeUrl;
    },
    apiKey: keys[0]!,
    apiKeys: keys,
    injectFault: (fault) => faults.inject(fault),
    streaming: streaming.handle,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    async idle() {
      await jobs.idle();
      await webhooks.idle();
    },
    async reset() {
      for (const record of transcripts.all()) jobs.cancel(record);
      await jobs.idle();
      transcripts.clear();
      await uploads.clear();
      faults.clear();
      streaming.reset();
      windows.clear();
      for (const w of modelWindows.values()) w.clear();
      await durable?.snapshot();
    },
  };

  return {
    name: 'transcription',
    prefixes: ['/v2', '/v3'],
    fetch: guarded,
    // Unreachable while `guarded` catches, kept for the server's last guard: the service's own 500.
    internalError: () => toResponse(fail(500, SERVER_ERROR)),
    sockets: [{ path: '/v3/ws', handle: streaming.handleSocket }],
    handleSocket: streaming.handleSocket,
    handle: sandbox,
    setHomeUrl(url: string) {
      homeUrl = url.slice(0, trailingStart(url, SLASH));
    },
    async close() {
      streaming.close();
      await jobs.close();
      await webhooks.close();
      await durable?.close();
      await uploads.close();
    },
  };
}

function rateHeaders(window: RateWindows, key: string, now: number): Record<string, string> {
  const state = window.state(key, now);
  if (!state) return {};
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetMs / 1000)),
  };
}
