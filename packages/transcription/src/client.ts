import {
  AbortError,
  BaseClient,
  type ClientOptions,
  credentialIssue,
  DEFAULT_IDEMPOTENCY_LEASE_MS,
  type ErrorDetails,
  headerAuth,
  type IdempotencyStore,
  isRateLimiter,
  MemoryIdempotencyStore,
  MemoryRateLimiter,
  NotFoundError,
  parseDuration,
  type RateLimiter,
  type RateLimitOptions,
  Secret,
  type ServiceAdapter,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../package.json';
import { Files } from './resources/files.js';
import { Streaming } from './resources/streaming.js';
import { Transcripts } from './resources/transcripts.js';
import { DEFAULT_STREAMING_BASE_URL } from './streaming/query.js';
import { ProcessingEstimate } from './waiting/estimate.js';
import { Notifications } from './waiting/notifications.js';

export interface TranscriptionClientOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  /** An AssemblyAI API key (sent bare in `Authorization`, as the service expects). */
  apiKey: string;
  /** Default `https://api.assemblyai.com`; `https://api.eu.assemblyai.com` for the EU. */
  baseUrl?: string;
  /**
   * The streaming host, for `/v3/token` and the `/v3/ws` WebSocket. Default `https://streaming.assemblyai.com`;
   * `https://streaming.eu.assemblyai.com` for the EU.
   */
  streamingBaseUrl?: string;
  /**
   * Extra client-side windows for creating transcripts with particular models (keyed by the first of
   * `speech_models`), on top of the client's `rateLimit` (default 60 requests a minute).
   */
  modelRateLimits?: Record<string, RateLimitOptions>;
  /**
   * At most this many jobs of `transcripts.transcribe()` in flight at the service at once; more wait in the
   * client before they are uploaded and submitted. Default 5 (the service's free-tier concurrency).
   */
  maxConcurrentJobs?: number;
  /**
   * The share (0..1] of the client's rate limit that polling may spend, across all waits at once, so
   * polling never starves submissions and uploads. Default 0.5.
   */
  pollShare?: number;
  /**
   * Send parameters this SDK does not know (a parameter newer than this SDK) instead of rejecting them
   * with a `ValidationError`. Default false: a misspelt parameter would otherwise be ignored by the service.
   */
  allowUnknownFields?: boolean;
  /**
   * Where the `idempotencyKey`s of `transcripts.submit()` and `transcribe()` are remembered (the service has
   * no idempotency key, so the client keeps one). Default: in this client's memory. A `RedisIdempotencyStore`
   * (`@x/core/redis`) shares them between processes.
   */
  idempotency?: IdempotencyOptions;
}

export interface IdempotencyOptions {
  store?: IdempotencyStore;
  /**
   * How long a submit may hold its key before another caller may take it over (after asking the service
   * whether the first one arrived). Bounds the submit request too. Default 120 000 ms.
   */
  leaseMs?: number;
  /** How long a key is remembered after its last change. Default 24 h. */
  ttlMs?: number;
}

const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 60, interval: '1m' };

/** The AssemblyAI v2 REST API: uploads and transcripts. */
export class TranscriptionClient extends BaseClient<TranscriptionClientOptions> {
  readonly files: Files;
  readonly transcripts: Transcripts;
  /** Streaming Speech-to-Text v3: temporary tokens and live transcribers. */
  readonly streaming: Streaming;
  readonly #limits: ClientLimits;
  /** Set while `withOptions()` builds a clone, so the clone shares this client's job slots and windows. */
  static #inheriting: { limits: ClientLimits; overrides: Partial<TranscriptionClientOptions> } | undefined;

