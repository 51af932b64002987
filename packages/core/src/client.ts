import type * as z from 'zod/mini';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { AuthStrategy, PreparedRequest } from './auth.js';
import { encodeBody } from './body.js';
import { AbortError, ConnectionError, TimeoutError, ValidationError } from './errors.js';
import { CallDeadline } from './internal/deadline.js';
import { type Attempt, reportResponse } from './internal/events.js';
import {
  apiError,
  attemptLabel,
  deadlineError,
  errorDetails,
  findRequestId,
  redirectError,
  scrubError,
  showUrl,
  statusFromBody,
} from './internal/failures.js';
import { derivedSecrets, Redactor } from './internal/redact.js';
import { decideRedirect } from './internal/redirect.js';
import { observeServerLimits, type RetryingCall, retryOrThrow } from './internal/retrying.js';
import {
  applyAuth,
  buildHeaders,
  checkClientOptions,
  resolveLimiter,
  resolveSettings,
} from './internal/settings.js';
import { namingTlsOption } from './internal/transport-errors.js';
import { appendQuery, parseBody } from './internal/wire.js';
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
import type { RateLimiter } from './rate-limit.js';
import { type AttemptOutcome, RetryBudget, type RetryOptions } from './retry.js';
import { Transport } from './transport.js';
import { parseResponse, type ValidationMode } from './validation.js';

/** State that clones made with `withOptions` share: one limiter and one retry budget per credential. */
interface SharedState {
  limiter: RateLimiter | undefined;
  budget: RetryBudget | undefined;
}

