import {
  BaseClient,
  credentialIssue,
  DEFAULT_IDEMPOTENCY_LEASE_MS,
  type ErrorDetails,
  headerAuth,
  type IdempotencyStore,
  NotFoundError,
  Secret,
  type ServiceAdapter,
  ValidationError,
  type ValidationIssue,
} from '@x/core';
import { name as packageName, version as packageVersion } from '../package.json';
import type { IdempotencyOptions, TranscriptionClientOptions } from './client-options.js';
import { type ClientLimits, clientLimits, DEFAULT_RATE_LIMIT } from './context.js';
import { Files } from './resources/files.js';
import { Streaming } from './resources/streaming.js';
import { Transcripts } from './resources/transcripts.js';
import { DEFAULT_STREAMING_BASE_URL } from './streaming/query.js';

export type { IdempotencyOptions, TranscriptionClientOptions } from './client-options.js';

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
