import type * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise.js';
import { type AuthStrategy, composeAuth, type PreparedRequest } from './auth.js';
import { toOutgoingBody } from './body.js';
import {
  AbortError,
  APIError,
  ConnectionError,
  RedirectError,
  TimeoutError,
  ValidationError,
  XError,
} from './errors.js';
import { CallDeadline } from './internal/deadline.js';
import { Redactor, redactUrl } from './internal/redact.js';
import { decideRedirect, type Target } from './internal/redirect.js';
import { appendQuery, clip, defaultErrorDetails, parseBody } from './internal/wire.js';
import { RedactingLogger } from './log.js';
import type {
  ClientOptions,
  Hooks,
  QueryValue,
  RequestOptions,
  RequestSpec,
  ServiceAdapter,
  SpecSource,
} from './options.js';
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
import { type SendResult, Transport } from './transport.js';
import { parseResponse, type ValidationMode } from './validation.js';

/** State that clones made with `withOptions` share: one limiter and one retry budget per credential. */
interface SharedState {
  limiter: RateLimiter | undefined;
  budget: RetryBudget | undefined;
}

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];
const IS_BROWSER = typeof (globalThis as { document?: unknown }).document !== 'undefined';

/** One call in progress: what the request loop and its helpers pass around. */
interface Call {
  spec: RequestSpec;
  options: RequestOptions;
  retry: RetryOptions;
  deadline: CallDeadline;
  started: number;
  safeToRepeat: boolean;
  /** Sends so far, redirects included. */
  attempt: number;
  /** Retries so far. */
  retries: number;
  target: Target;
}

/**
 * The request loop every service client shares. `O` is the options type of the subclass, so that
 * `withOptions()` is typed and rebuilds the subclass from the options its user gave.
 */
export class BaseClient<O extends object = ClientOptions> {
  /** Set only while `withOptions` constructs a clone, so no subclass constructor can drop the sharing. */
  static #inheriting: SharedState | undefined;

  readonly baseURL: string;
  readonly #adapter: ServiceAdapter;
  readonly #auth: AuthStrategy | undefined;
  readonly #headers: Record<string, string>;
  readonly #timeout: number;
  readonly #totalTimeout: number | undefined;
  readonly #idleTimeout: number;
  readonly #maxErrorBodyBytes: number;
  readonly #agent: unknown;
  readonly #retry: RetryOptions;
  readonly #shared: SharedState;
  readonly #transport: Transport;
  readonly #hooks: Hooks;
  readonly #validation: ValidationMode;
  readonly #redactor = new Redactor();
  readonly #rawOptions: O;
  protected readonly logger: RedactingLogger;

