/** For the limiter unit tests: time that moves only when a test says so, and acquire() calls observed on it. */
import { AbortError } from '../../src/errors.js';
import type { RateLimitClock as Clock, RateLimiter, ReleaseSlot } from '../../src/rate-limit.js';

/** A clock that only moves when told to; `sleep` resolves as `advance` passes its due time. */
export class FakeClock implements Clock {
  #now = 1_700_000_000_000;
  readonly #sleepers: { at: number; resolve(): void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const sleeper = { at: this.#now + ms, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        const index = this.#sleepers.indexOf(sleeper);
        if (index === -1) return; // already woken
        this.#sleepers.splice(index, 1);
        reject(new AbortError('sleep aborted'));
      });
    });
  }

  /** Pending sleeps: the limiter promises at most one. */
  get timers(): number {
    return this.#sleepers.length;
  }

  /** Due time of the only pending sleep. */
  get timerAt(): number | undefined {
    return this.#sleepers[0]?.at;
  }

  /** Moves time forward by `ms`, waking sleepers in due order and letting their callbacks run. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flush();
    for (;;) {
      this.#sleepers.sort((a, b) => a.at - b.at);
      const next = this.#sleepers[0];
      if (!next || next.at > target) break;
      this.#sleepers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
      await flush();
    }
    this.#now = target;
    await flush();
  }
}

export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface Tracked {
  grantedAt?: number;
  release?: ReleaseSlot;
  error?: unknown;
}

/** Acquires and records when the call resolved and its release function (or the error it rejected with). */
export function track(limiter: RateLimiter, clock: FakeClock, signal?: AbortSignal): Tracked {
  const state: Tracked = {};
  limiter.acquire(signal).then(
    (release) => {
      state.grantedAt = clock.now();
      state.release = release;
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}

export const granted = (calls: Tracked[]) => calls.filter((c) => c.grantedAt !== undefined).length;

/** Like `track`, but the request completes the moment it is granted (a zero round-trip). */
export function trackReleasing(limiter: RateLimiter, clock: FakeClock, signal?: AbortSignal): Tracked {
  const state: Tracked = {};
  limiter.acquire(signal).then(
    (release) => {
      state.grantedAt = clock.now();
      release();
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}
