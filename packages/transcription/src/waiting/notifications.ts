/**
 * Webhook notifications handed to the client (`transcripts.notify()`), matched to the waits they end. The
 * client cannot receive a webhook itself; the user's route does, and passes it on. A notification only
 * wakes a wait, which then fetches the transcript from the service: a forged one costs one request and
 * cannot forge a result.
 */

/** Ids notified while nothing waited on them (the webhook beat the submission's answer), kept this long. */
const EARLY_TTL_MS = 10 * 60_000;
/** ...and at most this many, oldest dropped first, so unrelated notifications cannot grow memory. */
const EARLY_MAX = 1_000;

export class Notifications {
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #early = new Map<string, number>();

  /** Calls `wake` when `id` is notified (at once if it already was); returns the unsubscribe. */
  subscribe(id: string, wake: () => void): () => void {
    const at = this.#early.get(id);
    if (at !== undefined && Date.now() - at < EARLY_TTL_MS) {
      this.#early.delete(id);
      queueMicrotask(wake);
      return () => {};
    }
    const set = this.#waiting.get(id) ?? new Set<() => void>();
    this.#waiting.set(id, set);
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.#waiting.get(id) === set) this.#waiting.delete(id);
    };
  }

  /** Wakes every wait on `id`; true when there was one. */
  notify(id: string): boolean {
    const set = this.#waiting.get(id);
    if (!set || set.size === 0) {
      this.#early.delete(id);
      this.#early.set(id, Date.now());
      if (this.#early.size > EARLY_MAX) this.#early.delete(this.#early.keys().next().value!);
      return false;
    }
    this.#waiting.delete(id);
    for (const wake of set) wake();
    return true;
  }
}
