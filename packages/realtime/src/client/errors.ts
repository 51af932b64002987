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

/** Core's `XError` protocol in one small base: the brand list, the name, `instanceof` by brand, `toJSON`. */
class Branded extends Error {
  static brand = '';

  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    const { brand } = new.target as typeof Branded;
    Object.defineProperty(this, BRANDS, { value: Object.freeze([brand, 'XError']) });
    Object.defineProperty(this, 'name', { value: brand, writable: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    const brands = (value as { [BRANDS]?: unknown } | null)?.[BRANDS];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass being tested against, as in core.
    return Array.isArray(brands) && brands.includes(this.brand);
  }

  /** The name, the message and the subclass's own fields (`code`, `closeCode`; `issues`), as core's have. */
  toJSON(): Record<string, unknown> {
    const { name, message } = this;
    return { name, message, ...(this as object) };
  }
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
export class RealtimeError extends Branded {
  static override brand = 'RealtimeError';
  readonly code: number | undefined;
  readonly closeCode: number | undefined;

  constructor(message: string, init?: { code?: number; closeCode?: number; cause?: unknown }) {
    super(message, init?.cause);
    this.code = init?.code;
    this.closeCode = init?.closeCode;
  }
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** Input refused before anything was sent: a channel or event name, client event data, an option. */
export class ValidationError extends Branded {
  static override brand = 'ValidationError';
  readonly issues: readonly ValidationIssue[];

  constructor(what: string, issues: readonly ValidationIssue[]) {
    super(
      `Invalid ${what}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    this.issues = issues;
  }
}
