/** The last event published on a cache channel, replayed to each new subscriber until it expires. */
export interface CachedEvent {
  event: string;
  data: string;
  expiresAt: number;
}

export interface ChannelCacheLimits {
  /** Cache channels remembered per app; the oldest write is forgotten first. */
  maxChannels: number;
  /** Their event names, data and channel names together, in UTF-16 code units (about bytes for JSON). */
  maxChars: number;
}

/**
 * Per app. Pusher documents no cap, but an emulator that remembers every cache channel ever written holds
 * memory for good (4,000 channels of 10 KB each: 70 MB of RSS); real apps keep a few hundred cache channels.
 * 1,000 channels of the largest allowed payload (10 KB) is 10 MB at most.
 */
export const CACHE_LIMITS: ChannelCacheLimits = { maxChannels: 1000, maxChars: 10 * 1024 * 1024 };

/**
 * Cache channels keep their last event for 30 minutes on Pusher; `ttlMs` makes that configurable. Entries are
 * kept in write order (a rewrite moves its channel to the end), and with one TTL for all that is also expiry
 * order: so each write first drops the expired entries at the front (amortised constant work: each entry is
 * dropped once), then the oldest ones while the app is over its limits. `now` is the injectable clock.
 */
export class ChannelCache {
  readonly #events = new Map<string, CachedEvent>();
  #chars = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly limits: ChannelCacheLimits = CACHE_LIMITS,
  ) {}

  set(channel: string, event: string, data: string, now = Date.now()): void {
    this.#delete(channel);
    this.#events.set(channel, { event, data, expiresAt: now + this.ttlMs });
    this.#chars += sizeOf(channel, event, data);
    for (const [name, cached] of this.#events) {
      const over = this.#events.size > this.limits.maxChannels || this.#chars > this.limits.maxChars;
      if (!over && cached.expiresAt > now) break;
      if (name === channel) break; // the entry just written stays, even alone over the limits
      this.#delete(name);
    }
  }

  get(channel: string, now = Date.now()): CachedEvent | undefined {
    const cached = this.#events.get(channel);
    if (cached && cached.expiresAt <= now) {
      this.#delete(channel);
      return undefined;
    }
    return cached;
  }

  /** Channels remembered now (expired ones included until a write or a read drops them). */
  get size(): number {
    return this.#events.size;
  }

  /** What the remembered entries hold, in the units of `maxChars`. */
  get chars(): number {
    return this.#chars;
  }

  clear(): void {
    this.#events.clear();
    this.#chars = 0;
  }

  #delete(channel: string): void {
    const cached = this.#events.get(channel);
    if (!cached) return;
    this.#events.delete(channel);
    this.#chars -= sizeOf(channel, cached.event, cached.data);
  }
}

const sizeOf = (channel: string, event: string, data: string) => channel.length + event.length + data.length;
