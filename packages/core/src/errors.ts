import { ValidationError, type ValidationIssue, XError, type XErrorOptions } from './base/errors.js';
import { redactUrl } from './internal/redact.js';

/** The root, `ValidationError` and `RealtimeError` are `base/errors.ts`'s, which `@x/core/base` carries. */
export {
  RealtimeError,
  ValidationError,
  type ValidationIssue,
  XError,
  type XErrorOptions,
} from './base/errors.js';

/** What a service package tells core about one failed response, read from its own error body. */
export interface ErrorDetails {
  code?: string | undefined;
  message?: string | undefined;
  /** Appended to the message: service-specific advice (e.g. the store's anonymous-401 causes). */
  hint?: string | undefined;
  /** The class to throw, where the code says more than the status (defaults to the status's class). */
  errorClass?: (new (init: APIErrorInit) => APIError) | undefined;
}

export interface APIErrorInit {
  status: number;
  code?: string | undefined;
  message: string;
  requestId?: string | undefined;
  headers: Headers;
  body: unknown;
  method?: string | undefined;
  url?: string | undefined;
}

export class APIError extends XError {
  static override readonly brand: string = 'APIError';
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly headers: Headers;
  readonly body: unknown;
  readonly method: string | undefined;
  /** The request URL with credentials in userinfo and secret query parameters removed. */
  readonly url: string | undefined;

  constructor(init: APIErrorInit) {
    super(formatAPIErrorMessage(init));
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
    this.method = init.method;
    this.url = init.url === undefined ? undefined : redactUrl(init.url);
  }

  /** Picks the subclass for a status so that `catch (e) { if (e instanceof NotFoundError) ... }` works. */
  static from(
    init: APIErrorInit & { retryAfterMs?: number | undefined },
    errorClass?: new (init: APIErrorInit) => APIError,
  ): APIError {
    if (errorClass) return new errorClass(init);
    const { status } = init;
    if (status === 400) return new BadRequestError(init);
    if (status === 401) return new AuthenticationError(init);
    if (status === 403) return new PermissionDeniedError(init);
    if (status === 404) return new NotFoundError(init);
    if (status === 409) return new ConflictError(init);
    if (status === 422) return new UnprocessableEntityError(init);
    if (status === 429) return new RateLimitError({ ...init, retryAfterMs: init.retryAfterMs });
    if (status >= 500) return new InternalServerError(init);
    return new APIError(init);
  }

  override toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      method: this.method,
      url: this.url,
    };
  }
}

function formatAPIErrorMessage(init: APIErrorInit): string {
  const head = init.code ? `${init.status} ${init.code}: ${init.message}` : `${init.status} ${init.message}`;
  return init.requestId ? `${head} (request_id=${init.requestId})` : head;
}

export class BadRequestError extends APIError {
  static override readonly brand: string = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  static override readonly brand: string = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  static override readonly brand: string = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  static override readonly brand: string = 'NotFoundError';
}
export class ConflictError extends APIError {
  static override readonly brand: string = 'ConflictError';
}
export class UnprocessableEntityError extends APIError {
  static override readonly brand: string = 'UnprocessableEntityError';
}
export class InternalServerError extends APIError {
  static override readonly brand: string = 'InternalServerError';
}
export class RateLimitError extends APIError {
  static override readonly brand: string = 'RateLimitError';
  /** How long the server asked us to wait (from `Retry-After` or `RateLimit-Reset`), if it said. */
  readonly retryAfterMs: number | undefined;
  constructor(init: APIErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}

/**
 * The server redirected somewhere core will not send credentials (another origin, plain HTTP, a hidden
 * browser redirect) or redirected too often. `location` is the target with credentials removed.
 */
export class RedirectError extends APIError {
  static override readonly brand: string = 'RedirectError';
  readonly location: string | undefined;
  constructor(init: APIErrorInit & { location?: string | undefined }) {
    super(init);
    this.location = init.location === undefined ? undefined : redactUrl(init.location);
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), location: this.location };
  }
}

export class ConnectionError extends XError {
  static override readonly brand: string = 'ConnectionError';
  /** True when the connection was refused, so the request provably never reached the server. */
  readonly unsent: boolean;
  constructor(message: string, options?: XErrorOptions & { unsent?: boolean }) {
    super(message, options);
    this.unsent = options?.unsent ?? false;
  }
}

/**
 * Which clock ran out: one attempt's `timeout`, the streamed transfer's `idleTimeout`, or the whole call's
 * `totalTimeout` (then `phase` says where the call was: waiting for a rate-limit slot, in an attempt, or
 * sleeping before a retry).
 */
export type TimeoutKind = 'attempt' | 'idle' | 'total';
export type CallPhase = 'queue' | 'attempt' | 'backoff';

