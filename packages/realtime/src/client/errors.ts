/**
 * The client's errors are core's own classes, from `@x/core/base` (a few hundred bytes that import nothing:
 * core's root entry would drag module-level code into every browser bundle), so `instanceof` holds against
 * `@x/core`'s and `@x/realtime/server`'s exports, and across the ESM and CJS builds through core's brands.
 */
import { RealtimeError } from '@x/core/base';
import type { Log } from './log.js';

export { RealtimeError, ValidationError, type ValidationIssue } from '@x/core/base';

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
