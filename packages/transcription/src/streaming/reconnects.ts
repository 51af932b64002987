import { type Clock, STABLE_AFTER_MS } from '@x/core/socket';

/** How long a session must last to count as stable: the same threshold as @x/core's `ReconnectingSocket`. */
export const STABLE_SESSION_MS = STABLE_AFTER_MS;

/** What to do about a session that dropped, or an attempt that failed: try again now, later, or stop. */
export type ReconnectStep = 'retry' | 'backoff' | 'give up';

/**
 * `reconnect.maxAttempts` counts consecutive failed attempts. An attempt succeeds only once its session
 * proved stable: it delivered a final turn (the conversation moved on, and the replay with it) or lasted
 * `STABLE_SESSION_MS`. A bare `Begin` is no proof: a service that accepts every session and drops it at
 * once (a crashing backend behind a healthy proxy) would otherwise be reconnected, and replayed to, forever.
 */
export class ReconnectPolicy {
  readonly #maxAttempts: number;
  readonly #clock: Clock;
  /** Attempts since the last stable session that failed: never began, or dropped before proving stable. */
  #failed = 0;
  /** A drop is being recovered from: the sessions begun since are attempts, not yet proven. */
  #recovering = false;
  #beganAt = 0;
  #progressed = false;
  /** When the last session dropped (`Date.now()`), for `reconnected.gapMs`. */
  droppedAt = 0;

  constructor(maxAttempts: number, clock: Clock) {
    this.#maxAttempts = maxAttempts;
    this.#clock = clock;
  }

  /** A session began. */
  began(): void {
    this.#beganAt = this.#clock.now();
    this.#progressed = false;
  }

  /** The session delivered a final turn. */
  progressed(): void {
    this.#progressed = true;
  }

  /**
   * A session that had begun dropped: the first drop after a stable session is retried at once; a session
   * that dropped before proving stable is one more failed attempt.
   */
  dropped(): ReconnectStep {
    this.droppedAt = Date.now();
    const stable = this.#progressed || this.#clock.now() - this.#beganAt >= STABLE_SESSION_MS;
    if (stable || !this.#recovering) {
      this.#recovering = true;
      this.#failed = 0;
      return 'retry';
    }
    return this.failed();
  }

  /** An attempt failed (it never reached `Begin`, or its session was not stable). */
  failed(): Exclude<ReconnectStep, 'retry'> {
    this.#failed += 1;
    return this.#failed >= this.#maxAttempts ? 'give up' : 'backoff';
  }
}
