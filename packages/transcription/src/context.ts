/**
 * What the client hands its resources: itself, and its limits beyond core's limiter (windows per model,
 * the polling window, job slots, idempotency keys, what earlier jobs taught). A module of its own, below
 * both the client and the resources, so no resource imports the client that makes it.
 */
import {
  type BaseClient,
  type IdempotencyStore,
  isRateLimiter,
  MemoryIdempotencyStore,
  MemoryRateLimiter,
  parseDuration,
  type RateLimiter,
  type RateLimitOptions,
} from '@x/core';
import type { IdempotencyOptions, TranscriptionClientOptions } from './client-options.js';
import { JobSlots } from './job-slots.js';
import { ProcessingEstimate } from './waiting/estimate.js';
import { Notifications } from './waiting/notifications.js';

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 60, interval: '1m' };

/** The client's own limits beyond core's limiter: windows per model, the polling window, job slots. */
export interface ClientLimits {
  modelLimiters: ReadonlyMap<string, RateLimiter>;
  pollLimiter: RateLimiter | undefined;
  jobSlots: JobSlots;
  idempotency: IdempotencyOptions & { store: IdempotencyStore };
  /** When jobs are likely done, learnt from this client's earlier jobs (clones share it). */
  estimate: ProcessingEstimate;
  /** Waits that a webhook notification (`transcripts.notify()`) can end (clones share them). */
  notifications: Notifications;
  /** The mean ms between two polls that the polling window allows; undefined without one. */
  pollGapMs: number | undefined;
  /** Waits in progress (clones share the count, as they share the polling window). */
  activeWaits: { count: number };
}

/**
 * What the resources share: the client, and the client's limits on models, polling and jobs. The client is
 * typed by its base class, so nothing here imports `client.ts`.
 */
export interface TranscriptionContext extends ClientLimits {
  client: BaseClient<TranscriptionClientOptions>;
  allowUnknownFields: boolean;
}

/**
 * A clone from `withOptions()` shares its parent's limits (the jobs and polls of both count together, as
 * core's limiter does), except those its overrides set anew.
 */
export function clientLimits(
  options: TranscriptionClientOptions,
  inheriting: { limits: ClientLimits; overrides: Partial<TranscriptionClientOptions> } | undefined,
): ClientLimits {
  const changed = (key: keyof TranscriptionClientOptions) => !inheriting || key in inheriting.overrides;
  return {
    modelLimiters: changed('modelRateLimits')
      ? new Map(
          Object.entries(options.modelRateLimits ?? {}).map(([model, rl]) => [
            model,
            new MemoryRateLimiter(rl),
          ]),
        )
      : inheriting!.limits.modelLimiters,
    pollLimiter:
      changed('rateLimit') || changed('pollShare')
        ? pollLimiter(options.rateLimit, options.pollShare ?? 0.5)
        : inheriting!.limits.pollLimiter,
    pollGapMs:
      changed('rateLimit') || changed('pollShare')
        ? pollGapMs(options.rateLimit, options.pollShare ?? 0.5)
        : inheriting!.limits.pollGapMs,
    activeWaits: changed('rateLimit') || changed('pollShare') ? { count: 0 } : inheriting!.limits.activeWaits,
    jobSlots: changed('maxConcurrentJobs')
      ? new JobSlots(options.maxConcurrentJobs ?? 5)
      : inheriting!.limits.jobSlots,
    // A clone keeps its parent's keys, or a key used on both would send twice.
    idempotency: changed('idempotency')
      ? { ...options.idempotency, store: options.idempotency?.store ?? new MemoryIdempotencyStore() }
      : inheriting!.limits.idempotency,
    estimate: inheriting?.limits.estimate ?? new ProcessingEstimate(),
    notifications: inheriting?.limits.notifications ?? new Notifications(),
  };
}

/**
 * Polls get their own window, a share of the client's: many jobs waiting at once then poll less often each,
 * instead of filling the whole window and delaying the next upload or submission behind their polls.
 */
function pollLimiter(
  rateLimit: TranscriptionClientOptions['rateLimit'],
  share: number,
): RateLimiter | undefined {
  if (rateLimit === false || isRateLimiter(rateLimit)) return undefined;
  const base = rateLimit ?? DEFAULT_RATE_LIMIT;
  return new MemoryRateLimiter({ ...base, limit: Math.max(1, Math.floor(base.limit * share)) });
}

/** The polling window's mean gap between polls: each of n waits can poll once per n gaps without queueing. */
function pollGapMs(rateLimit: TranscriptionClientOptions['rateLimit'], share: number): number | undefined {
  if (rateLimit === false || isRateLimiter(rateLimit)) return undefined;
  const base = rateLimit ?? DEFAULT_RATE_LIMIT;
  return parseDuration(base.interval) / Math.max(1, Math.floor(base.limit * share));
}
