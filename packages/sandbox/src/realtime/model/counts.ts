import { KeyedTimers } from './timers.js';

export interface SubscriptionCountThrottle {
  /** From this many subscribers on, a channel is "large": its counts go out at most once per `intervalMs`. */
  largeChannelSubscribers: number;
  intervalMs: number;
}

/**
 * When `pusher_internal:subscription_count` (and its webhook) goes out. Pusher describes the throttle in "How the
 * Pusher team built subscription counting at scale" (https://pusher.com/blog/how-pusher-team-built-subscription-counting-at-scale/):
 * small channels broadcast every change at once; large channels (the post sets presence's 100 members against
 * subscription counts for 100 to 1,000,000) take a 5-second broadcast lock, so a count may arrive late but
 * the channel never hears more than one count per lock. A change made under the lock goes out when it
 * expires (the latest count only), which opens the next lock: at most one broadcast per `intervalMs`.
 */
export class SubscriptionCounts {
  readonly #locks = new KeyedTimers();
  /** Large channels whose count changed under the lock. */
  readonly #dirty = new Set<string>();
  /** Channels whose count changed and is still to be decided on, in order. */
  readonly #queue = new Set<string>();
  #announcing = false;

  constructor(
    private readonly throttle: SubscriptionCountThrottle,
    /** The channel's current size, or undefined once it is gone. */
    private readonly size: (channel: string) => number | undefined,
    private readonly broadcast: (channel: string) => void,
  ) {}

  /**
   * The channel's count changed. A broadcast can close a slow reader, whose leave changes the count again in
   * the middle of the send loop: that change waits for the loop to end and is announced after it, so nobody
   * hears the newer count before the older one (and ends on a count that is no longer true).
   */
  changed(channel: string): void {
    this.#queue.add(channel);
    if (this.#announcing) return;
    this.#announcing = true;
    try {
      for (const next of this.#queue) {
        this.#queue.delete(next);
        this.#decide(next);
      }
    } finally {
      this.#announcing = false;
    }
  }

  #decide(channel: string): void {
    const size = this.size(channel);
    if (size === undefined) return;
    if (this.#locks.has(channel)) {
      this.#dirty.add(channel);
      return;
    }
    if (size >= this.throttle.largeChannelSubscribers) this.#lock(channel);
    this.broadcast(channel);
  }

  #lock(channel: string): void {
    this.#locks.set(channel, this.throttle.intervalMs, () => {
      if (!this.#dirty.delete(channel) || this.size(channel) === undefined) return;
      this.#lock(channel);
      this.broadcast(channel);
    });
  }

  /** The channel was vacated: a later occupant starts with no lock. */
  forget(channel: string): void {
    this.#locks.cancel(channel);
    this.#dirty.delete(channel);
  }

  clear(): void {
    this.#queue.clear();
    this.#locks.clear();
    this.#dirty.clear();
  }
}