  constructor(options: ClientOptions, adapter: ServiceAdapter, rawOptions?: O) {
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.#adapter = adapter;
    const auth = options.auth;
    this.#auth = Array.isArray(auth) ? composeAuth(...auth) : (auth as AuthStrategy | undefined);
    this.#redactor.add(...(this.#auth?.secretValues() ?? []));
    this.#headers = { ...options.headers };
    this.#timeout = options.timeout ?? 60_000;
    this.#totalTimeout = options.totalTimeout ?? options.retry?.deadlineMs;
    this.#idleTimeout = options.idleTimeout ?? 60_000;
    this.#maxErrorBodyBytes = options.maxErrorBodyBytes ?? 65_536;
    this.#agent = options.agent;
    this.#retry = {
      ...DEFAULT_RETRY,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      // The call's deadline is enforced by the loop (it also cuts the queue and the attempt in flight).
      deadlineMs: undefined,
    };
    this.#shared = BaseClient.#inheriting ?? {
      limiter: resolveLimiter(options.rateLimit, adapter.defaultRateLimit),
      budget: options.retryBudget === false ? undefined : (options.retryBudget ?? new RetryBudget()),
    };
    this.#transport = new Transport(options.fetch);
    this.#hooks = options.hooks ?? {};
    this.#validation = options.validateResponses ?? 'strict';
    this.logger = new RedactingLogger(options.logger ?? console, options.logLevel ?? 'warn', this.#redactor);
    this.#rawOptions = rawOptions ?? (options as O);
  }

  /** The same client with some options changed; limiter and retry budget stay shared with this one. */
  withOptions(overrides: Partial<O>): this {
    const Ctor = this.constructor as new (options: O) => this;
    BaseClient.#inheriting = this.#shared;
    try {
      return new Ctor({ ...this.#rawOptions, ...overrides });
    } finally {
      BaseClient.#inheriting = undefined;
    }
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
    const deadline = new CallDeadline(options.totalTimeout ?? this.#totalTimeout, options.signal);
    const call: Call = {
      spec,
      options,
      retry:
        options.maxRetries === undefined ? this.#retry : { ...this.#retry, maxRetries: options.maxRetries },
      deadline,
      started: Date.now(),
      safeToRepeat: Boolean(options.retryNonIdempotent || options.idempotencyKey),
      attempt: 0,
      retries: 0,
      target: {
        method: spec.method,
        url: this.buildUrl(spec.path, spec.query),
        body: toOutgoingBody(spec.body, options.onProgress !== undefined),
      },
    };
    try {
      return await this.#loop(call);
    } finally {
      deadline.dispose();
    }
  }

  async #loop(call: Call): Promise<WithResponse<any>> {
    const { spec, deadline } = call;
    for (let redirects = 0; ; ) {
      call.attempt++;
      if (call.options.signal?.aborted)
        throw new AbortError('Request aborted before it was sent', { cause: call.options.signal.reason });
      const releaseSlot = await this.#acquire(call);
      let sent: Attempt;
      try {
        sent = await this.#attempt(call);
      } finally {
        // A request counts against the limit until it has completed: its arrival lies in between.
        releaseSlot?.();
      }

      if (sent.kind === 'failed') {
        const error = this.#scrubError(sent.error);
        if (deadline.expired) throw this.#deadlineError(call, 'attempt', error);
        if (!(error instanceof ConnectionError)) throw error;
        await this.#retryOrThrow(
          { kind: 'connection', timedOut: error instanceof TimeoutError, unsent: error.unsent },
          error,
          call,
          sent.shownUrl,
        );
        continue;
      }

      const { response, prepared } = sent;
      const requestId = this.#requestId(response.headers);
      await this.#reportResponse(call, sent, requestId);
      this.#observeServerLimits(response);

      if (response.ok) {
        this.#shared.budget?.refund();
        if (sent.stream)
          return {
            data: sent.stream,
            response,
            status: response.status,
            headers: response.headers,
            requestId,
          };
        const parsed = parseBody(sent.text, response);
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

      const redirect = decideRedirect(response, call.target, prepared.url, redirects);
      if (redirect?.kind === 'follow') {
        redirects++;
        this.logger.info(`following ${response.status} redirect of ${call.target.method} ${sent.shownUrl()}`);
        call.target = redirect.target;
        continue;
      }
      const body = parseBody(sent.text, response);
      if (redirect?.kind === 'refuse')
        throw this.#redirectError(response, body, requestId, prepared, redirect);
      const error = this.#apiError(response, body, requestId, prepared, sent.truncated);
      await this.#retryOrThrow(
        { kind: 'response', status: response.status, headers: response.headers },
        error,
        call,
        sent.shownUrl,
      );
    }
  }

  /** Waits for the limiter; a deadline that runs out in the queue says so. */
  async #acquire(call: Call): Promise<(() => void) | undefined> {
    const limiter = this.#shared.limiter;
    if (!limiter) return undefined;
    try {
      return await limiter.acquire(call.deadline.signal);
    } catch (error) {
      if (call.deadline.expired) throw this.#deadlineError(call, 'queue', error);
      throw error;
    }
  }

  /** Prepares, signs and sends one attempt. Transport failures are returned; anything else throws. */
  async #attempt(call: Call): Promise<Attempt> {
    const { spec, options, target } = call;
    const body = target.body;
    const prepared: PreparedRequest = {
      method: target.method,
      url: new URL(target.url),
      headers: this.#baseHeaders(body?.contentType, options),
      body: body?.kind === 'buffered' ? body.value : undefined,
    };
    if (body?.kind === 'stream' && !body.stream.retryable && call.attempt > 1) {
      throw new ValidationError(spec.what ?? 'request body', [
        {
          path: 'body',
          message:
            'a one-shot stream cannot be sent twice; pass streamBody(() => stream) or fileBody(path) to allow retries',
        },
      ]);
    }
    await this.#auth?.apply(prepared);
    // Redacting the URL costs a few microseconds; only pay for it when a hook or a log line shows it.
    let shown: string | undefined;
    const shownUrl = () => (shown ??= this.#showUrl(prepared.url));
    if (this.#hooks.beforeRequest) {
      await this.#hooks.beforeRequest({
        method: prepared.method,
        url: shownUrl(),
        attempt: call.attempt,
        headers: prepared.headers,
      });
    }
    if (this.logger.enabled('debug'))
      this.logger.debug(`→ ${prepared.method} ${shownUrl()} (attempt ${call.attempt})`);
    const sentAt = performance.now();
    try {
      const result = await this.#transport.send({
        method: prepared.method,
        url: prepared.url,
        headers: prepared.headers,
        body,
        timeoutMs: options.timeout ?? this.#timeout,
        idleTimeoutMs: options.idleTimeout ?? this.#idleTimeout,
        signal: call.deadline.signal,
        onProgress: options.onProgress,
        responseType: spec.responseType === 'stream' ? 'stream' : 'text',
        maxErrorBodyBytes: this.#maxErrorBodyBytes,
        agent: this.#agent,
      });
      return {
        kind: 'sent',
        prepared,
        shownUrl,
        ...result,
        durationMs: Math.round(performance.now() - sentAt),
      };
    } catch (error) {
      return { kind: 'failed', prepared, shownUrl, error: error as Error };
    }
  }

  async #reportResponse(call: Call, sent: Extract<Attempt, { kind: 'sent' }>, requestId: string | undefined) {
    const { response, prepared } = sent;
    if (this.#hooks.afterResponse) {
      await this.#hooks.afterResponse({
        method: prepared.method,
        url: sent.shownUrl(),
        attempt: call.attempt,
        status: response.status,
        durationMs: sent.durationMs,
        requestId,
        response,
      });
    }
    if (this.logger.enabled('info')) {
      const retried = call.retries > 0 ? ` after ${call.retries} retries` : '';
      const id = requestId ? ` (request_id=${requestId})` : '';
      this.logger.info(
        `${prepared.method} ${sent.shownUrl()} → ${response.status} in ${sent.durationMs} ms${id}${retried}`,
      );
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

  /**
   * Throws `error` unless the policy, the retry budget and the call's deadline all allow another
   * attempt; then waits.
   */
  async #retryOrThrow(outcome: AttemptOutcome, error: Error, call: Call, url: () => string): Promise<void> {
    const now = Date.now();
    const decision = decideRetry(outcome, {
      method: call.target.method,
      retryIndex: call.retries,
      safeToRepeat: call.safeToRepeat,
      elapsedMs: now - call.started,
      now,
      options: call.retry,
    });
    const timedOut = outcome.kind === 'connection' && outcome.timedOut;
    if (!decision.retry) throw error;
    const body = call.target.body;
    if (body?.kind === 'stream' && !body.stream.retryable) {
      error.message += ` (not retried: the body was a one-shot stream; pass streamBody(() => stream) or fileBody(path) to allow retries)`;
      throw error;
    }
    if (!this.#spendBudget(timedOut)) throw error;
    if (decision.delayMs >= call.deadline.remaining()) throw this.#deadlineError(call, 'backoff', error);
    const { method } = call.target;
    await this.#hooks.beforeRetry?.({
      method,
      url: url(),
      attempt: call.attempt,
      delayMs: decision.delayMs,
      reason: decision.reason,
      error,
    });
    this.logger.info(
      `retrying ${method} ${url()} in ${decision.delayMs} ms (${decision.reason}; attempt ${call.attempt} failed: ${error.message})`,
    );
    call.retries++;
    try {
      await call.deadline.sleep(decision.delayMs);
    } catch (sleepError) {
      if (call.deadline.expired) throw this.#deadlineError(call, 'backoff', error);
      throw sleepError;
    }
  }

  #deadlineError(call: Call, phase: 'queue' | 'attempt' | 'backoff', cause: unknown): TimeoutError {
    const where = `${call.target.method} ${this.#showUrl(call.target.url)}`;
    const during =
      phase === 'queue'
        ? 'while waiting for a rate-limit slot'
        : phase === 'attempt'
          ? `during attempt ${call.attempt}`
          : `before retry ${call.retries + 1} (its backoff would end past the deadline)`;
    const last = phase === 'backoff' && cause instanceof Error ? `; last error: ${cause.message}` : '';
    return new TimeoutError(
      this.#redactor.redact(
        `Call exceeded totalTimeout of ${call.deadline.totalMs} ms ${during}: ${where}${last}`,
      ),
      { cause, timeout: 'total', phase },
    );
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
    truncated: boolean,
  ): APIError {
    const details =
      this.#adapter.parseError?.(body, response, prepared) ?? defaultErrorDetails(body, response);
    const cut = truncated ? `(error body cut at ${this.#maxErrorBodyBytes} bytes)` : undefined;
    const message = [
      details.message ? clip(details.message) : response.statusText || 'Request failed',
      details.hint,
      cut,
    ]
      .filter(Boolean)
      .join(' ');
    return APIError.from(
      {
        status: response.status,
        code: details.code,
        message: this.#redactor.redact(message),
        requestId,
        headers: this.#redactor.redactHeaders(response.headers),
        body: this.#redactor.redactDeep(body),
        method: prepared.method,
        url: this.#showUrl(prepared.url),
        retryAfterMs: serverBackoffMs(response.headers, response.status, Date.now()),
      },
      details.errorClass,
    );
  }

  #redirectError(
    response: Response,
    body: unknown,
    requestId: string | undefined,
    prepared: PreparedRequest,
    redirect: { why: string; location: URL | undefined },
  ): RedirectError {
    const location = redirect.location ? this.#showUrl(redirect.location) : undefined;
    const to = location ? ` to ${location}` : '';
    const advice = location
      ? ` If the API has moved, use ${new URL(location).origin} in the client's URL.`
      : '';
    return new RedirectError({
      status: response.status,
      code: 'redirect_refused',
      message: `${prepared.method} ${this.#showUrl(prepared.url)} was redirected${to}; not followed because ${redirect.why}.${advice}`,
      requestId,
      headers: this.#redactor.redactHeaders(response.headers),
      body: this.#redactor.redactDeep(body),
      method: prepared.method,
      url: this.#showUrl(prepared.url),
      location,
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

type Attempt =
  | ({ kind: 'sent'; prepared: PreparedRequest; shownUrl: () => string; durationMs: number } & SendResult)
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