export class TimeoutError extends ConnectionError {
  static override readonly brand: string = 'TimeoutError';
  readonly timeout: TimeoutKind;
  readonly phase: CallPhase;
  constructor(
    message: string,
    options?: XErrorOptions & { unsent?: boolean; timeout?: TimeoutKind; phase?: CallPhase },
  ) {
    super(message, options);
    this.timeout = options?.timeout ?? 'attempt';
    this.phase = options?.phase ?? 'attempt';
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, timeout: this.timeout, phase: this.phase };
  }
}

/**
 * A successful response's body is larger than `maxResponseBytes`: the read stopped there (or never began,
 * when `content-length` said so), so one oversized answer cannot take the process's memory. Not retried.
 */
export class ResponseTooLargeError extends XError {
  static override readonly brand: string = 'ResponseTooLargeError';
  /** The `maxResponseBytes` in force. */
  readonly limit: number;
  constructor(message: string, options: XErrorOptions & { limit: number }) {
    super(message, options);
    this.limit = options.limit;
  }
}

export class AbortError extends XError {
  static override readonly brand: string = 'AbortError';
}

/**
 * A file body could not be read (missing, unreadable, a directory). Raised before anything is sent; a
 * `ValidationError` too, since the input named a file that is not there.
 */
export class FileError extends ValidationError {
  static override readonly brand: string = 'FileError';
  readonly path: string;
  /** The system's code, e.g. `ENOENT`, `EACCES`, `EISDIR`. */
  readonly code: string | undefined;
  constructor(path: string, reason: string, options?: { code?: string | undefined; cause?: unknown }) {
    super('file body', [{ path: 'path', message: `cannot read ${JSON.stringify(path)}: ${reason}` }]);
    this.message = `Cannot read file ${JSON.stringify(path)}: ${reason}. Nothing was sent.`;
    this.path = path;
    this.code = options?.code;
    if (options?.cause !== undefined)
      Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false, writable: true });
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), path: this.path, code: this.code };
  }
}

/** The request succeeded but the body did not have the shape we expected. */
export class ResponseValidationError extends XError {
  static override readonly brand: string = 'ResponseValidationError';
  readonly issues: readonly ValidationIssue[];
  readonly requestId: string | undefined;
  readonly status: number;
  /** The raw body as received (parsed JSON, or text when it was not JSON). */
  readonly body: unknown;
  constructor(init: {
    issues: readonly ValidationIssue[];
    requestId?: string | undefined;
    status: number;
    body: unknown;
    what?: string;
  }) {
    const list = init.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    const suffix = init.requestId ? ` (request_id=${init.requestId})` : '';
    super(`Unexpected response body${init.what ? ` for ${init.what}` : ''}: ${list}${suffix}`);
    this.issues = init.issues;
    this.requestId = init.requestId;
    this.status = init.status;
    this.body = init.body;
  }
  override toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      requestId: this.requestId,
      issues: this.issues,
    };
  }
}

/**
 * Auto-pagination stopped because the server linked back to a page it had already served (a repeated
 * `prev_url` or cursor) or served the same items again: following it would never end. `cursor` is the
 * repeated link with credentials removed.
 */
export class PaginationError extends ResponseValidationError {
  static override readonly brand: string = 'PaginationError';
  readonly cursor: string;
  constructor(init: { cursor: string; reason: string; requestId?: string | undefined; status: number }) {
    super({
      issues: [{ path: '', message: init.reason }],
      requestId: init.requestId,
      status: init.status,
      body: undefined,
    });
    this.message = `Pagination stopped: ${init.reason}${init.requestId ? ` (request_id=${init.requestId})` : ''}`;
    this.cursor = init.cursor;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), cursor: this.cursor };
  }
}

/**
 * Some items of a batch failed although the request as a whole succeeded (WooCommerce answers 200 and
 * puts per-item errors in place). `result` holds every item, successes included.
 */
export class BatchError extends XError {
  static override readonly brand: string = 'BatchError';
  readonly failures: readonly unknown[];
  readonly result: unknown;
  constructor(message: string, failures: readonly unknown[], result: unknown) {
    super(message);
    this.failures = failures;
    this.result = result;
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, failures: this.failures };
  }
}

/** The client-side limiter refused to queue a request (queue full, or it would have waited too long). */
export class RateLimitQueueError extends XError {
  static override readonly brand: string = 'RateLimitQueueError';
  readonly reason: 'queue_full' | 'wait_timeout';
  constructor(reason: 'queue_full' | 'wait_timeout', message: string) {
    super(message);
    this.reason = reason;
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, reason: this.reason };
  }
}

/**
 * The shared limiter's store (Redis) could not be reached or failed, so the limiter could not count: the
 * request was not sent and is safe to retry.
 */
export class RateLimitStoreError extends XError {
  static override readonly brand: string = 'RateLimitStoreError';
  /** The limiter's `key` option. */
  readonly key: string;
  /** Which Redis, e.g. `redis://10.0.0.5:6379/2` or `cluster`; never a user name or password. */
  readonly store: string;
  constructor(message: string, init: { key: string; store: string; cause: unknown }) {
    super(message, { cause: init.cause });
    this.key = init.key;
    this.store = init.store;
  }
  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, key: this.key, store: this.store };
  }
}
