import type * as z from 'zod/mini';
import type { AuthStrategy, PreparedRequest } from './auth.js';
import type { ErrorDetails } from './errors.js';
import type { Logger, LogLevel } from './log.js';
import type { RateLimiter, RateLimitOptions } from './rate-limit.js';
import type { RetryBudget, RetryOptions } from './retry.js';
import type { FetchLike, Progress } from './transport.js';
import type { ValidationMode } from './validation.js';

/** What a service package tells core about its wire conventions. */
export interface ServiceAdapter {
  /** Package name and version, sent as `User-Agent` outside browsers. */
  packageName: string;
  packageVersion: string;
  /** Response headers that carry the server's request id, most specific first. */
  requestIdHeaders?: readonly string[];
  /**
   * Reads code and message out of the service's error body; may pick the error class from the code
   * (`errorClass`) where the status alone does not tell.
   */
  parseError?(body: unknown, response: Response, request: PreparedRequest): ErrorDetails;
  /** Header the service reads idempotency keys from, if it has one. */
  idempotencyHeader?: string;
  /** Builds the URL of a path under the base URL (e.g. the store's `?rest_route=` form). */
  resolveUrl?(baseURL: string, path: string): URL;
  defaultRateLimit?: RateLimitOptions;
  /**
   * The client option that turns TLS off (`useTLS`): an `https:` URL answered in plain HTTP then fails
   * with a `ConnectionError` saying `set useTLS: false`, instead of the generic `use http://`.
   */
  tlsOption?: string;
  /**
   * For a service that answers some errors with a 2xx status and the real one in the body (soketi sends
   * every HTTP API error as `200 {"error":"…","code":401}`): given a successful, non-streamed response and
   * its text, the status it really carries, or undefined. Core then treats the answer as that error on
   * every path (hooks, retries, the typed error, whose message says the server answered 2xx). Runs on
   * every such response, so keep it cheap for bodies that are not errors.
   */
  statusInBody?(text: string, response: Response): number | undefined;
  /**
   * A concurrency gate every attempt passes after the rate limiter, held until the attempt's body is read
   * or it fails (a per-client adapter carries it). `acquire` waits at most `timeoutMs`, the attempt's
   * `timeout`, and rejects (leaving the queue) when `signal` aborts; its rejection ends the call unsent.
   */
  sendGate?: { acquire(signal: AbortSignal | undefined, timeoutMs: number): Promise<() => void> };
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
  /** Per-attempt timeout in ms (headers and body; for a streamed upload, from its end). Default 60 000. */
  timeout?: number | undefined;
  /**
   * Whole-call deadline in ms: rate-limit queue, every attempt and every backoff sleep together. Default
   * none. When it runs out the call fails with `TimeoutError` (`timeout: 'total'`, `phase` says where).
   */
  totalTimeout?: number | undefined;
  /** Streamed uploads and downloads fail after this many ms without a byte moving. Default 60 000. */
  idleTimeout?: number | undefined;
  /** Shorthand for `retry.maxRetries`. Default 2. */
  maxRetries?: number | undefined;
  retry?: Partial<RetryOptions> | undefined;
  /** Client-side limit, a shared limiter (e.g. `RedisRateLimiter`), or `false` for none. */
  rateLimit?: RateLimitOptions | RateLimiter | false | undefined;
  /** A retry budget shared by every call of this client; `false` disables it. */
  retryBudget?: RetryBudget | false | undefined;
  /**
   * Your own `fetch` (a proxy or private-CA `dispatcher`, a test double): every request then goes through
   * ky over it, in every runtime. Without it, Node sends ordinary requests over its native path (undici)
   * and other runtimes use ky over the global `fetch`.
   */
  fetch?: FetchLike | undefined;
  /**
   * Node only: an `http(s).Agent` (private CA, proxy agent, socket options). Given one, every request of
   * the client, ordinary and streamed, goes over `node:http(s)` with it. Ignored when `fetch` is given,
   * except for streamed uploads, which always take node:http in Node.
   */
  agent?: unknown;
  /** Error bodies are kept up to this many bytes (and messages to 2 000 characters). Default 65 536. */
  maxErrorBodyBytes?: number | undefined;
  /**
   * A successful body larger than this fails with `ResponseTooLargeError` instead of being read whole
   * (a `content-length` above it fails before reading). Default 104 857 600 (100 MiB). Not applied to
   * `responseType: 'stream'` downloads, which the caller reads.
   */
  maxResponseBytes?: number | undefined;
  logger?: Logger | undefined;
  /** Default `warn`. */
  logLevel?: LogLevel | undefined;
  hooks?: Hooks | undefined;
  /** Default `strict`. */
  validateResponses?: ValidationMode | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** Per attempt, ms. */
  timeout?: number | undefined;
  /** Whole call, ms: queue, attempts and backoff together. */
  totalTimeout?: number | undefined;
  idleTimeout?: number | undefined;
  maxRetries?: number | undefined;
  /** This call's `maxResponseBytes` (e.g. raised for one known-large export). */
  maxResponseBytes?: number | undefined;
  /** Sent in the service's idempotency header, and makes a POST safe to retry. */
  idempotencyKey?: string | undefined;
  /** Declares a non-idempotent request safe to repeat (the caller knows the server dedupes). */
  retryNonIdempotent?: boolean | undefined;
  headers?: Record<string, string> | undefined;
  /** Upload progress of a stream, file or Blob body. `total` is undefined when the length is unknown. */
  onProgress?: ((progress: Progress) => void) | undefined;
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
  /**
   * Plain objects are sent as JSON; `FormData`, `URLSearchParams`, `Blob`, bytes and strings as they are;
   * `streamBody()`, `fileBody()`, a `ReadableStream` or a Node `Readable` stream.
   */
  body?: unknown;
  schema?: S | undefined;
  /** `stream`: a successful response's body is returned unread, as a `ReadableStream` (downloads). */
  responseType?: 'json' | 'stream' | undefined;
  /** Names the call in errors, e.g. `products.get`. */
  what?: string | undefined;
  options?: RequestOptions | undefined;
}

/** A spec, or a function that builds it (and may wait first, e.g. for a service-specific window). */
export type SpecSource<S> = S | (() => S | PromiseLike<S>);