  constructor(options: TranscriptionClientOptions) {
    const { baseUrl, streamingBaseUrl } = checkOptions(options);
    const {
      apiKey,
      baseUrl: _base,
      streamingBaseUrl: _streaming,
      modelRateLimits: _models,
      maxConcurrentJobs: _jobs,
      pollShare: _share,
      allowUnknownFields,
      idempotency: _idempotency,
      ...core
    } = options;
    super(
      {
        rateLimit: DEFAULT_RATE_LIMIT,
        ...core,
        baseURL: baseUrl,
        auth: headerAuth('Authorization', new Secret(apiKey)),
      },
      adapter,
      options,
    );
    this.#limits = clientLimits(options, TranscriptionClient.#inheriting);
    const context = { client: this, allowUnknownFields: allowUnknownFields ?? false, ...this.#limits };
    this.files = new Files(context);
    this.transcripts = new Transcripts(context, this.files);
    this.streaming = new Streaming(context, streamingBaseUrl, apiKey);
  }

  /** The same client with some options changed; rate limits, job slots and the polling window stay shared. */
  override withOptions(overrides: Partial<TranscriptionClientOptions>): this {
    TranscriptionClient.#inheriting = { limits: this.#limits, overrides };
    try {
      return super.withOptions(overrides);
    } finally {
      TranscriptionClient.#inheriting = undefined;
    }
  }
}

/** The client's own limits beyond core's limiter: windows per model, the polling window, job slots. */
interface ClientLimits {
  modelLimiters: ReadonlyMap<string, RateLimiter>;
  pollLimiter: RateLimiter | undefined;
  jobSlots: JobSlots;
  idempotency: IdempotencyOptions & { store: IdempotencyStore };
  /** When jobs are likely done, learnt from this client's earlier jobs (clones share it). */
  estimate: ProcessingEstimate;
  /** Waits that a webhook notification (`transcripts.notify()`) can end (clones share them). */
  notifications: Notifications;
  /** The mean ms between two polls that the polling window allows; undefined without one. */
  pollGapMs: number | undefined;
  /** Waits in progress (clones share the count, as they share the polling window). */
  activeWaits: { count: number };
}

/** What the resources share: the client, and the client's limits on models, polling and jobs. */
export interface TranscriptionContext extends ClientLimits {
  client: TranscriptionClient;
  allowUnknownFields: boolean;
}

/**
 * A clone from `withOptions()` shares its parent's limits (the jobs and polls of both count together, as
 * core's limiter does), except those its overrides set anew.
 */
function clientLimits(
  options: TranscriptionClientOptions,
  inheriting: { limits: ClientLimits; overrides: Partial<TranscriptionClientOptions> } | undefined,
): ClientLimits {
  const changed = (key: keyof TranscriptionClientOptions) => !inheriting || key in inheriting.overrides;
  return {
    modelLimiters: changed('modelRateLimits')
      ? new Map(
          Object.entries(options.modelRateLimits ?? {}).map(([model, rl]) => [
            model,
            new MemoryRateLimiter(rl),
          ]),
        )
      : inheriting!.limits.modelLimiters,
    pollLimiter:
      changed('rateLimit') || changed('pollShare')
        ? pollLimiter(options.rateLimit, options.pollShare ?? 0.5)
        : inheriting!.limits.pollLimiter,
    pollGapMs:
      changed('rateLimit') || changed('pollShare')
        ? pollGapMs(options.rateLimit, options.pollShare ?? 0.5)
        : inheriting!.limits.pollGapMs,
    activeWaits: changed('rateLimit') || changed('pollShare') ? { count: 0 } : inheriting!.limits.activeWaits,
    jobSlots: changed('maxConcurrentJobs')
      ? new JobSlots(options.maxConcurrentJobs ?? 5)
      : inheriting!.limits.jobSlots,
    // A clone keeps its parent's keys, or a key used on both would send twice.
    idempotency: changed('idempotency')
      ? { ...options.idempotency, store: options.idempotency?.store ?? new MemoryIdempotencyStore() }
      : inheriting!.limits.idempotency,
    estimate: inheriting?.limits.estimate ?? new ProcessingEstimate(),
    notifications: inheriting?.limits.notifications ?? new Notifications(),
  };
}

/**
 * Polls get their own window, a share of the client's: many jobs waiting at once then poll less often each,
 * instead of filling the whole window and delaying the next upload or submission behind their polls.
 */
function pollLimiter(
  rateLimit: TranscriptionClientOptions['rateLimit'],
  share: number,
): RateLimiter | undefined {
  if (rateLimit === false || isRateLimiter(rateLimit)) return undefined;
  const base = rateLimit ?? DEFAULT_RATE_LIMIT;
  return new MemoryRateLimiter({ ...base, limit: Math.max(1, Math.floor(base.limit * share)) });
}

/** The polling window's mean gap between polls: each of n waits can poll once per n gaps without queueing. */
function pollGapMs(rateLimit: TranscriptionClientOptions['rateLimit'], share: number): number | undefined {
  if (rateLimit === false || isRateLimiter(rateLimit)) return undefined;
  const base = rateLimit ?? DEFAULT_RATE_LIMIT;
  return parseDuration(base.interval) / Math.max(1, Math.floor(base.limit * share));
}

/** A counting semaphore: jobs in flight at the service. */
export class JobSlots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) {
      throw new AbortError('Aborted before a job slot was free (maxConcurrentJobs)', {
        cause: signal.reason,
      });
    }
    if (this.#free > 0) this.#free -= 1;
    else {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const at = this.#waiting.indexOf(grant);
          if (at !== -1) this.#waiting.splice(at, 1);
          reject(
            new AbortError('Aborted while waiting for a job slot (maxConcurrentJobs)', {
              cause: signal?.reason,
            }),
          );
        };
        this.#waiting.push(grant);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}

const adapter: ServiceAdapter = {
  packageName,
  packageVersion,
  requestIdHeaders: ['x-request-id', 'x-amzn-requestid', 'x-amz-cf-id'],
  parseError,
};

/**
 * The service's errors are `{"error": "<message>"}` without a code. The one that matters most to callers,
 * an unknown transcript id, comes as 400: it becomes a `NotFoundError` (status still 400) so
 * `instanceof NotFoundError` works as it does for every other service.
 */
function parseError(body: unknown): ErrorDetails {
  const message =
    typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string'
      ? (body as { error: string }).error
      : undefined;
  if (message && /transcript id not found/i.test(message)) {
    return { code: 'transcript_not_found', message, errorClass: NotFoundError };
  }
  if (message && /speech_models?/i.test(message)) {
    return {
      message,
      hint: 'model ids change often; check the current list at https://www.assemblyai.com/docs and pass them in speech_models',
    };
  }
  return { message };
}

function checkOptions(options: TranscriptionClientOptions): { baseUrl: string; streamingBaseUrl: string } {
  const issues: ValidationIssue[] = [];
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    issues.push({ path: 'apiKey', message: 'is required (your AssemblyAI API key)' });
  } else if (/^(bearer|token)\s/i.test(options.apiKey)) {
    issues.push({ path: 'apiKey', message: 'must be the bare key, without a "Bearer"/"Token" scheme' });
  } else {
    // The key goes into a header: a line break there would inject headers, or fail every request later
    // with an error far from its cause. A key read from a file often carries the file's last newline.
    const issue = credentialIssue('apiKey', options.apiKey, { inHeader: true });
    if (issue) issues.push(issue);
  }
  const base = options.baseUrl ?? 'https://api.assemblyai.com';
  let url: URL | undefined;
  try {
    url = new URL(base);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      issues.push({ path: 'baseUrl', message: 'must be an http(s) URL' });
    if (url.username || url.password)
      issues.push({ path: 'baseUrl', message: 'must not contain credentials' });
    if (/\/v2\/?$/.test(url.pathname)) {
      issues.push({
        path: 'baseUrl',
        message: `must not end in /v2 (${url.origin}${url.pathname}); the client adds /v2/... itself`,
      });
    }
  } catch {
    issues.push({ path: 'baseUrl', message: `is not a URL: ${JSON.stringify(String(base)).slice(0, 80)}` });
  }
  const jobs = options.maxConcurrentJobs;
  if (jobs !== undefined && (!Number.isInteger(jobs) || jobs < 1)) {
    issues.push({ path: 'maxConcurrentJobs', message: 'must be a positive integer' });
  }
  const share = options.pollShare;
  if (share !== undefined && !(share > 0 && share <= 1))
    issues.push({ path: 'pollShare', message: 'must be in (0, 1]' });
  idempotencyIssues(options.idempotency, issues);
  const streaming = httpBase(
    options.streamingBaseUrl ?? DEFAULT_STREAMING_BASE_URL,
    'streamingBaseUrl',
    issues,
  );
  if (issues.length > 0 || !url || !streaming) {
    throw new ValidationError('TranscriptionClient options', issues);
  }
  return { baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, streamingBaseUrl: streaming };
}

