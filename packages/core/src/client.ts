import type * as z from 'zod/mini';
import { type AuthStrategy, composeAuth, type PreparedRequest } from './auth.js';
import {
  AbortError,
  APIError,
  ConnectionError,
  type ErrorDetails,
  TimeoutError,
  ValidationError,
  XError,
} from './errors.js';
import { Redactor, redactUrl } from './internal/redact.js';
import { type Logger, type LogLevel, RedactingLogger } from './log.js';
import { PagePromise, type PageStrategy } from './pagination.js';
import { isRateLimiter, MemoryRateLimiter, type RateLimiter, type RateLimitOptions } from './rate-limit.js';
import {
  type AttemptOutcome,
  DEFAULT_RETRY,
  decideRetry,
  RetryBudget,
  type RetryOptions,
  serverBackoffMs,
} from './retry.js';
import { type FetchLike, Transport } from './transport.js';
import { parseResponse, type ValidationMode } from './validation.js';

/** What a service package tells core about its wire conventions. */
export interface ServiceAdapter {
  /** Package name and version, sent as `User-Agent` outside browsers. */
  packageName: string;
  packageVersion: string;
  /** Response headers that carry the server's request id, most specific first. */
  requestIdHeaders?: readonly string[];
  /** Reads code and message out of the service's error body. */
  parseError?(body: unknown, response: Response, request: PreparedRequest): ErrorDetails;
  /** Header the service reads idempotency keys from, if it has one. */
  idempotencyHeader?: string;
  /** Builds the URL of a path under the base URL (e.g. the store's `?rest_route=` form). */
  resolveUrl?(baseURL: string, path: string): URL;
  defaultRateLimit?: RateLimitOptions;
}

export interface Hooks {
  /** Before each attempt is sent (after auth); may add headers. */
  beforeRequest?: (event: RequestEvent) => void | Promise<void>;
  /** After each response arrives, successful or not. */
  afterResponse?: (event: ResponseEvent) => void | Promise<void>;
  /** Before sleeping for a retry. */
  beforeRetry?: (event: RetryEvent) => void | Promise<void>;
}

export interface RequestEvent {
  method: string;
  /** Redacted URL. */
  url: string;
  attempt: number;
  headers: Headers;
}
export interface ResponseEvent {
  method: string;
  url: string;
  attempt: number;
  status: number;
  durationMs: number;
  requestId: string | undefined;
  response: Response;
}
export interface RetryEvent {
  method: string;
  url: string;
  attempt: number;
  delayMs: number;
  reason: string;
  error: Error;
}

export interface ClientOptions {
  baseURL: string;
  auth?: AuthStrategy | readonly AuthStrategy[] | undefined;
  headers?: Record<string, string> | undefined;
  /** Per-attempt timeout in ms. Default 60 000. */
  timeout?: number | undefined;
  /** Shorthand for `retry.maxRetries`. Default 2. */
  maxRetries?: number | undefined;
  retry?: Partial<RetryOptions> | undefined;
  /** Client-side limit, a shared limiter (e.g. `RedisRateLimiter`), or `false` for none. */
  rateLimit?: RateLimitOptions | RateLimiter | false | undefined;
  /** A retry budget shared by every call of this client; `false` disables it. */
  retryBudget?: RetryBudget | false | undefined;
  fetch?: FetchLike | undefined;
  logger?: Logger | undefined;
  /** Default `warn`. */
  logLevel?: LogLevel | undefined;
  hooks?: Hooks | undefined;
  /** Default `strict`. */
  validateResponses?: ValidationMode | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
  maxRetries?: number | undefined;
  /** Sent in the service's idempotency header, and makes a POST safe to retry. */
  idempotencyKey?: string | undefined;
  /** Declares a non-idempotent request safe to repeat (the caller knows the server dedupes). */
  retryNonIdempotent?: boolean | undefined;
  headers?: Record<string, string> | undefined;
}

export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | null
  | undefined
  | ReadonlyArray<string | number | boolean>;

