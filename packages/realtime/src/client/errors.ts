/**
 * The client's errors, minted without importing @x/core: core's entry drags about 630 bytes (gzip) of
 * module-level code into a browser bundle even when only its error classes are used (its shared chunk has
 * statements esbuild cannot prove pure), which the 8 KB budget of the client cannot carry. ky stays out
 * either way. These classes follow core's brand protocol (`Symbol.for('@x/core/error-brands')`, the
 * mechanism core uses so two loaded copies agree), so `error instanceof RealtimeError` and
 * `error instanceof XError` hold with core's classes as well as with these; a unit test keeps the two in step.
 */
import type { Log } from './log.js';

const BRANDS = Symbol.for('@x/core/error-brands');

function brand(error: Error, brands: string[], name: string): void {
  Object.defineProperty(error, BRANDS, { value: Object.freeze(brands), enumerable: false });
  Object.defineProperty(error, 'name', { value: name, enumerable: false, writable: true });
}

function hasBrand(value: unknown, name: string): boolean {
  const brands = (value as { [BRANDS]?: unknown } | null)?.[BRANDS];
  return Array.isArray(brands) && brands.includes(name);
}

/** An error's message, or the thrown value as a string. */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A failed subscription or signin, logged: the message says why, and which HTTP status the endpoint answered. */
export function failure(
  log: Log,
  what: string,
  data: { error: string; status?: number | undefined },
): RealtimeError {
  const error = new RealtimeError(
    `${what} failed${data.status === undefined ? '' : ` (HTTP ${data.status})`}: ${data.error}`,
    { cause: data },
  );
  log('warn', error.message);
  return error;
}

/** A protocol error (`pusher:error` code), a refused connection (close code), or a failed subscription or signin. */
export class RealtimeError extends Error {
  readonly code: number | undefined;
  readonly closeCode: number | undefined;

  constructor(message: string, init?: { code?: number; closeCode?: number; cause?: unknown }) {
    super(message, init?.cause === undefined ? undefined : { cause: init.cause });
    brand(this, ['RealtimeError', 'XError'], 'RealtimeError');
    this.code = init?.code;
    this.closeCode = init?.closeCode;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, 'RealtimeError');
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, code: this.code, closeCode: this.closeCode };
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** Input refused before anything was sent: a channel or event name, client event data, an option. */
export class ValidationError extends Error {
  readonly issues: readonly ValidationIssue[];

  constructor(what: string, issues: readonly ValidationIssue[]) {
    super(
      `Invalid ${what}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    brand(this, ['ValidationError', 'XError'], 'ValidationError');
    this.issues = issues;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, 'ValidationError');
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, issues: this.issues };
  }
}