/** An http(s) base URL without credentials, trailing slashes trimmed; an issue when it is not one. */
function httpBase(value: unknown, path: string, issues: ValidationIssue[]): string | undefined {
  try {
    const url = new URL(String(value));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      issues.push({ path, message: 'must be an http(s) URL' });
    } else if (url.username || url.password) {
      issues.push({ path, message: 'must not contain credentials' });
    } else return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    issues.push({ path, message: `is not a URL: ${JSON.stringify(String(value)).slice(0, 80)}` });
  }
  return undefined;
}

function idempotencyIssues(options: IdempotencyOptions | undefined, issues: ValidationIssue[]): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    issues.push({ path: 'idempotency', message: 'must be an object' });
    return;
  }
  const store = options.store as Partial<IdempotencyStore> | undefined;
  if (
    store !== undefined &&
    !['reserve', 'complete', 'release', 'get'].every((m) => typeof store?.[m as 'get'] === 'function')
  ) {
    issues.push({
      path: 'idempotency.store',
      message: 'must be an IdempotencyStore (reserve, complete, release, get)',
    });
  }
  const { leaseMs, ttlMs } = options;
  const leaseIsValid = typeof leaseMs === 'number' && Number.isFinite(leaseMs) && leaseMs >= 5000;
  if (leaseMs !== undefined && !leaseIsValid) {
    issues.push({ path: 'idempotency.leaseMs', message: 'must be a number of ms, at least 5000' });
  }
  // A pending record that expired before its lease would let a second caller send while the first may.
  // An invalid leaseMs is compared as the default: comparing with it could run its valueOf.
  const minimumTtl = leaseIsValid ? leaseMs : DEFAULT_IDEMPOTENCY_LEASE_MS;
  if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs >= minimumTtl)) {
    issues.push({ path: 'idempotency.ttlMs', message: 'must be a number of ms, at least leaseMs' });
  }
}
