import { type AuthErrorData, AuthFailure, type UserAuthData } from './auth.js';
import { Channel, type ChannelHost, type Deferred, deferred } from './channel.js';
import { type Callback, Emitter } from './emitter.js';
import { failure } from './errors.js';
import type { Frame } from './protocol.js';

/** The signed-in user's `user_data`, as the app's endpoint signed it. */
export interface UserData {
  id: string;
  user_info?: unknown;
  watchlist?: string[];
  [field: string]: unknown;
}

export interface UserHost extends ChannelHost {
  authenticate(socketId: string): Promise<UserAuthData>;
  readonly connected: boolean;
}

/** What a watchlist event carries: its name (one handler may serve both, as Pusher's docs show) and who. */
export interface WatchlistEvent {
  name: 'online' | 'offline';
  user_ids: string[];
}

/** `client.user.watchlist`: `online` and `offline` with the `user_ids` of the watchlist that changed. */
export interface Watchlist {
  bind(event: 'online' | 'offline', callback: (data: WatchlistEvent) => void): this;
  /** Without `callback`, removes every callback of `event`; without arguments, all of them. */
  unbind(event?: 'online' | 'offline', callback?: Callback): this;
}

/**
 * `client.user`: signs in with `pusher:signin` and then receives what the server sends to this user
 * (`#server-to-user-{id}`). Signin is repeated on every new connection, since it belongs to a socket.
 * Events: app events sent to the user, `pusher:signin_success` (UserData), `pusher:signin_error`
 * (AuthErrorData). `watchlist` emits `online` and `offline` with `{name, user_ids}`.
 */
export class User {
  data: UserData | null = null;
  readonly watchlist: Watchlist;
  private readonly emitter: Emitter;
  private requested = false;
  /** A signin is under way on this socket (auth requested or `pusher:signin` sent, no answer yet). */
  private inFlight = false;
  private waiting: Deferred<UserData> | null = null;
  private channel: Channel | null = null;
  /** Bumped per attempt, so an auth answer for a socket that is gone is dropped. */
  private generation = 0;

  constructor(private readonly host: UserHost) {
    this.emitter = new Emitter(host.log, ' on user');
    this.watchlist = new Emitter(host.log, ' on watchlist');
  }

  bind<T = unknown>(event: string, callback: (data: T) => void): this {
    this.emitter.bind(event, callback as Callback);
    return this;
  }

  unbind(event?: string, callback?: Callback): this {
    this.emitter.unbind(event, callback);
    return this;
  }

  /** Signs in now if connected, else as soon as the connection is up; resolves with the user data. */
  signin(): Promise<UserData> {
    if (this.data) return Promise.resolve(this.data);
    this.waiting ??= deferred<UserData>();
    const promise = this.waiting.promise;
    this.requested = true;
    // After a failure on this socket, calling signin() again is the retry.
    if (this.host.connected && !this.inFlight) void this.attempt();
    return promise;
  }

  /** @internal The connection is (re)established. */
  connected(): void {
    if (this.requested) void this.attempt();
  }

  /** @internal The socket is gone, and the signin with it. */
  lost(): void {
    this.generation += 1;
    this.inFlight = false;
    this.data = null;
    this.channel?.lost();
  }

  /** @internal */
  handle(frame: Frame): boolean {
    if (frame.event === 'pusher:signin_success') {
      this.succeeded(frame.data);
      return true;
    }
    if (frame.event === 'pusher_internal:watchlist_events') {
      const events = (frame.data as { events?: WatchlistEvent[] } | null)?.events;
      // The whole event, name included, as pusher-js passes it; a frame without an events array is ignored.
      if (Array.isArray(events))
        for (const event of events) (this.watchlist as Emitter).emit(event?.name, event);
      return true;
    }
    if (this.channel && frame.channel === this.channel.name) {
      this.channel.handle(frame);
      return true;
    }
    return false;
  }

  private async attempt(): Promise<void> {
    const generation = ++this.generation;
    this.inFlight = true;
    const socketId = this.host.socketId;
    if (socketId === null) return;
    try {
      const auth = await this.host.authenticate(socketId);
      if (generation !== this.generation) return;
      this.host.send('pusher:signin', { auth: auth.auth, user_data: auth.user_data });
    } catch (error) {
      if (generation !== this.generation) return;
      const failure = error instanceof AuthFailure ? error : new AuthFailure(String(error));
      this.failed(failure.toData());
    }
  }

  private succeeded(data: unknown): void {
    this.inFlight = false;
    let user: UserData;
    try {
      user = JSON.parse(String((data as { user_data?: unknown })?.user_data));
    } catch {
      this.failed({ type: 'AuthError', error: 'user_data is not JSON' });
      return;
    }
    if (typeof user?.id !== 'string' || user.id === '') {
      this.failed({ type: 'AuthError', error: 'user_data has no string id' });
      return;
    }
    this.data = user;
    const name = `#server-to-user-${user.id}`;
    if (this.channel?.name !== name) {
      this.channel = new Channel(name, this.host);
      this.channel.bindGlobal((event, payload) => {
        if (!event.startsWith('pusher:') && !event.startsWith('pusher_internal:'))
          this.emitter.emit(event, payload);
      });
    }
    void this.channel.subscribe();
    this.emitter.emit('pusher:signin_success', user);
    this.waiting?.resolve(user);
    this.waiting = null;
  }

  private failed(data: AuthErrorData): void {
    this.inFlight = false;
    const error = failure(this.host.log, 'signin', data);
    this.emitter.emit('pusher:signin_error', data);
    this.waiting?.reject(error);
    this.waiting = null;
    // Not retried on this socket (as pusher-js); the next connection tries again while signin stays requested.
  }
}