export interface RequestSpec<S extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** Path under the base URL, or an absolute URL (a `next_url` from the server). */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Plain objects are sent as JSON; `FormData`, `Blob`, bytes and strings as they are. */
  body?: unknown;
  schema?: S | undefined;
  /** Names the call in errors, e.g. `products.get`. */
  what?: string | undefined;
  options?: RequestOptions | undefined;
}

export interface WithResponse<T> {
  data: T;
  response: Response;
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

/** A promise of the parsed body that also offers the raw response through `.withResponse()`. */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;
  readonly [Symbol.toStringTag] = 'Promise';

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }
  // biome-ignore lint/suspicious/noThenProperty: this object is a promise by design.
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((r) => r.data).then(onFulfilled, onRejected);
  }
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onRejected);
  }
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }
}

/** State that clones made with `withOptions` share: one limiter and one retry budget per credential. */
interface SharedState {
  limiter: RateLimiter | undefined;
  budget: RetryBudget | undefined;
}
const SHARED = Symbol.for('@x/core/shared-client-state');

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];
const IS_BROWSER = typeof (globalThis as { document?: unknown }).document !== 'undefined';

export class BaseClient {
  readonly baseURL: string;
  readonly #adapter: ServiceAdapter;
  readonly #auth: AuthStrategy | undefined;
  readonly #headers: Record<string, string>;
  readonly #timeout: number;
  readonly #retry: RetryOptions;
  readonly #shared: SharedState;
  readonly #transport: Transport;
  readonly #hooks: Hooks;
  readonly #validation: ValidationMode;
  readonly #redactor = new Redactor();
  readonly #rawOptions: object;
  protected readonly logger: RedactingLogger;

