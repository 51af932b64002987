/**
 * Time as the SDK's timers see it (sockets, the realtime client, the streaming transcriber), the one `Clock`;
 * injected so unit tests drive every timer by hand. A rate limiter takes `RateLimitClock`: this `now` and an
 * abortable sleep, since it only ever waits for its next slot.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The runtime's own clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** setTimeout's range: runtimes fire a longer delay after 1 ms (Node warns TimeoutOverflowWarning). */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** A named timer slot: setting it again replaces the pending one, so no timer is ever leaked. */
export class Timer {
  private handle: unknown = null;
  constructor(private readonly clock: Clock) {}

  /**
   * Runs `callback` once after `ms`, cancelling whatever this slot held. A delay past setTimeout's range is
   * waited out in steps, so it stays long (a 2^31 ms heartbeat must not ping in a tight loop); Infinity never fires.
   */
  set(ms: number, callback: () => void): void {
    this.clear();
    this.handle = this.clock.setTimeout(
      () => {
        this.handle = null;
        if (ms > MAX_DELAY_MS) this.set(ms - MAX_DELAY_MS, callback);
        else callback();
      },
      Math.min(ms, MAX_DELAY_MS),
    );
  }

  clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  /** True while a callback is scheduled and has not run. */
  get pending(): boolean {
    return this.handle !== null;
  }
}
