import type { Gate, Reporter } from '../shared/contract.js';
import { eventNameProblem } from '../shared/names.js';
import type { AuthErrorData, ChannelAuthData } from './auth.js';
import { AuthFailure } from './auth.js';
import { type Clock, Timer } from './clock.js';
import { type Callback, Emitter, type GlobalCallback } from './emitter.js';
import { failure, RealtimeError, ValidationError } from './errors.js';
import type { Log } from './log.js';
import type { Frame } from './protocol.js';

/** What a channel needs from its client; the client implements it, tests can fake it. */
export interface ChannelHost {
  readonly socketId: string | null;
  send(event: string, data: unknown, channel?: string): boolean;
  authorize(channelName: string, socketId: string): Promise<ChannelAuthData>;
  /**
   * Queues a client event behind the 10-per-second send window; false when the buffer is full. `emitter`
   * is the channel's, where a contract reports a client event its schema refused.
   */
  clientEvent(channel: string, event: string, data: unknown, emitter?: Reporter): boolean;
  /** The signed-in user's id, for presence auth responses without `channel_data`. */
  userId(): string | null;
  unsubscribe(channel: string): void;
  /** The channel is subscribed: held client events may go. Not an event binding, which `unbind()` would remove. */
  subscribed(channel: string): void;
  readonly clock: Clock;
  /** How long a `pusher:subscribe` may go unanswered before the attempt counts as failed. */
  readonly subscriptionTimeoutMs: number;
  log: Log;
  /** The contract's check of received payloads, when the client has one and validates them. */
  gate?: Gate | undefined;
}

/** The second argument of every event callback: `user_id` is set on client events in presence channels. */
export interface EventMetadata {
  user_id?: string;
}

/** Emitted as `pusher:resubscribed` after a reconnect. Pusher keeps no history: refetch what the gap may have hidden. */
export interface ResubscribedData {
  /** Milliseconds between losing the subscription and having it back. */
  gapMs: number;
}

/**
 * `pusher:subscription_error`: `AuthError` when the auth endpoint or the server refused (HTTP `status` when the
 * endpoint answered), `SubscriptionTimeout` when the server did not answer within `subscriptionTimeout`,
 * `ConnectionFailed` when the connection went `failed` (`closeCode` when the server refused it).
 */
export interface SubscriptionErrorData extends Omit<AuthErrorData, 'type'> {
  type: AuthErrorData['type'] | 'SubscriptionTimeout' | 'ConnectionFailed';
  closeCode?: number;
}

/** Pusher-js's reserved events, typed; everything else is an app event typed by the caller. */
export interface ChannelEvents {
  'pusher:subscription_succeeded': unknown;
  'pusher:subscription_error': SubscriptionErrorData;
  'pusher:resubscribed': ResubscribedData;
  'pusher:subscription_count': { subscription_count: number };
  'pusher:cache_miss': undefined;
  'pusher:decryption_error': { event: string; error: string };
  /** An event the contract's schema refused: received (dropped, not delivered) or a client event (not sent). */
  'pusher:validation_error': { event: string; error: ValidationError };
}

/** Event names to payload types, from a contract (`{}`: untyped, any name and `bind<T>()` as before). */
export type EventMap = object;

/** App event names `bind` takes on a channel: any string unless a contract lists them. */
export type BindableEvent<Events extends EventMap> = [keyof Events] extends [never] ? string : never;

/** `client-` event names `trigger` takes: any `client-` name unless a contract lists them. */
export type ClientEventName<Events extends EventMap> = [keyof Events] extends [never]
  ? `client-${string}`
  : Extract<keyof Events, `client-${string}`>;

/** The payload of client event `K`: the contract's type, or anything on an untyped channel. */
export type ClientEventData<Events extends EventMap, K> = K extends keyof Events ? Events[K] : unknown;

export type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void };

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Marked handled: an app that never awaits `subscribed` must not get an unhandled rejection for it.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * A public channel: receives events, cannot send them. `Events` (from a contract) types `bind`: a name it
 * does not list is a type error; without one every name is accepted.
 */