interface Call extends RetryingCall {
  spec: RequestSpec;
  options: RequestOptions;
  /** The client's secrets plus those the auth strategy derived for the latest attempt (signatures). */
  redactor: Redactor;
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
  readonly #maxResponseBytes: number;
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
    checkClientOptions(options, adapter);
    const settings = resolveSettings(options);
    this.baseURL = settings.baseURL;
    this.#adapter = adapter;
    this.#auth = settings.auth;
    this.#redactor.add(...(this.#auth?.secretValues() ?? []));
    this.#headers = settings.headers;
    this.#timeout = settings.timeout;
    this.#totalTimeout = settings.totalTimeout;
    this.#idleTimeout = settings.idleTimeout;
    this.#maxErrorBodyBytes = settings.maxErrorBodyBytes;
    this.#maxResponseBytes = settings.maxResponseBytes;
    this.#agent = options.agent;
    this.#retry = settings.retry;
    this.#shared = BaseClient.#inheriting ?? {
      limiter: resolveLimiter(options.rateLimit, adapter.defaultRateLimit),
      budget: options.retryBudget === false ? undefined : (options.retryBudget ?? new RetryBudget()),
    };
    this.#transport = new Transport(options.fetch, options.agent);
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
      (text) => this.#redactor.redact(text),
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
    if (options.idempotencyKey !== undefined && !this.#adapter.idempotencyHeader) {
      // Sending nothing while making the POST retryable would turn a retry into a second, real request.
      throw new ValidationError(`${spec.what ?? 'request'} options`, [
        {
          path: 'idempotencyKey',
          message: `${this.#adapter.packageName} talks to a service without idempotency keys, so the key could not be sent; pass retryNonIdempotent: true instead if repeating this request is safe`,
        },
      ]);
    }
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
      redactor: this.#redactor,
      target: {
        method: spec.method,
        url: this.buildUrl(spec.path, spec.query),
        body: encodeBody(spec.body, spec.what, options.onProgress !== undefined),
      },
    };
    try {
      return await this.#loop(call);
    } catch (error) {
      throw scrubError(error, call.redactor);
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
        const error = scrubError(sent.error, call.redactor);
        if (deadline.expired) throw deadlineError(call, 'attempt', error, call.redactor);
        if (!(error instanceof ConnectionError)) throw error;
        await this.#retryOrThrow(
          { kind: 'connection', timedOut: error instanceof TimeoutError, unsent: error.unsent },
          error,
          call,
          sent.shownUrl,
        );
        continue;
      }

      const sentStatus = statusFromBody(sent, this.#adapter);
      const { response, prepared } = sent;
      const requestId = findRequestId(response.headers, this.#adapter.requestIdHeaders, call.redactor);
      await reportResponse(this.#hooks, this.logger, call, sent, requestId);
      observeServerLimits(this.#shared.limiter, response, this.#retry);

      if (response.ok) {
        this.#shared.budget?.refund();
        const parsed = sent.stream ?? parseBody(sent.text, response);
        const data =
          spec.schema && !sent.stream
            ? parseResponse(spec.schema, parsed, {
                mode: this.#validation,
                status: response.status,
                requestId,
                what: spec.what,
                logger: this.logger,
                redact: (body) => call.redactor.redactDeep(body),
                raw: { text: sent.text, response, method: prepared.method, url: sent.shownUrl },
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
        throw redirectError({ response, body, requestId, prepared }, redirect, call.redactor);
      const error = apiError(
        { response, body, requestId, prepared },
        errorDetails(this.#adapter, { response, body, prepared }, sentStatus),
        sent.truncated ? this.#maxErrorBodyBytes : undefined,
        call.redactor,
      );
      await this.#retryOrThrow(
        { kind: 'response', status: response.status, headers: response.headers },
        error,
        call,
        sent.shownUrl,
      );
    }
  }

  /** Waits for the limiter, then the adapter's gate; a deadline that runs out in either says so. */
  async #acquire(call: Call): Promise<(() => void) | undefined> {
    const gate = this.#adapter.sendGate;
    let release: (() => void) | undefined;
    try {
      release = await this.#shared.limiter?.acquire(call.deadline.signal);
      if (!gate) return release;
      const open = await gate.acquire(call.deadline.signal, call.options.timeout ?? this.#timeout);
      return () => {
        open();
        release?.();
      };
    } catch (error) {
      release?.();
      if (call.deadline.expired) throw deadlineError(call, 'queue', error, call.redactor);
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
      headers: buildHeaders(this.#adapter, this.#headers, body?.contentType, options),
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
    const before = { search: prepared.url.search, headers: new Map(prepared.headers) };
    await applyAuth(this.#auth, prepared, this.#redactor);
    const derived = derivedSecrets(before, prepared);
    // From the call's redactor: a later Location or error may echo an earlier attempt's signature.
    if (derived.length > 0) call.redactor = call.redactor.derive(derived);
    // Redacting the URL costs a few microseconds; only pay for it when a hook or a log line shows it.
    let shown: string | undefined;
    const shownUrl = () => (shown ??= showUrl(prepared.url, call.redactor));
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
        maxResponseBytes: options.maxResponseBytes ?? this.#maxResponseBytes,
        agent: this.#agent,
        attempt: attemptLabel(call),
      });
      return {
        kind: 'sent',
        prepared,
        shownUrl,
        ...result,
        durationMs: Math.round(performance.now() - sentAt),
      };
    } catch (error) {
      return { kind: 'failed', prepared, shownUrl, error: namingTlsOption(error, this.#adapter.tlsOption) };
    }
  }

  #retryOrThrow(outcome: AttemptOutcome, error: Error, call: Call, url: () => string): Promise<void> {
    const { budget } = this.#shared;
    return retryOrThrow(
      { budget, logger: this.logger, hooks: this.#hooks, redactor: call.redactor },
      outcome,
      error,
      call,
      url,
    );
  }

  toJSON(): Record<string, unknown> {
    return { baseURL: this.baseURL, auth: this.#auth?.kind };
  }
}

async function resolveSpec<S>(source: SpecSource<S>): Promise<S> {
  return typeof source === 'function' ? (source as () => S | PromiseLike<S>)() : source;
}
