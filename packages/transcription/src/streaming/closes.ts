import { ConnectionError, TimeoutError, ValidationError } from '@x/core';
import type { SocketClose } from '@x/core/socket';
import { closeError, StreamingError } from './errors.js';

/** The reason the reconnecting socket gives a socket that never reached `Begin` in time. */
const CONNECT_TIMEOUT = 'connect timeout';

/**
 * The error a socket's end stands for. Before `Begin`: a timeout is a `TimeoutError`, a socket that failed
 * at the network level (refused, reset, TLS) a `ConnectionError` with the cause `ws` gave; a close with a
 * code the service chose maps through the closures table, as it does after `Begin`.
 */
export function socketEndError(
  close: SocketClose,
  context: { wasConnected: boolean; errorEvent: unknown },
  serviceError: { code?: number | undefined; text?: string | undefined } | undefined,
  session: { id: string | undefined; connectTimeoutMs: number },
  redact: (text: string) => string,
): StreamingError | ConnectionError {
  if (close.code === 1006 && close.reason === CONNECT_TIMEOUT && !serviceError) {
    return new TimeoutError(`no Begin from the streaming service within ${session.connectTimeoutMs} ms`, {
      unsent: true,
    });
  }
  if (close.code === 1006 && !serviceError) {
    const cause =
      (context.errorEvent as { error?: unknown } | null)?.error ?? context.errorEvent ?? undefined;
    const detail = cause instanceof Error ? `: ${redact(cause.message)}` : '';
    const where = context.wasConnected ? 'during the session' : 'before Begin';
    const why = close.reason ? ` (${close.reason})` : '';
    return new ConnectionError(`the streaming socket closed abnormally${why} ${where}${detail}`, {
      cause,
      unsent: !context.wasConnected,
    });
  }
  return closeError(close.code, close.reason, serviceError, session.id, redact);
}

/** The error a failed `url()` or `factory()` stands for: its own when typed, else a `StreamingError`. */
export function openError(error: unknown, redact: (text: string) => string): Error {
  if (error instanceof ValidationError || error instanceof StreamingError) return error;
  return new StreamingError(`could not open the streaming socket: ${redact(String(error))}`, {
    cause: error,
  });
}

/** Removes each secret from a text the service or the network produced. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const found = secrets.filter((s) => s.length >= 4);
  return (text) => found.reduce((out, secret) => out.split(secret).join('[REDACTED]'), text);
}

/** setTimeout's largest delay (~24.8 days). */
const MAX_DELAY_MS = 2_147_483_647;

/** How a wait for `Termination` ended. */
export type TerminationOutcome = 'done' | 'timeout' | 'lost';

/** One wait for `Termination` at a time: it came (or the transcriber ended), it timed out, or the session dropped. */
export class TerminationWait {
  #settle: ((outcome: TerminationOutcome) => void) | undefined;

  /** `timeoutMs`: Infinity waits as long as it takes; past setTimeout's range it is cut to that range. */
  wait(timeoutMs: number): Promise<TerminationOutcome> {
    return new Promise((resolve) => {
      // Runtimes fire a timer past 2^31 - 1 ms after 1 ms, which would give up on Termination at once.
      const ms = timeoutMs > 0 ? Math.min(timeoutMs, MAX_DELAY_MS) : 0;
      const timer =
        timeoutMs === Number.POSITIVE_INFINITY ? undefined : setTimeout(() => this.settle('timeout'), ms);
      this.#settle = (outcome) => {
        clearTimeout(timer);
        this.#settle = undefined;
        resolve(outcome);
      };
    });
  }

  get waiting(): boolean {
    return this.#settle !== undefined;
  }

  settle(outcome: TerminationOutcome): void {
    this.#settle?.(outcome);
  }
}
