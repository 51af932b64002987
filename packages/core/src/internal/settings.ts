/**
 * A client's options, checked and resolved once at construction: a wrong option fails here, naming it,
 * instead of as a raw TypeError on the first request. Headers are built here too, so a value that cannot
 * go into a header is a typed, redacted error rather than a `TypeError` that quotes it.
 */
import { type AuthStrategy, composeAuth, type PreparedRequest } from '../auth.js';
import { ValidationError, type ValidationIssue, XError } from '../errors.js';
import { describeType, headerIssues, optionIssues } from '../option-checks.js';
import type { ClientOptions, RequestOptions, ServiceAdapter } from '../options.js';
import { isRateLimiter, MemoryRateLimiter, type RateLimiter, type RateLimitOptions } from '../rate-limit.js';
import { DEFAULT_RETRY, type RetryOptions } from '../retry.js';
import type { Redactor } from './redact.js';

export interface Settings {
  baseURL: string;
  auth: AuthStrategy | undefined;
  headers: Record<string, string>;
  timeout: number;
  totalTimeout: number | undefined;
  idleTimeout: number;
  maxErrorBodyBytes: number;
  maxResponseBytes: number;
  retry: RetryOptions;
}

/**
 * 100 MiB: ten times the largest body the SDKs' services send in practice (a ten-hour transcript with word
 * timings, a 100-item product page with variations), so no real answer meets it, while one runaway or
 * hostile answer stops there instead of growing the heap by three times its size (text, then parsed).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

const LOG_LEVELS = { enum: ['debug', 'info', 'warn', 'error', 'off'] } as const;
const VALIDATION_MODES = { enum: ['strict', 'warn', 'off'] } as const;

/** Every issue of the options at once, so one run shows them all. */
export function checkClientOptions(options: ClientOptions, adapter: ServiceAdapter): void {
  if (typeof options !== 'object' || options === null)
    throw new ValidationError(`${adapter.packageName} client options`, [
      { path: '', message: 'expected an options object' },
    ]);
  const issues: ValidationIssue[] = [
    ...optionIssues(options, {
      baseURL: 'string',
      timeout: 'number',
      totalTimeout: 'number',
      idleTimeout: 'number',
      maxRetries: 'number',
      maxErrorBodyBytes: 'number',
      maxResponseBytes: 'number',
      retry: 'object',
      fetch: 'function',
      logger: 'object',
      logLevel: LOG_LEVELS,
      hooks: 'object',
      validateResponses: VALIDATION_MODES,
    }),
    ...headerIssues(options.headers),
  ];
  // `false` is the one other value these take: "none".
  for (const name of ['rateLimit', 'retryBudget', 'auth'] as const) {
    const value: unknown = options[name];
    if (value === undefined || (value === false && name !== 'auth')) continue;
    if (typeof value === 'object' && value !== null) continue;
    const expected = name === 'auth' ? 'an auth strategy or an array of them' : 'an object or false';
    issues.push({ path: name, message: `expected ${expected}, received ${describeType(value)}` });
  }
  if (typeof options.baseURL === 'string') {
    let url: URL | undefined;
    try {
      url = new URL(options.baseURL);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      issues.push({ path: 'baseURL', message: 'expected an http(s) URL' });
  } else if (options.baseURL === undefined) issues.push({ path: 'baseURL', message: 'is required' });
  if (issues.length > 0) throw new ValidationError(`${adapter.packageName} client options`, issues);
}

export function resolveSettings(options: ClientOptions): Settings {
  const auth = options.auth;
  return {
    baseURL: options.baseURL.replace(/\/+$/, ''),
    auth: Array.isArray(auth) ? composeAuth(...auth) : (auth as AuthStrategy | undefined),
    headers: { ...options.headers },
    timeout: options.timeout ?? 60_000,
    totalTimeout: options.totalTimeout ?? options.retry?.deadlineMs,
    idleTimeout: options.idleTimeout ?? 60_000,
    maxErrorBodyBytes: options.maxErrorBodyBytes ?? 65_536,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    retry: {
      ...DEFAULT_RETRY,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      // The call's deadline is enforced by the loop (it also cuts the queue and the attempt in flight).
      deadlineMs: undefined,
    },
  };
}

export function resolveLimiter(
  option: ClientOptions['rateLimit'],
  fallback: RateLimitOptions | undefined,
): RateLimiter | undefined {
  if (option === false) return undefined;
  if (isRateLimiter(option)) return option;
  const config = (option as RateLimitOptions | undefined) ?? fallback;
  if (!config) return undefined;
  try {
    return new MemoryRateLimiter(config);
  } catch (error) {
    // The limiter's own checks say what is wrong (`Invalid duration undefined: …`); a client option is
    // refused as one, by its name, before any request.
    if (!(error instanceof TypeError)) throw error;
    throw new ValidationError('client options', [{ path: 'rateLimit', message: error.message }]);
  }
}

const IS_BROWSER = typeof (globalThis as { document?: unknown }).document !== 'undefined';

/** The headers of one attempt: defaults, the client's, the call's, the idempotency key. */
export function buildHeaders(
  adapter: ServiceAdapter,
  clientHeaders: Record<string, string>,
  contentType: string | undefined,
  options: RequestOptions,
): Headers {
  const issues = [
    ...headerIssues(options.headers, 'options.headers'),
    ...optionIssues(options, { idempotencyKey: 'string', maxResponseBytes: 'number' }),
  ];
  if (issues.length > 0) throw new ValidationError('request options', issues);
  const headers = new Headers({ accept: 'application/json' });
  if (!IS_BROWSER) headers.set('user-agent', `${adapter.packageName}/${adapter.packageVersion}`);
  if (contentType) setHeader(headers, 'content-type', contentType);
  for (const [name, value] of Object.entries(clientHeaders)) headers.set(name, value);
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (value !== undefined) headers.set(name, value);
  if (options.idempotencyKey && adapter.idempotencyHeader)
    setHeader(headers, adapter.idempotencyHeader, options.idempotencyKey);
  return headers;
}

function setHeader(headers: Headers, name: string, value: string): void {
  try {
    headers.set(name, value);
  } catch {
    throw new ValidationError('request headers', [
      {
        path: name,
        message: 'is not a value an HTTP header can carry (control characters, or beyond ISO-8859-1)',
      },
    ]);
  }
}

/**
 * Runs the auth strategy. A strategy that throws something other than our own errors (a custom signer, a
 * `Headers.set` refusing a value) would put the value it choked on into the message: it becomes an
 * `XError` that names the strategy and keeps the original message only once redacted.
 */
export async function applyAuth(
  auth: AuthStrategy | undefined,
  prepared: PreparedRequest,
  redactor: Redactor,
): Promise<void> {
  if (!auth) return;
  try {
    await auth.apply(prepared);
  } catch (error) {
    if (error instanceof XError) throw error;
    const detail =
      error instanceof TypeError && /header/i.test(error.message)
        ? 'it set a header value that HTTP cannot carry (control characters, or beyond ISO-8859-1)'
        : redactor.redact(String((error as Error)?.message ?? error)).replace(/"[^"]*"/g, '"…"');
    throw new XError(`The ${auth.kind} auth strategy could not prepare the request: ${detail}`);
  }
}
