/**
 * The bounds of live calls. Each call holds a streaming session the service bills by the second, a
 * transcript in memory and a stream of realtime events, so every dimension is capped: how many start, how
 * many run at once, how long they last, how fast and how much a tab may relay.
 */
export interface LiveCallLimits {
  /** Live calls started per minute, all tabs together (429 past it). Default 10. */
  startsPerMinute: number;
  /** Live calls open at once (429 past it). Default 3. */
  maxOpen: number;
  /** `max_session_duration_seconds` of each token (60–10800). Default 1800. */
  maxSessionSeconds: number;
  /** `expires_in_seconds` of each token: how long it may wait before opening a session (1–600). Default 60. */
  tokenExpiresSeconds: number;
  /** Tokens one call may ask for: the first and the reconnections' (429 past it). Default 20. */
  tokensPerCall: number;
  /** Relay requests per call per second (429 past it; the page batches turns, so a few suffice). Default 20. */
  relaysPerSecond: number;
  /** Final turns one call keeps (413 past it). Default 2000. */
  maxTurns: number;
  /** Characters one call's final turns hold together (413 past it). Default 200 000. */
  maxTranscriptChars: number;
  /** Least time between two partials pushed to the other tabs, per call (ms). Default 250. */
  partialIntervalMs: number;
  /**
   * A call nobody ended (its tab closed) is ended this long after it started (ms). Default: once its
   * session cannot be running any more (the token's wait and the session's longest life) and 30 s more.
   */
  abandonAfterMs?: number | undefined;
}

export const DEFAULT_LIVE_CALL_LIMITS: LiveCallLimits = {
  startsPerMinute: 10,
  maxOpen: 3,
  maxSessionSeconds: 1800,
  tokenExpiresSeconds: 60,
  tokensPerCall: 20,
  relaysPerSecond: 20,
  maxTurns: 2000,
  maxTranscriptChars: 200_000,
  partialIntervalMs: 250,
};

/**
 * At most `limit` events in any window of `intervalMs` (a log of the last `limit` times). `take` counts an
 * event and answers 0, or refuses it and answers the milliseconds until one would be allowed.
 */
export class SlidingWindow {
  readonly #times: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly intervalMs: number,
  ) {}

  take(now: number): number {
    while (this.#times.length > 0 && this.#times[0]! <= now - this.intervalMs) this.#times.shift();
    if (this.#times.length >= this.limit) return this.#times[0]! + this.intervalMs - now;
    this.#times.push(now);
    return 0;
  }
}