  constructor(options: ClientOptions, adapter: ServiceAdapter, rawOptions: object = options) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.#adapter = adapter;
    const auth = options.auth;
    this.#auth = Array.isArray(auth) ? composeAuth(...auth) : (auth as AuthStrategy | undefined);
    this.#redactor.add(...(this.#auth?.secretValues() ?? []));
    this.#headers = { ...options.headers };
    this.#timeout = options.timeout ?? 60_000;
    this.#retry = {
      ...DEFAULT_RETRY,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    };
    const inherited = (rawOptions as { [SHARED]?: SharedState })[SHARED];
    this.#shared = inherited ?? {
      limiter: resolveLimiter(options.rateLimit, adapter.defaultRateLimit),
      budget: options.retryBudget === false ? undefined : (options.retryBudget ?? new RetryBudget()),
    };
    this.#transport = new Transport(options.fetch);
    this.#hooks = options.hooks ?? {};
    this.#validation = options.validateResponses ?? 'strict';
    this.logger = new RedactingLogger(options.logger ?? console, options.logLevel ?? 'warn', this.#redactor);
    this.#rawOptions = rawOptions;
  }

  /** The same client with some options changed; limiter and retry budget stay shared with this one. */
  withOptions(overrides: Record<string, unknown>): this {
    const Ctor = this.constructor as new (options: object) => this;
    return new Ctor({ ...this.#rawOptions, ...overrides, [SHARED]: this.#shared });
  }

  get rateLimiter(): RateLimiter | undefined {
    return this.#shared.limiter;
  }

  /** Removes every secret this client holds from a piece of text. */
  redact(text: string): string {
    return this.#redactor.redact(text);
  }

  /**
   * Sends one call. Pass a function that builds the spec when building it can fail (input validation):
   * its error then rejects the returned promise instead of being thrown synchronously.
   */
  request<S extends z.ZodMiniType>(spec: SpecSource<RequestSpec<S> & { schema: S }>): APIPromise<z.infer<S>>;
  request<T = unknown>(spec: SpecSource<RequestSpec>): APIPromise<T>;
  request(spec: SpecSource<RequestSpec>): APIPromise<unknown> {
    return new APIPromise(resolveSpec(spec).then((resolved) => this.#execute(resolved)));
  }

  list<T>(
    spec: SpecSource<RequestSpec>,
    strategy: PageStrategy<T>,
    options?: { concurrency?: number },
  ): PagePromise<T> {
    return new PagePromise<T>(
      (pageSpec) => this.#execute(pageSpec),
      resolveSpec(spec),
      strategy,
      options?.concurrency ?? 1,
    );
  }

  buildUrl(path: string, query?: Record<string, QueryValue>): URL {
    const url = /^https?:\/\//i.test(path)
      ? this.#sameOrigin(new URL(path))
      : this.#adapter.resolveUrl
        ? this.#adapter.resolveUrl(this.baseURL, path)
        : new URL(this.baseURL + (path.startsWith('/') ? path : `/${path}`));
    if (query) appendQuery(url.searchParams, query);
    return url;
  }

  /** A next-page URL from the server gets our credentials, so it must point at the API, not elsewhere. */
  #sameOrigin(url: URL): URL {
    const api = new URL(this.baseURL).origin;
    if (url.origin !== api) {
      throw new ValidationError('request URL', [
        {
          path: 'path',
          message: `${url.origin} is not the API's origin ${api}; credentials are not sent there`,
        },
      ]);
    }
    return url;
  }

  async #execute(spec: RequestSpec): Promise<WithResponse<any>> {
    const options = spec.options ?? {};
    const retry =
      options.maxRetries === undefined ? this.#retry : { ...this.#retry, maxRetries: options.maxRetries };
    const started = Date.now();
    const { body, contentType } = serializeBody(spec.body);
    const safeToRepeat = Boolean(options.retryNonIdempotent || options.idempotencyKey);

    for (let attempt = 1; ; attempt++) {
      if (options.signal?.aborted)
        throw new AbortError('Request aborted before it was sent', { cause: options.signal.reason });
      const releaseSlot = await this.#shared.limiter?.acquire(options.signal);
      let sent: Attempt;
      try {
        sent = await this.#attempt(spec, attempt, body, contentType);
      } finally {
        // A request counts against the limit until it has completed: its arrival lies in between.
        releaseSlot?.();
      }
      const call = { spec, attempt, started, safeToRepeat, retry, url: sent.shownUrl };

      if (sent.kind === 'failed') {
        const error = this.#scrubError(sent.error);
        if (!(error instanceof ConnectionError)) throw error;
        await this.#retryOrThrow(
          { kind: 'connection', timedOut: error instanceof TimeoutError, unsent: error.unsent },
          error,
          call,
        );
        continue;
      }

      const { response, text, prepared } = sent;
      const requestId = this.#requestId(response.headers);
      if (this.#hooks.afterResponse) {
        const durationMs = sent.durationMs;
        await this.#hooks.afterResponse({
          method: spec.method,
          url: sent.shownUrl(),
          attempt,
          status: response.status,
          durationMs,
          requestId,
          response,
        });
      }
      if (this.logger.enabled('info')) {
        const retried = attempt > 1 ? ` after ${attempt - 1} retries` : '';
        const id = requestId ? ` (request_id=${requestId})` : '';
        this.logger.info(
          `${spec.method} ${sent.shownUrl()} → ${response.status} in ${sent.durationMs} ms${id}${retried}`,
        );
      }
      this.#observeServerLimits(response);

      if (response.ok) {
        this.#shared.budget?.refund();
        const parsed = parseBody(text, response);
        const data = spec.schema
          ? parseResponse(spec.schema, parsed, {
              mode: this.#validation,
              status: response.status,
              requestId,
              what: spec.what,
              logger: this.logger,
              redact: (raw) => this.#redactor.redactDeep(raw),
            })
          : parsed;
        return { data, response, status: response.status, headers: response.headers, requestId };
      }

      const error = this.#apiError(response, parseBody(text, response), requestId, prepared);
      await this.#retryOrThrow(
        { kind: 'response', status: response.status, headers: response.headers },
        error,
        call,
      );
    }
  }

  /** Prepares, signs and sends one attempt. Transport failures are returned; anything else throws. */
  async #attempt(
    spec: RequestSpec,
    attempt: number,
    body: BodyInit | undefined,
    contentType: string | undefined,
  ): Promise<Attempt> {
    const options = spec.options ?? {};
    const prepared: PreparedRequest = {
      method: spec.method,
      url: this.buildUrl(spec.path, spec.query),
      headers: this.#baseHeaders(contentType, options),
      body,
    };
    await this.#auth?.apply(prepared);
    // Redacting the URL costs a few microseconds; only pay for it when a hook or a log line shows it.
    let shown: string | undefined;
    const shownUrl = () => (shown ??= this.#showUrl(prepared.url));
    if (this.#hooks.beforeRequest) {
      await this.#hooks.beforeRequest({
        method: spec.method,
        url: shownUrl(),
        attempt,
        headers: prepared.headers,
      });
    }
    if (this.logger.enabled('debug'))
      this.logger.debug(`→ ${spec.method} ${shownUrl()} (attempt ${attempt})`);
    const sentAt = performance.now();
    try {
      const { response, text } = await this.#transport.send({
        method: spec.method,
        url: prepared.url,
        headers: prepared.headers,
        body: prepared.body,
        timeoutMs: options.timeout ?? this.#timeout,
        signal: options.signal,
      });
      return {
        kind: 'sent',
        prepared,
        shownUrl,
        response,
        text,
        durationMs: Math.round(performance.now() - sentAt),
      };
    } catch (error) {
      return { kind: 'failed', prepared, shownUrl, error: error as Error };
    }
  }

  #baseHeaders(contentType: string | undefined, options: RequestOptions): Headers {
    const headers = new Headers({ accept: 'application/json' });
    if (!IS_BROWSER)
      headers.set('user-agent', `${this.#adapter.packageName}/${this.#adapter.packageVersion}`);
    if (contentType) headers.set('content-type', contentType);
    for (const [name, value] of Object.entries(this.#headers)) headers.set(name, value);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (options.idempotencyKey && this.#adapter.idempotencyHeader)
      headers.set(this.#adapter.idempotencyHeader, options.idempotencyKey);
    return headers;
  }

  #spendBudget(timedOut: boolean): boolean {
    const budget = this.#shared.budget;
    if (!budget || budget.trySpend(timedOut)) return true;
    this.logger.warn(
      'Retry budget exhausted: failing fast instead of retrying (the service looks unhealthy).',
    );
    return false;
  }

  /** Throws `error` unless the policy, the deadline and the retry budget all allow another attempt; then waits. */
  async #retryOrThrow(
    outcome: AttemptOutcome,
    error: Error,
    call: {
      spec: RequestSpec;
      attempt: number;
      started: number;
      safeToRepeat: boolean;
      retry: RetryOptions;
      url: () => string;
    },
  ): Promise<void> {
    const now = Date.now();
    const decision = decideRetry(outcome, {
      method: call.spec.method,
      retryIndex: call.attempt - 1,
      safeToRepeat: call.safeToRepeat,
      elapsedMs: now - call.started,
      now,
      options: call.retry,
    });
    const timedOut = outcome.kind === 'connection' && outcome.timedOut;
    if (!decision.retry || !this.#spendBudget(timedOut)) throw error;
    const { method } = call.spec;
    await this.#hooks.beforeRetry?.({
      method,
      url: call.url(),
      attempt: call.attempt,
      delayMs: decision.delayMs,
      reason: decision.reason,
      error,
    });
    this.logger.info(
      `retrying ${method} ${call.url()} in ${decision.delayMs} ms (${decision.reason}; attempt ${call.attempt} failed: ${error.message})`,
    );
    await sleep(decision.delayMs, call.spec.options?.signal);
  }

  /** 429s and exhausted quotas pause the shared limiter, so every request waits, not just this one. */
  #observeServerLimits(response: Response): void {
    const limiter = this.#shared.limiter;
    if (!limiter) return;
    if (
      response.status !== 429 &&
      !response.headers.has('ratelimit-remaining') &&
      !response.headers.has('x-ratelimit-remaining')
    )
      return;
    const waitMs = serverBackoffMs(response.headers, response.status, Date.now());
    if (waitMs === undefined) {
      if (response.status === 429) void limiter.pause(Date.now() + this.#retry.baseDelayMs);
      return;
    }
    if (waitMs > 0) void limiter.pause(Date.now() + Math.min(waitMs, this.#retry.maxRetryAfterMs));
  }

  #requestId(headers: Headers): string | undefined {
    for (const name of this.#adapter.requestIdHeaders ?? DEFAULT_REQUEST_ID_HEADERS) {
      const value = headers.get(name);
      if (value) return value;
    }
    return undefined;
  }

  #apiError(
    response: Response,
    body: unknown,
    requestId: string | undefined,
    prepared: PreparedRequest,
  ): APIError {
    const details =
      this.#adapter.parseError?.(body, response, prepared) ?? defaultErrorDetails(body, response);
    const message = [details.message ?? (response.statusText || 'Request failed'), details.hint]
      .filter(Boolean)
      .join(' ');
    return APIError.from({
      status: response.status,
      code: details.code,
      message: this.#redactor.redact(message),
      requestId,
      headers: this.#redactor.redactHeaders(response.headers),
      body: this.#redactor.redactDeep(body),
      method: prepared.method,
      url: this.#showUrl(prepared.url),
      retryAfterMs: serverBackoffMs(response.headers, response.status, Date.now()),
    });
  }

  #showUrl(url: URL): string {
    return this.#redactor.redact(redactUrl(url.toString()));
  }

  #scrubError(error: Error): Error {
    if (error instanceof XError && this.#redactor.size > 0) {
      const clean = this.#redactor.redact(error.message);
      if (clean !== error.message) error.message = clean;
    }
    return error;
  }

  toJSON(): Record<string, unknown> {
    return { baseURL: this.baseURL, auth: this.#auth?.kind };
  }
}

