/**
 * The errors the request loop throws for a server's answer or a call's deadline: each message says what
 * was sent where and why it failed, with every secret the client holds scrubbed out.
 */
import type { PreparedRequest } from '../auth.js';
import { APIError, type ErrorDetails, RedirectError, TimeoutError, XError } from '../errors.js';
import type { ServiceAdapter } from '../options.js';
import { isIdempotentMethod, serverBackoffMs } from '../retry.js';
import type { CallDeadline } from './deadline.js';
import { type Redactor, redactUrl } from './redact.js';
import type { Target } from './redirect.js';
import { clip, defaultErrorDetails } from './wire.js';

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];

/** What the loop knows of a call when the deadline ends it. */
export interface CallState {
  target: Target;
  deadline: CallDeadline;
  /** Sends so far, redirects included. */
  attempt: number;
  /** Retries so far. */
  retries: number;
}

export interface Answer {
  response: Response;
  body: unknown;
  requestId: string | undefined;
  prepared: PreparedRequest;
}

/**
 * The server's request id, as errors and logs show it: the server chooses it, so it may echo a key or
 * carry control characters. Redacted, control characters replaced, clipped.
 */
export function findRequestId(
  headers: Headers,
  names: readonly string[] | undefined,
  redactor: Redactor,
): string | undefined {
  for (const name of names ?? DEFAULT_REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point.
    if (value) return clip(redactor.redact(value).replace(/[\u0000-\u001f\u007f]/g, '?'), 200);
  }
  return undefined;
}

/**
 * The last pass over an error leaving a call: its message and stack lose every secret the call knew,
 * whatever composed them (a transport error quoting a URL, a cause's text).
 */
export function scrubError(error: unknown, redactor: Redactor): unknown {
  if (!(error instanceof XError) || redactor.size === 0) return error;
  const clean = redactor.redact(error.message);
  if (clean !== error.message) error.message = clean;
  // Reading `stack` formats it now, with the clean message; a stack formatted earlier is scrubbed too.
  if (typeof error.stack === 'string') {
    const stack = redactor.redact(error.stack);
    if (stack !== error.stack) error.stack = stack;
  }
  return error;
}

export function showUrl(url: URL, redactor: Redactor): string {
  return redactor.redact(redactUrl(url.toString()));
}

/** `cutAtBytes` is set when the error body was longer than the client keeps. */
export function apiError(
  answer: Answer,
  details: ErrorDetails,
  cutAtBytes: number | undefined,
  redactor: Redactor,
): APIError {
  const { response, prepared } = answer;
  const cut = cutAtBytes === undefined ? undefined : `(error body cut at ${cutAtBytes} bytes)`;
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
      message: redactor.redact(message),
      requestId: answer.requestId,
      headers: redactor.redactHeaders(response.headers),
      body: redactor.redactDeep(answer.body),
      method: prepared.method,
      url: showUrl(prepared.url, redactor),
      retryAfterMs: serverBackoffMs(response.headers, response.status, Date.now()),
    },
    details.errorClass,
  );
}

/**
 * A 2xx whose body carries an error status (`ServiceAdapter.statusInBody`) becomes a response with that
 * status, for the hooks, the retry decision and the error alike. Returns the status the server sent.
 */
export function statusFromBody(
  sent: { response: Response; text: string; stream: unknown },
  adapter: Pick<ServiceAdapter, 'statusInBody'>,
): number | undefined {
  const { response } = sent;
  const status = response.ok && !sent.stream ? adapter.statusInBody?.(sent.text, response) : undefined;
  if (status === undefined) return undefined;
  sent.response = new Response(sent.text, { status, headers: response.headers });
  return response.status;
}

/**
 * What the service's `parseError` (or the generic reading) says of an error answer, plus a note when the
 * status came from the body of a 2xx (see `statusFromBody`), so the error does not look invented.
 */
export function errorDetails(
  adapter: Pick<ServiceAdapter, 'parseError'>,
  { response, body, prepared }: Pick<Answer, 'response' | 'body' | 'prepared'>,
  sentStatus: number | undefined,
): ErrorDetails {
  const details = adapter.parseError?.(body, response, prepared) ?? defaultErrorDetails(body, response);
  if (sentStatus === undefined) return details;
  const note = `(the server answered HTTP ${sentStatus} with this error in its body)`;
  return { ...details, hint: details.hint ? `${details.hint} ${note}` : note };
}

export function redirectError(
  answer: Answer,
  redirect: { why: string; location: URL | undefined; advice?: string | undefined },
  redactor: Redactor,
): RedirectError {
  const { response, prepared } = answer;
  const location = redirect.location ? showUrl(redirect.location, redactor) : undefined;
  const to = location ? ` to ${location}` : '';
  const advice = redirect.advice ? ` ${redirect.advice}` : '';
  const url = showUrl(prepared.url, redactor);
  return new RedirectError({
    status: response.status,
    code: 'redirect_refused',
    message: `${prepared.method} ${url} was redirected${to}; not followed because ${redirect.why}.${advice}`,
    requestId: answer.requestId,
    headers: redactor.redactHeaders(response.headers),
    body: redactor.redactDeep(answer.body),
    method: prepared.method,
    url,
    location,
  });
}

export function deadlineError(
  call: CallState,
  phase: 'queue' | 'attempt' | 'backoff',
  cause: unknown,
  redactor: Redactor,
): TimeoutError {
  const where = `${call.target.method} ${showUrl(call.target.url, redactor)}`;
  const during =
    phase === 'queue'
      ? 'while waiting for a rate-limit slot'
      : phase === 'attempt'
        ? `during attempt ${call.attempt}`
        : `before retry ${call.retries + 1} (its backoff would end past the deadline)`;
  const last = phase === 'backoff' && cause instanceof Error ? `; last error: ${cause.message}` : '';
  return new TimeoutError(
    redactor.redact(`Call exceeded totalTimeout of ${call.deadline.totalMs} ms ${during}: ${where}${last}`),
    { cause, timeout: 'total', phase },
  );
}

/**
 * `attempt 3 of 3` tells a timeout on the last try from one that will be retried. A method that may
 * already have been processed is not repeated after a timeout, so "of 3" would promise a retry.
 */
export function attemptLabel(
  call: CallState & { safeToRepeat: boolean; retry: { maxRetries: number } },
): string {
  const number = call.retries + 1;
  const { method } = call.target;
  if (call.safeToRepeat || isIdempotentMethod(method))
    return `attempt ${number} of ${call.retry.maxRetries + 1}`;
  return `attempt ${number}; a ${method} that timed out is not repeated without an idempotency key`;
}
