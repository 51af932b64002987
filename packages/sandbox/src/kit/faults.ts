/** What every injectable fault can be matched on; each emulator adds its own response fields. */
export interface FaultMatch {
  /** How many matching requests it answers. Default 1. */
  times?: number;
  /** HTTP method, case-insensitive. */
  method?: string;
  /** The emulator-relative path: a string must be equal, a RegExp must match. */
  path?: string | RegExp;
}

/**
 * Faults queued by tests, consumed in the order they were injected. Generic over the fault shape so each
 * emulator decides what a fault does (status, body, delay, dropped connection) and where in its pipeline it
 * is taken.
 */
export class FaultQueue<F extends FaultMatch> {
  private entries: { fault: F; remaining: number }[] = [];

  inject(fault: F): void {
    const times = fault.times ?? 1;
    if (times > 0) this.entries.push({ fault, remaining: times });
  }

  /** Consumes one use of the first fault that matches `method` + `path` and `predicate`. */
  take(method: string, path: string, predicate: (fault: F) => boolean = () => true): F | null {
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      const f = entry.fault;
      if (!predicate(f)) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (f.path !== undefined) {
        if (typeof f.path === 'string' ? f.path !== path : !f.path.test(path)) continue;
      }
      entry.remaining -= 1;
      if (entry.remaining <= 0) this.entries.splice(i, 1);
      return f;
    }
    return null;
  }

  clear(): void {
    this.entries = [];
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