export type SpecSource<S> = S | (() => S);

type Attempt =
  | {
      kind: 'sent';
      prepared: PreparedRequest;
      shownUrl: () => string;
      response: Response;
      text: string;
      durationMs: number;
    }
  | { kind: 'failed'; prepared: PreparedRequest; shownUrl: () => string; error: Error };

async function resolveSpec<S>(source: SpecSource<S>): Promise<S> {
  return typeof source === 'function' ? (source as () => S)() : source;
}

function resolveLimiter(
  option: ClientOptions['rateLimit'],
  fallback: RateLimitOptions | undefined,
): RateLimiter | undefined {
  if (option === false) return undefined;
  if (isRateLimiter(option)) return option;
  const config = (option as RateLimitOptions | undefined) ?? fallback;
  return config ? new MemoryRateLimiter(config) : undefined;
}

function defaultErrorDetails(body: unknown, response: Response): ErrorDetails {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = (record.error && typeof record.error === 'object' ? record.error : record) as Record<
      string,
      unknown
    >;
    const message =
      typeof nested.message === 'string'
        ? nested.message
        : typeof record.error === 'string'
          ? record.error
          : undefined;
    const code =
      typeof nested.code === 'string'
        ? nested.code
        : typeof nested.type === 'string'
          ? nested.type
          : undefined;
    return { code, message };
  }
  if (typeof body === 'string' && body.trim() && body.length < 500 && !body.trimStart().startsWith('<'))
    return { message: body.trim() };
  return { message: response.statusText || undefined };
}

function appendQuery(params: URLSearchParams, query: Record<string, QueryValue>): void {
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.map(String).join(','));
    } else if (value instanceof Date) params.set(name, value.toISOString());
    else params.set(name, String(value));
  }
}

function serializeBody(body: unknown): { body: BodyInit | undefined; contentType: string | undefined } {
  if (body === undefined) return { body: undefined, contentType: undefined };
  if (
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    body instanceof URLSearchParams
  ) {
    return { body: body as BodyInit, contentType: undefined };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

function parseBody(text: string, response: Response): unknown {
  if (text === '') return undefined;
  const type = response.headers.get('content-type');
  // Servers mislabel JSON (text/html from PHP hosts), so unlabelled or odd types are sniffed.
  if (type?.includes('json') || /^\s*[[{"]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted)
      return reject(new AbortError('Request aborted while waiting to retry', { cause: signal.reason }));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError('Request aborted while waiting to retry', { cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
