import {
  AbortError,
  APIError,
  APIPromise,
  type BaseClient,
  DEFAULT_RETRY,
  decideRetry,
  jsonValueIssue,
  PagePromise,
  type PageStrategy,
  RateLimitError,
  type RequestSpec,
  type RetryOptions,
  sleepUnlessAborted,
  ValidationError,
  type WithResponse,
} from '@x/core';
import type * as z from 'zod/mini';
import type { CartSession } from './session.js';

/** Spec builders run inside the call, so a bad argument rejects it before anything is sent. */
type Build<S extends z.ZodMiniType> = () =>
  | (RequestSpec<S> & { schema: S })
  | Promise<RequestSpec<S> & { schema: S }>;

/** A nonce the server refused, or one the client did not have yet: the refusal brings a fresh one. */
const NONCE_CODES = new Set(['woocommerce_rest_missing_nonce', 'woocommerce_rest_invalid_nonce']);

/**
 * Sends every Store API call through core's request loop, adding what that loop cannot know: the first
 * cart call holds the others back until it has a token, a `rate_limit_exceeded` answer (HTTP 400, so core
 * does not retry it) is retried by core's own policy as the 429 it means, a nonce refusal is repeated once
 * with the nonce it brought, and no error leaves with the session's token or nonce in it.
 */
export class Caller {
  readonly #client: BaseClient;
  readonly #session: CartSession;
  readonly #retry: RetryOptions;
  /** The client's `totalTimeout`, which a call's own overrides. */
  readonly #totalTimeout: number | undefined;

  constructor(
    client: BaseClient,
    session: CartSession,
    retry: RetryOptions,
    totalTimeout: number | undefined,
  ) {
    this.#client = client;
    this.#session = session;
    this.#retry = retry;
    this.#totalTimeout = totalTimeout;
  }

  get session(): CartSession {
    return this.#session;
  }

  request<S extends z.ZodMiniType>(build: Build<S>, cart: boolean): APIPromise<z.infer<S>> {
    return new APIPromise(this.#run(build, cart));
  }

  list<T>(build: () => RequestSpec, strategy: PageStrategy<T>): PagePromise<T> {
    const first = Promise.resolve().then(build);
    return new PagePromise<T>(
      (spec) => this.#run(() => spec as RequestSpec<z.ZodMiniType> & { schema: z.ZodMiniType }, false),
      first,
      strategy,
      1,
      (text) => this.#session.secrets.redact(this.#client.redact(text)),
    );
  }

  /** Built again for each of its own retries, so a batch's sub-requests carry the newest session. */
  async #run<S extends z.ZodMiniType>(build: Build<S>, cart: boolean): Promise<WithResponse<z.infer<S>>> {
    const release = cart ? await this.#session.claim() : undefined;
    const started = Date.now();
    let nonceRetried = false;
    try {
      for (let retries = 0; ; ) {
        const spec = await build();
        // A value JSON cannot carry (a BigInt in a free-form field) is refused here, not by JSON.stringify.
        const issue = spec.body === undefined ? undefined : jsonValueIssue(spec.body, 'body', 64);
        if (issue) throw new ValidationError(`${spec.what ?? 'request'} input`, [issue]);
        const { nonce, lastToken } = this.#session;
        try {
          return await this.#client.request(this.#withinTotal(spec, started)).withResponse();
        } catch (error) {
          if (!(error instanceof APIError)) throw error;
          // The refusal brought a nonce, or a Cart-Token (which stands in for it; a browser page on another
          // origin can read only the token, CORS exposing no `Nonce`): the call is repeated once with it.
          const renewed = this.#session.nonce !== nonce || this.#session.lastToken !== lastToken;
          if (cart && !nonceRetried && NONCE_CODES.has(error.code ?? '') && renewed) {
            nonceRetried = true;
            continue;
          }
          const delay = this.#rateLimitDelay(error, spec, retries, started);
          if (delay === undefined) throw error;
          retries++;
          await sleepUnlessAborted(
            delay,
            spec.options?.signal,
            () =>
              new AbortError('Request aborted while waiting out the rate limit', {
                cause: spec.options?.signal?.reason,
              }),
          );
        }
      }
    } catch (error) {
      throw this.#session.secrets.scrub(error);
    } finally {
      release?.();
    }
  }

  /**
   * How long to wait before repeating a call the Store API's rate limit refused, or undefined to give up:
   * core's own retry policy for a 429, within the call's `totalTimeout`. Core retried a real 429 itself; the
   * Store API's limit answers 400, so only its `RateLimitError` lands here.
   */
  #rateLimitDelay(error: APIError, spec: RequestSpec, retries: number, started: number): number | undefined {
    if (!(error instanceof RateLimitError) || !refusedBeforeRoute(error)) return undefined;
    const { maxRetries, totalTimeout = this.#totalTimeout } = spec.options ?? {};
    const now = Date.now();
    const decision = decideRetry(
      { kind: 'response', status: 429, headers: error.headers },
      {
        method: spec.method,
        retryIndex: retries,
        // Refused in rest_authentication_errors, before the route ran (refusedBeforeRoute): repeating a POST is safe.
        safeToRepeat: true,
        elapsedMs: now - started,
        now,
        options: maxRetries === undefined ? this.#retry : { ...this.#retry, maxRetries },
      },
    );
    if (!decision.retry) return undefined;
    if (totalTimeout !== undefined && now + decision.delayMs >= started + totalTimeout) return undefined;
    return decision.delayMs;
  }

  /** A repeat gets what is left of the call's `totalTimeout`, not a whole one of its own. */
  #withinTotal<S extends RequestSpec>(spec: S, started: number): S {
    const total = spec.options?.totalTimeout ?? this.#totalTimeout;
    const elapsed = Date.now() - started;
    if (total === undefined || elapsed === 0) return spec;
    return { ...spec, options: { ...spec.options, totalTimeout: Math.max(1, total - elapsed) } };
  }
}

/**
 * WooCommerce's own refusal (StoreApi/Authentication.php apply_rate_limiting()): HTTP 400 with
 * `RateLimit-Retry-After`, a header only that refusal sends. The same code in any other answer (a 500, a
 * plugin's RouteException from inside the route, a proxy's page) may come from a route that ran: a checkout
 * repeated then could place a second order.
 */
function refusedBeforeRoute(error: APIError): boolean {
  return error.status === 400 && error.headers.has('ratelimit-retry-after');
}

/** Core's retry settings as the client options give them (`maxRetries` wins over `retry.maxRetries`). */
export function retrySettings(options: {
  maxRetries?: number | undefined;
  retry?: Partial<RetryOptions> | undefined;
}): RetryOptions {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  return options.maxRetries === undefined ? retry : { ...retry, maxRetries: options.maxRetries };
}

/** What the resources need of their client. */
export interface StorefrontContext {
  caller: Caller;
  /** Send input fields the schemas do not know instead of refusing them. */
  allowUnknownFields: boolean;
}
