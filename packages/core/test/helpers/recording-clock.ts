/**
 * For the limiter tests over real time: the system clock, with every timer the limiter arms recorded
 * together with the instant the limiter armed it, and `hold()` so that the limiter reads the very
 * instant the test records (a release then completes exactly when the test says it did). Lets a test
 * check the limiter's decisions (when it chose to wake) instead of how long a busy machine took.
 */
import { systemClock } from '../../src/internal/limiter.js';
import type { RateLimitClock } from '../../src/rate-limit.js';

export interface ArmedTimer {
  /** The limiter's reading of the clock when it armed the timer. */
  from: number;
  /** When the timer is due: `from + ms`. */
  due: number;
}

export class RecordingClock implements RateLimitClock {
  #held: number | undefined;
  /** The last reading handed out: a limiter reads the clock once per call and arms with that reading. */
  #last = Number.NaN;
  readonly timers: ArmedTimer[] = [];
  readonly #onArm: ((timer: ArmedTimer) => void) | undefined;

  /** `onArm` runs synchronously inside the limiter, as the timer is armed. */
  constructor(onArm?: (timer: ArmedTimer) => void) {
    this.#onArm = onArm;
  }

  now(): number {
    this.#last = this.#held ?? systemClock.now();
    return this.#last;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const timer = { from: this.#last, due: this.#last + ms };
    this.timers.push(timer);
    this.#onArm?.(timer);
    return systemClock.sleep(ms, signal);
  }

  /** Runs `fn` with the clock standing still at the current instant, which `fn` receives. */
  hold<T>(fn: (now: number) => T): T {
    const now = systemClock.now();
    this.#held = now;
    try {
      return fn(now);
    } finally {
      this.#held = undefined;
    }
  }
}
