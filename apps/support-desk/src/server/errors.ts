import { APIError, ConnectionError, TimeoutError, XError } from '@x/store';
import type * as z from 'zod/mini';
import type { ApiErrorBody } from '../shared/api.js';

/** An error the API answers as it is: status, message, optional code and per-field issues. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly issues?: { path: string; message: string }[],
    /** Response headers, e.g. `Retry-After` on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * A request's JSON body, or a 400 `invalid_json`. `empty` is what a blank body means (a route whose every
 * field is optional takes `{}`); without it a blank body is not JSON either.
 */
export async function readJson(request: Request, empty?: unknown): Promise<unknown> {
  const text = await request.text();
  if (empty !== undefined && text.trim() === '') return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not JSON', 'invalid_json');
  }
}

/** Parses `value` with `schema` or throws a 400 that names every bad field. */
export function parseInput<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }));
  throw new HttpError(
    400,
    `invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    'invalid_input',
    issues,
  );
}

/**
 * The JSON body and status for any error. A service's error keeps its message (the SDKs never put a
 * secret in one) behind a 502, so the page can say which service failed and why; anything else is a 500
 * without details, logged on the server.
 */
export function errorResponse(error: unknown): {
  status: number;
  body: ApiErrorBody;
  log: boolean;
  headers?: Record<string, string> | undefined;
} {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      headers: error.headers,
      body: {
        error: {
          message: error.message,
          status: error.status,
          ...(error.code ? { code: error.code } : {}),
          ...(error.issues ? { issues: error.issues } : {}),
        },
      },
      log: error.status >= 500,
    };
  }
  if (error instanceof APIError || error instanceof ConnectionError || error instanceof TimeoutError) {
    const code = error instanceof APIError && error.code ? error.code : undefined;
    return {
      status: 502,
      body: { error: { message: error.message, status: 502, ...(code ? { code: String(code) } : {}) } },
      log: true,
    };
  }
  if (error instanceof XError) {
    return { status: 500, body: { error: { message: error.message, status: 500 } }, log: true };
  }
  return {
    status: 500,
    body: { error: { message: 'Internal error (logged on the server).', status: 500 } },
    log: true,
  };
}

/** A 429 that says when to come back (`Retry-After`, whole seconds, at least 1). */
export function tooMany(message: string, code: string, retryAfterMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, `${message}; retry in ${seconds} s`, code, undefined, {
    'Retry-After': String(seconds),
  });
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
