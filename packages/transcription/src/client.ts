import {
  BaseClient,
  type ClientOptions,
  type ErrorDetails,
  headerAuth,
  isRateLimiter,
  MemoryRateLimiter,
  NotFoundError,
  type RateLimiter,
  type RateLimitOptions,
  Secret,
  type ServiceAdapter,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../package.json';
import { Files } from './resources/files.js';
import { Transcripts } from './resources/transcripts.js';

export interface TranscriptionClientOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  /** An AssemblyAI API key (sent bare in `Authorization`, as the service expects). */
  apiKey: string;
  /** Default `https://api.assemblyai.com`; `https://api.eu.assemblyai.com` for the EU. */
  baseUrl?: string;
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
}

const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 60, interval: '1m' };

/** The AssemblyAI v2 REST API: uploads and transcripts. */
export class TranscriptionClient extends BaseClient<TranscriptionClientOptions> {
  readonly files: Files;
  readonly transcripts: Transcripts;

  constructor(options: TranscriptionClientOptions) {
    const baseUrl = checkOptions(options);
    const {
      apiKey,
      baseUrl: _base,
      modelRateLimits,
      maxConcurrentJobs,
      pollShare,
      allowUnknownFields,
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
    const context = {
      client: this,
      allowUnknownFields: allowUnknownFields ?? false,
      modelLimiters: new Map(
        Object.entries(modelRateLimits ?? {}).map(([model, rl]) => [model, new MemoryRateLimiter(rl)]),
      ),
      pollLimiter: pollLimiter(options.rateLimit, pollShare ?? 0.5),
      jobSlots: new JobSlots(maxConcurrentJobs ?? 5),
    };
    this.files = new Files(context);
    this.transcripts = new Transcripts(context, this.files);
  }
}

/** What the resources share: the client, and the client's limits on models, polling and jobs. */
export interface TranscriptionContext {
  client: TranscriptionClient;
  allowUnknownFields: boolean;
  modelLimiters: ReadonlyMap<string, RateLimiter>;
  pollLimiter: RateLimiter | undefined;
  jobSlots: JobSlots;
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

/** A counting semaphore: jobs in flight at the service. */
export class JobSlots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
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
          reject(signal?.reason);
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

function checkOptions(options: TranscriptionClientOptions): string {
  const issues: ValidationIssue[] = [];
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    issues.push({ path: 'apiKey', message: 'is required (your AssemblyAI API key)' });
  } else if (/^(bearer|token)\s/i.test(options.apiKey)) {
    issues.push({ path: 'apiKey', message: 'must be the bare key, without a "Bearer"/"Token" scheme' });
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
  if (issues.length > 0 || !url) throw new ValidationError('TranscriptionClient options', issues);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
