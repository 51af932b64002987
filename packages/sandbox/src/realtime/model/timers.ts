/**
 * Pending actions by key, so one can be found, called off, or run early (`idle()`), and every handle is
 * cleared when the sandbox resets or stops. Handles are unref'd: a pending webhook never keeps a process up.
 */
export class KeyedTimers {
  readonly #pending = new Map<string, { timer: NodeJS.Timeout; run: () => void }>();

  has(key: string): boolean {
    return this.#pending.has(key);
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Runs `run` after `ms`; an action already pending under `key` is replaced. */
  set(key: string, ms: number, run: () => void): void {
    this.cancel(key);
    const timer = setTimeout(() => {
      this.#pending.delete(key);
      run();
    }, ms);
    timer.unref();
    this.#pending.set(key, { timer, run });
  }

  /** Calls off the action under `key`; true when one was pending. */
  cancel(key: string): boolean {
    const entry = this.#pending.get(key);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.#pending.delete(key);
    return true;
  }

  /** Runs every pending action now, in the order they were set. */
  flush(): void {
    const due = [...this.#pending.values()];
    for (const { timer } of due) clearTimeout(timer);
    this.#pending.clear();
    for (const { run } of due) run();
  }

  /** Drops every pending action without running it. */
  clear(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}