export class Channel<Events extends EventMap = {}> {
  readonly name: string;
  /** True between `pusher:subscription_succeeded` and the next disconnect or unsubscribe. */
  isSubscribed = false;
  /** From `pusher:subscription_count`, when the app has subscription counting enabled. */
  subscriptionCount: number | null = null;
  /** Type only, never set: the contract's events for this channel, so helpers (React hooks) can infer them. */
  declare readonly '~events'?: Events;
  protected readonly host: ChannelHost;
  protected readonly emitter: Emitter;
  /** Bumped by every subscribe attempt and every loss, so a late auth answer for an old socket is dropped. */
  private generation = 0;
  private everSubscribed = false;
  private lostAt: number | null = null;
  private waiting: Deferred<this> | null = null;
  /** @internal Pending while `pusher:subscribe` is sent and unanswered (for at most `subscriptionTimeout`). */
  readonly answer: Timer;
  /** The last attempt was refused; `client.subscribe(name)` again retries it (as in pusher-js). */
  failedAttempt = false;

  constructor(name: string, host: ChannelHost) {
    this.name = name;
    this.host = host;
    this.answer = new Timer(host.clock);
    this.emitter = new Emitter(host.log, ` on ${name}`);
  }

  /** Calls `callback` for `event` on this channel. `T` is the payload as the publisher sent it, after the JSON parse. */
  bind<K extends keyof ChannelEvents>(event: K, callback: (data: ChannelEvents[K]) => void): this;
  bind<K extends keyof Events & string>(
    event: K,
    callback: (data: Events[K], metadata: EventMetadata) => void,
  ): this;
  bind<T = unknown>(event: BindableEvent<Events>, callback: (data: T, metadata: EventMetadata) => void): this;
  bind(event: string, callback: Callback): this {
    this.emitter.bind(event, callback);
    return this;
  }

  /** Without `callback`, removes every callback of `event`; without arguments, all of them. */
  unbind(event?: string, callback?: Callback): this {
    this.emitter.unbind(event, callback);
    return this;
  }

  /** Calls `callback` for every event on this channel, `pusher:` ones included. */
  bindGlobal(callback: GlobalCallback): this {
    this.emitter.bindGlobal(callback);
    return this;
  }

  unbindGlobal(callback?: GlobalCallback): this {
    this.emitter.unbindGlobal(callback);
    return this;
  }

  /**
   * Resolves once the channel is subscribed (at once if it is); rejects when the attempt fails (refused, timed
   * out, or the connection `failed`), and at once with that failure until the next attempt starts.
   */
  get subscribed(): Promise<this> {
    if (this.isSubscribed) return Promise.resolve(this);
    this.waiting ??= deferred<this>();
    return this.waiting.promise;
  }

  /** Leaves the channel and forgets it; `client.subscribe(name)` again makes a new one. */
  unsubscribe(): void {
    this.host.unsubscribe(this.name);
  }

  /** @internal Sends `pusher:subscribe` for the current socket, after authorizing if the channel needs it. */
  async subscribe(): Promise<void> {
    const generation = this.next();
    const socketId = this.host.socketId;
    if (socketId === null) return;
    let data: Record<string, unknown>;
    try {
      data = await this.subscriptionData(socketId);
    } catch (error) {
      if (generation === this.generation)
        this.failed((error instanceof AuthFailure ? error : new AuthFailure(String(error))).toData());
      return;
    }
    if (generation !== this.generation || this.host.socketId !== socketId) return;
    const ms = this.host.subscriptionTimeoutMs;
    // A refusal the client cannot attribute, or a server that never answers, must not leave `subscribed` hanging.
    this.answer.set(ms, () => this.failed({ type: 'SubscriptionTimeout', error: `no answer in ${ms} ms` }));
    this.host.send('pusher:subscribe', { ...data, channel: this.name });
  }

  /** @internal The connection is gone: the subscription is too, until the client resubscribes. */
  lost(): void {
    this.next();
    this.answer.clear();
    if (this.isSubscribed) this.lostAt = this.host.clock.now();
    this.isSubscribed = false;
  }

  /** @internal Stops for good: pending auth answers are ignored and `subscribed` waiters are told. */
  close(): void {
    this.lost();
    this.waiting?.reject(new RealtimeError(`unsubscribed from ${this.name}`));
    this.waiting = null;
  }

