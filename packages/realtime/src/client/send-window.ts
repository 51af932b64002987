/**
 * The pace of client events. Pusher allows 10 client events per second per connection and rejects the
 * excess with `pusher:error` 4301 (closing nothing). A server that counts a sliding second, as the sandbox's
 * emulator does, refuses the 11th event of ANY second, so a token bucket is not enough: 10 at once plus 10
 * more as it refills puts 20 into the first second (measured against the emulator: 12 of a burst of 50
 * refused). This keeps the server's own count on the client: at most `limit` sends in any `windowMs`.
 * The clock is injected for tests.
 */
export class SendWindow {
  /** When each of the last sends went, oldest first; never more than `limit`. */
  private readonly sent: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds until the next send may go, 0 when it may go now. */
  waitMs(): number {
    const now = this.now();
    while (this.sent.length > 0 && (this.sent[0] as number) + this.windowMs <= now) this.sent.shift();
    return this.sent.length < this.limit ? 0 : (this.sent[0] as number) + this.windowMs - now;
  }

  /** Counts one send if one may go now. */
  take(): boolean {
    if (this.waitMs() > 0) return false;
    this.sent.push(this.now());
    return true;
  }
}
