export interface StatsSnapshot {
  requests: number;
  rateLimited: number;
  /** `performance.now()` of each accepted request, oldest first (the last 100,000). */
  arrivals: number[];
}

const ARRIVALS_CAP = 100_000;

/** Request counters a test reads to check a client's pacing (arrivals) and back-off (rate-limited count). */
export class RequestStats {
  private requests = 0;
  private rateLimited = 0;
  private arrivals: number[] = [];

  countRequest(): void {
    this.requests += 1;
  }

  countRateLimited(): void {
    this.rateLimited += 1;
  }

  recordArrival(t: number): void {
    this.arrivals.push(t);
    // Trim in chunks, not on every push, so a long run stays O(1) per request.
    if (this.arrivals.length > ARRIVALS_CAP + 10_000)
      this.arrivals.splice(0, this.arrivals.length - ARRIVALS_CAP);
  }

  snapshot(): StatsSnapshot {
    return {
      requests: this.requests,
      rateLimited: this.rateLimited,
      arrivals: this.arrivals.slice(-ARRIVALS_CAP),
    };
  }

  reset(): void {
    this.requests = 0;
    this.rateLimited = 0;
    this.arrivals = [];
  }
}