  /** @internal One frame addressed to this channel. */
  handle(frame: Frame): void {
    switch (frame.event) {
      case 'pusher_internal:subscription_succeeded':
        this.succeeded(frame.data);
        return;
      case 'pusher_internal:subscription_count': {
        const data = frame.data as { subscription_count?: unknown };
        if (typeof data?.subscription_count === 'number') this.subscriptionCount = data.subscription_count;
        this.emitter.emit('pusher:subscription_count', frame.data);
        return;
      }
      case 'pusher:error':
      case 'pusher:subscription_error': {
        // A refused subscribe. Pusher answers with `pusher:error`, code null, the reason in `message`; the client
        // routes it here when the envelope or the message names this channel (client.ts). Any other
        // `pusher:error` is delivered as it is. soketi sends `pusher:subscription_error` (not in the protocol).
        if (frame.event === 'pusher:error' && !this.answer.pending) break;
        const data = frame.data as { error?: unknown; message?: unknown; status?: unknown };
        const status = typeof data?.status === 'number' ? data.status : undefined;
        this.failed(
          new AuthFailure(String(data?.error ?? data?.message ?? 'subscription refused'), status).toData(),
        );
        return;
      }
    }
    if (frame.event.startsWith('pusher_internal:')) this.internal(frame);
    else this.deliver(frame);
  }

  /** What goes in `pusher:subscribe` besides the channel name. Public channels need nothing. */
  protected async subscriptionData(_socketId: string): Promise<Record<string, unknown>> {
    return {};
  }

  /** Payload for `pusher:subscription_succeeded`; presence hands over its members. */
  protected subscribedPayload(data: unknown): unknown {
    return data;
  }

  /** `pusher_internal:` events this channel kind does not use (presence overrides it). */
  protected internal(_frame: Frame): void {}

  protected deliver(frame: Frame): void {
    const metadata: EventMetadata = frame.user_id === undefined ? {} : { user_id: frame.user_id };
    const go = () => this.emitter.emit(frame.event, frame.data, metadata);
    // Only a client given a contract pays for validation: the gate's code comes with the contract.
    const { gate } = this.host;
    if (gate) gate(this.name, frame.event, frame.data, this.emitter, go);
    else go();
  }

  private succeeded(data: unknown): void {
    this.answer.clear();
    this.failedAttempt = false;
    this.isSubscribed = true;
    const payload = this.subscribedPayload(data);
    this.waiting?.resolve(this);
    this.waiting = null;
    this.host.subscribed(this.name);
    this.emitter.emit('pusher:subscription_succeeded', payload);
    if (this.everSubscribed && this.lostAt !== null) {
      this.emitter.emit('pusher:resubscribed', {
        gapMs: this.host.clock.now() - this.lostAt,
      } satisfies ResubscribedData);
    }
    this.everSubscribed = true;
    this.lostAt = null;
  }

  /** A new attempt, or none: later answers for the old one are dropped, and a failure's rejection is forgotten. */
  private next(): number {
    if (this.failedAttempt) this.waiting = null;
    this.failedAttempt = false;
    return ++this.generation;
  }

  /** @internal The attempt failed: `subscription_error`, and `subscribed` rejects until the next attempt. */
  failed(data: SubscriptionErrorData): void {
    this.answer.clear();
    this.failedAttempt = true;
    const error = failure(this.host.log, `subscription to ${this.name}`, data);
    this.emitter.emit('pusher:subscription_error', data);
    this.waiting ??= deferred<this>();
    this.waiting.reject(error);
  }
}

/** Client events carry at most 10 KB of data, like every Pusher message. */
const MAX_CLIENT_EVENT_BYTES = 10 * 1024;

/** A `private-` channel: authorized by the app's endpoint, and it can send `client-` events. */
export class PrivateChannel<Events extends EventMap = {}> extends Channel<Events> {
  /**
   * Sends a `client-` event to the channel's other subscribers. Paced at 10 per second (the server's limit)
   * and held while not subscribed, in a bounded buffer: returns false when that buffer is full, and the
   * event is not sent. Throws for a name without `client-`, data over 10 KB, or data the contract's schema
   * refuses. An event whose schema validates asynchronously waits (and its channel's later ones behind it)
   * until it answers; if it refuses, the event is dropped and reported as `pusher:validation_error`.
   */
  trigger<K extends ClientEventName<Events>>(event: K, data: ClientEventData<Events, K>): boolean {
    const problem = eventNameProblem(event, { clientEvent: true });
    if (problem) throw new ValidationError('client event name', [{ path: 'event', message: problem }]);
    const size = new TextEncoder().encode(JSON.stringify(data) ?? '').length;
    if (size > MAX_CLIENT_EVENT_BYTES) {
      throw new ValidationError('client event data', [
        { path: 'data', message: `is ${size} bytes, the limit is 10240` },
      ]);
    }
    return this.host.clientEvent(this.name, event, data, this.emitter);
  }

  protected override async subscriptionData(socketId: string): Promise<Record<string, unknown>> {
    const auth = await this.host.authorize(this.name, socketId);
    return { auth: auth.auth };
  }
}
