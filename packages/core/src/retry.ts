/**
 * Retry decisions and delays as pure functions of their inputs (attempt, outcome, clock, random), so the
 * policy can be tested without sockets or sleeping. The client's request loop is the only caller.
 */
import { backoffDelay as jitteredDelay } from './base/backoff.js';

export interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff ceiling; doubles per retry (full jitter draws uniformly below it). */
  baseDelayMs: number;
  /** Cap on one backoff delay. */
  maxDelayMs: number;
  /** A server's `Retry-After` is honoured up to this; longer and we give up rather than hang. */
  maxRetryAfterMs: number;
  /** Total time for one call, retries and waits included; no retry starts that would end past it. */
  deadlineMs: number | undefined;
  /** Statuses worth another try. */
  retryStatuses: readonly number[];
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: undefined,
  retryStatuses: [408, 429, 500, 502, 503, 504],
};

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/**
 * Full jitter (AWS architecture blog, "Exponential Backoff and Jitter"): uniform in [0, min(cap, base * 2^n))
 * for retry number `retryIndex` (0 for the first). The one computation is `@x/core/base`'s, which counts
 * from 1 as a reconnecting socket does.
 */
export function backoffDelay(
  retryIndex: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  return jitteredDelay(retryIndex + 1, options, random);
}

/** `Retry-After` as delta-seconds or an HTTP-date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * `RateLimit-Reset` / `X-RateLimit-Reset` are delta-seconds in the IETF draft but epoch seconds at
 * GitHub, WooCommerce's Store API and many gateways: a value larger than a year of seconds can only be
 * an epoch.
 */
function parseReset(value: string | null, now: number): number | undefined {
  if (value == null || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  if (n > 31_536_000) return Math.max(0, n * 1000 - now);
  return Math.ceil(n * 1000);
}

/**
 * How long the server wants everybody to hold off, from any of the headers services use for it.
 * Returns undefined when the response says nothing about it.
 */
export function serverBackoffMs(headers: Headers, status: number, now: number): number | undefined {
  const retryAfter =
    parseRetryAfter(headers.get('retry-after'), now) ??
    parseRetryAfter(headers.get('ratelimit-retry-after'), now) ??
    parseRetryAfter(headers.get('x-ratelimit-retry-after'), now);
  if (retryAfter !== undefined) return retryAfter;
  for (const prefix of ['ratelimit', 'x-ratelimit']) {
    const remaining = headers.get(`${prefix}-remaining`);
    const exhausted = remaining !== null && Number(remaining.trim()) <= 0;
    if (exhausted || status === 429) {
      const reset = parseReset(headers.get(`${prefix}-reset`), now);
      if (reset !== undefined) return reset;
    }
  }
  // Structured `RateLimit: limit=100, remaining=0, reset=30` (draft-ietf-httpapi-ratelimit-headers-07+).
  const combined = headers.get('ratelimit');
  if (combined) {
    const remaining = /(?:^|[,;\s])(?:r|remaining)=(\d+)/.exec(combined)?.[1];
    const reset = /(?:^|[,;\s])(?:t|reset)=(\d+)/.exec(combined)?.[1];
    if (reset !== undefined && (status === 429 || remaining === '0')) return Number(reset) * 1000;
  }
  return undefined;
}

export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Headers }
  | { kind: 'connection'; timedOut: boolean; unsent: boolean };

export interface RetryContext {
  method: string;
  /** Retries already made (0 before the first retry). */
  retryIndex: number;
  /** The caller made a non-idempotent request safe to repeat (idempotency key or explicit opt-in). */
  safeToRepeat: boolean;
  elapsedMs: number;
  now: number;
  options: RetryOptions;
  random?: () => number;
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string };

export function decideRetry(outcome: AttemptOutcome, ctx: RetryContext): RetryDecision {
  const { options } = ctx;
  if (ctx.retryIndex >= options.maxRetries) return { retry: false, reason: 'max retries reached' };
  const repeatable = ctx.safeToRepeat || isIdempotentMethod(ctx.method);
  let delayMs = backoffDelay(ctx.retryIndex, options, ctx.random);
  let reason: string;

  if (outcome.kind === 'response') {
    if (!options.retryStatuses.includes(outcome.status))
      return { retry: false, reason: `status ${outcome.status} is final` };
    // A 429 means the server refused before doing anything, so even a POST can be repeated.
    if (outcome.status !== 429 && !repeatable) {
      return {
        retry: false,
        reason: `${ctx.method} may have been processed; not repeating it without an idempotency key`,
      };
    }
    const asked = serverBackoffMs(outcome.headers, outcome.status, ctx.now);
    if (asked !== undefined) {
      if (asked > options.maxRetryAfterMs) {
        return {
          retry: false,
          reason: `server asked to wait ${asked} ms, more than maxRetryAfterMs ${options.maxRetryAfterMs}`,
        };
      }
      delayMs = Math.max(asked, outcome.status === 429 ? 0 : delayMs);
    }
    reason = `status ${outcome.status}`;
  } else {
    if (!outcome.unsent && !repeatable) {
      return {
        retry: false,
        reason: `${ctx.method} may have reached the server; not repeating it without an idempotency key`,
      };
    }
    reason = outcome.timedOut ? 'timeout' : outcome.unsent ? 'connection refused' : 'connection error';
  }

  if (options.deadlineMs !== undefined && ctx.elapsedMs + delayMs >= options.deadlineMs) {
    return { retry: false, reason: `deadline of ${options.deadlineMs} ms would pass` };
  }
  return { retry: true, delayMs, reason };
}

/**
 * A retry budget (the token-bucket scheme of the AWS SDKs): each retry spends tokens, each success
 * refunds a little. During an outage the budget runs dry and calls fail fast instead of multiplying
 * load on a server that is already down.
 */
export class RetryBudget {
  readonly capacity: number;
  readonly retryCost: number;
  readonly timeoutCost: number;
  readonly successRefund: number;
  #tokens: number;

  constructor(
    options: { capacity?: number; retryCost?: number; timeoutCost?: number; successRefund?: number } = {},
  ) {
    this.capacity = options.capacity ?? 500;
    this.retryCost = options.retryCost ?? 5;
    this.timeoutCost = options.timeoutCost ?? 10;
    this.successRefund = options.successRefund ?? 1;
    this.#tokens = this.capacity;
  }

  get tokens(): number {
    return this.#tokens;
  }

  /** Takes the cost of one retry if the budget has it. */
  trySpend(timedOut: boolean): boolean {
    const cost = timedOut ? this.timeoutCost : this.retryCost;
    if (this.#tokens < cost) return false;
    this.#tokens -= cost;
    return true;
  }

  refund(): void {
    this.#tokens = Math.min(this.capacity, this.#tokens + this.successRefund);
  }
}
