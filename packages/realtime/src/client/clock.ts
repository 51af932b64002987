/** Time as the connection sees it; injected so unit tests drive every timer by hand. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A named timer slot: setting it again replaces the pending one, so no timer is ever leaked. */
export class Timer {
  private handle: unknown = null;
  constructor(private readonly clock: Clock) {}

  set(ms: number, callback: () => void): void {
    this.clear();
    this.handle = this.clock.setTimeout(() => {
      this.handle = null;
      callback();
    }, ms);
  }

  clear(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  get pending(): boolean {
    return this.handle !== null;
  }
}
