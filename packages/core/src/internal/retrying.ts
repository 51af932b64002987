import type { Hooks } from '../options.js';
import type { RateLimiter } from '../rate-limit.js';
import {
  type AttemptOutcome,
  decideRetry,
  type RetryBudget,
  type RetryOptions,
  serverBackoffMs,
} from '../retry.js';
import { type CallState, deadlineError } from './failures.js';
import type { Redactor } from './redact.js';

/** What the retry step needs of a call beyond its deadline state. */
export interface RetryingCall extends CallState {
  retry: RetryOptions;
  started: number;
  /** An idempotency key or an explicit opt-in makes a non-idempotent method safe to repeat. */
  safeToRepeat: boolean;
}

/** What the retry step uses of the client (the call's own facts are in `RetryContext`, retry.ts). */
export interface RetryHost {
  budget: RetryBudget | undefined;
  logger: { info(message: string): void; warn(message: string): void };
  hooks: Hooks;
  redactor: Redactor;
}

/**
 * Throws `error` unless the policy, the body, the retry budget and the call's deadline all allow another
 * attempt; then waits for the backoff (cut short by the caller's signal or the deadline).
 */
export async function retryOrThrow(
  host: RetryHost,
  outcome: AttemptOutcome,
  error: Error,
  call: RetryingCall,
  url: () => string,
): Promise<void> {
  const now = Date.now();
  const decision = decideRetry(outcome, {
    method: call.target.method,
    retryIndex: call.retries,
    safeToRepeat: call.safeToRepeat,
    elapsedMs: now - call.started,
    now,
    options: call.retry,
  });
  if (!decision.retry) throw error;
  const body = call.target.body;
  if (body?.kind === 'stream' && !body.stream.retryable) {
    error.message += ` (not retried: the body was a one-shot stream; pass streamBody(() => stream) or fileBody(path) to allow retries)`;
    throw error;
  }
  const timedOut = outcome.kind === 'connection' && outcome.timedOut;
  if (host.budget && !host.budget.trySpend(timedOut)) {
    host.logger.warn(
      'Retry budget exhausted: failing fast instead of retrying (the service looks unhealthy).',
    );
    throw error;
  }
  if (decision.delayMs >= call.deadline.remaining())
    throw deadlineError(call, 'backoff', error, host.redactor);
  const { method } = call.target;
  await host.hooks.beforeRetry?.({
    method,
    url: url(),
    attempt: call.attempt,
    delayMs: decision.delayMs,
    reason: decision.reason,
    error,
  });
  host.logger.info(
    `retrying ${method} ${url()} in ${decision.delayMs} ms (${decision.reason}; attempt ${call.attempt} failed: ${error.message})`,
  );
  call.retries++;
  try {
    await call.deadline.sleep(decision.delayMs);
  } catch (sleepError) {
    if (call.deadline.expired) throw deadlineError(call, 'backoff', error, host.redactor);
    throw sleepError;
  }
}

/** 429s and exhausted quotas pause the shared limiter, so every request waits, not just this one. */
export function observeServerLimits(
  limiter: RateLimiter | undefined,
  response: Response,
  retry: Pick<RetryOptions, 'baseDelayMs' | 'maxRetryAfterMs'>,
): void {
  if (!limiter) return;
  if (
    response.status !== 429 &&
    !response.headers.has('ratelimit-remaining') &&
    !response.headers.has('x-ratelimit-remaining')
  )
    return;
  const waitMs = serverBackoffMs(response.headers, response.status, Date.now());
  if (waitMs === undefined) {
    if (response.status === 429) pauseQuietly(limiter, Date.now() + retry.baseDelayMs);
    return;
  }
  if (waitMs > 0) pauseQuietly(limiter, Date.now() + Math.min(waitMs, retry.maxRetryAfterMs));
}

/** A user's limiter whose `pause` rejects must not turn a 429 into an unhandled rejection. */
function pauseQuietly(limiter: RateLimiter, untilEpochMs: number): void {
  try {
    // Called synchronously: the in-memory limiter must refuse the very next acquire().
    limiter.pause(untilEpochMs)?.catch(() => {});
  } catch {
    // A limiter that cannot pause still lets this call's own retry logic work.
  }
}
