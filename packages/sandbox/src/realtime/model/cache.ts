/** The last event published on a cache channel, replayed to each new subscriber until it expires. */
export interface CachedEvent {
  event: string;
  data: string;
  expiresAt: number;
}

/** Cache channels keep their last event for 30 minutes on Pusher; `ttlMs` makes that configurable. */
export class ChannelCache {
  readonly #events = new Map<string, CachedEvent>();

  constructor(private readonly ttlMs: number) {}

  set(channel: string, event: string, data: string, now = Date.now()): void {
    this.#events.set(channel, { event, data, expiresAt: now + this.ttlMs });
  }

  get(channel: string, now = Date.now()): CachedEvent | undefined {
    const cached = this.#events.get(channel);
    if (cached && cached.expiresAt <= now) {
      this.#events.delete(channel);
      return undefined;
    }
    return cached;
  }

  clear(): void {
    this.#events.clear();
  }
}
