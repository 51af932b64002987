import type { AnyChannel, RealtimeClient } from '../client/client.js';

/** Any client, whatever its presence `user_info` type. */
export type AnyClient = RealtimeClient<any>;

/**
 * Who uses a client's socket and channels from React. Releases wait one task: StrictMode unmounts and
 * remounts every effect in the same commit, and a component moved in the tree does the same, so a release
 * taken back within that task leaves the socket and the subscription alone. Without the wait the double
 * mount would close a socket still opening ("WebSocket is closed before the connection is established")
 * and send an unsubscribe and a subscribe for every channel.
 */
export class Lease {
  private users = 0;
  private closing: ReturnType<typeof setTimeout> | undefined;
  private ownsConnection = false;
  private readonly counts = new Map<string, number>();
  private readonly leaving = new Map<string, ReturnType<typeof setTimeout>>();
  /** Channels these hooks subscribed; one the app subscribed itself is never left by them. */
  private readonly owned = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(readonly client: AnyClient) {}

  /**
   * Keeps the connection open until the returned release (and every other one) has been called. A
   * connection the app opened itself (connecting, connected or retrying when the first holder came) is the
   * app's to close, as a channel it subscribed itself is: the last release leaves it open.
   */
  retainConnection(): () => void {
    const remount = this.closing !== undefined;
    clearTimeout(this.closing);
    this.closing = undefined;
    if (++this.users === 1 && !remount) {
      const state = this.client.connection.state;
      this.ownsConnection = state !== 'connecting' && state !== 'connected' && state !== 'unavailable';
      this.client.connect();
    }
    return once(() => {
      if (--this.users > 0) return;
      this.closing = setTimeout(() => {
        this.closing = undefined;
        if (this.users === 0 && this.ownsConnection) this.client.disconnect();
      }, 0);
    });
  }

  /** Subscribes `name` for as long as one holder has not released it. */
  retainChannel(name: string): () => void {
    const count = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, count);
    clearTimeout(this.leaving.get(name));
    this.leaving.delete(name);
    if (count === 1) {
      const mine = !this.client.channel(name);
      try {
        // Also the retry of a channel whose last attempt was refused, as `client.subscribe` is.
        this.client.subscribe(name);
      } catch (error) {
        // A name the client refuses (a ValidationError, thrown to the component) holds nothing.
        this.counts.delete(name);
        throw error;
      }
      if (mine) this.owned.add(name);
      this.changed();
    }
    return once(() => {
      const left = (this.counts.get(name) ?? 1) - 1;
      this.counts.set(name, left);
      if (left > 0) return;
      this.leaving.set(
        name,
        setTimeout(() => {
          this.leaving.delete(name);
          if (this.counts.get(name) !== 0) return;
          this.counts.delete(name);
          if (this.owned.delete(name)) this.client.unsubscribe(name);
          this.changed();
        }, 0),
      );
    });
  }

  /** How many holders `name` has now (a release still waiting out its task counts as gone). */
  holders(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  channel(name: string): AnyChannel | null {
    return this.client.channel(name) ?? null;
  }

  /** Called whenever a channel is subscribed or left through this lease. */
  onChange = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** One `make(client)` per client, made on first use and gone with the client. */
export function perClient<T>(make: (client: AnyClient) => T): (client: AnyClient) => T {
  const made = new WeakMap<AnyClient, T>();
  return (client) => {
    let value = made.get(client);
    if (value === undefined) {
      value = make(client);
      made.set(client, value);
    }
    return value;
  };
}

/** The one lease of `client`, so every provider and hook on it counts in the same place. */
export const leaseOf = perClient((client) => new Lease(client));

function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}
