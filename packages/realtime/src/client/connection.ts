import { type CloseVerdict, ReconnectingSocket, type SocketClose, type SocketEvents } from '@x/core/socket';
import type { BackoffOptions } from './backoff.js';
import type { Clock } from './clock.js';
import type { Callback } from './emitter.js';
import { describe, RealtimeError } from './errors.js';
import type { Log } from './log.js';
import { closeAction, decodeFrame, encodeFrame, type Frame } from './protocol.js';
import type { WebSocketFactory } from './socket/websocket.js';

/**
 * The connection's states, as string constants (the same names pusher-js uses). The code below compares
 * with the literals, which the type checks against this object, so a bundle that never imports it drops it.
 */
export const ConnectionStates = {
  Initialized: 'initialized',
  Connecting: 'connecting',
  Connected: 'connected',
  /** A transient fault: a retry is scheduled (see `connecting_in`) or the browser says it is offline. */
  Unavailable: 'unavailable',
  /** A permanent fault: the server refused us (4001–4099, 4300–4399) or there is no WebSocket. */
  Failed: 'failed',
  /** `disconnect()` was called. */
  Disconnected: 'disconnected',
} as const;
export type ConnectionState = (typeof ConnectionStates)[keyof typeof ConnectionStates];

export interface StateChange {
  previous: ConnectionState;
  current: ConnectionState;
}

export interface ConnectionSettings {
  /** The URL for a plain or a TLS attempt (4000 switches to TLS). */
  url(tls: boolean): string;
  tls: boolean;
  activityTimeoutMs: number;
  pongTimeoutMs: number;
  /** How long an attempt may take from opening the socket to `pusher:connection_established`. */
  connectTimeoutMs: number;
  backoff: BackoffOptions;
  factory(): WebSocketFactory | Promise<WebSocketFactory>;
  /** Why a TLS socket closed before opening, when the fix is known (a host speaking plain HTTP). */
  diagnose?(url: string, errorEvent: unknown): Promise<string | undefined>;
  clock: Clock;
  random: () => number;
  log: Log;
}

const noop = (): void => {};

/**
 * Events: `state_change`, one per state name, `connecting_in` (ms), `message` (Frame), `error`
 * (RealtimeError), `closed` ({code, reason}).
 */
export interface ConnectionEvents {
  state_change: StateChange;
  connecting_in: number;
  error: RealtimeError;
  closed: { code: number; reason: string };
  message: Frame;
}

/**
 * One logical connection over successive sockets, for Pusher protocol 7. `@x/core/socket`'s
 * `ReconnectingSocket` keeps the states, the heartbeat and the reconnect schedule, and gives this class
 * `state`, `connect()`, `disconnect()`, `online()` and `offline()`; this adds what is Pusher's own: the
 * `pusher:connection_established` handshake and its `activity_timeout`, `pusher:ping` / `pusher:pong`,
 * `pusher:error`, and what each close code asks for (`closeAction`). It knows nothing of channels; the
 * client listens to `message` and `state_change`.
 */
export class Connection extends ReconnectingSocket<
  SocketEvents & { message: [Frame]; error: [RealtimeError] }
> {
  /** @internal Why the state is `failed`: the error event it emitted (`closeCode` for a refusal). */
  declare failure: RealtimeError | null;
  /** Sent when giving up on a socket that cannot be terminated (connect timeout, offline): "reconnect". */
  protected override dropCode = 4200;
  private tls: boolean;
  /** The diagnosis was reported as an `error`: once per cause, until a connection or `connect()`. */
  private diagnosed = false;

  /** The settings name what the reconnecting socket reads the same way (timeouts, backoff, clock, log). */
  declare protected readonly options: ConnectionSettings;

  constructor(settings: ConnectionSettings) {
    super(settings);
    this.tls = settings.tls;
  }

  /** Calls `callback` on a connection event, or on entering the state of that name (`connected`, …). */
  bind<K extends keyof ConnectionEvents>(event: K, callback: (data: ConnectionEvents[K]) => void): this;
  bind(event: ConnectionState, callback: () => void): this;
  bind(event: string, callback: Callback): this {
    this.events.bind(event as 'message', callback);
    return this;
  }

  unbind(event?: string, callback?: Callback): this {
    this.events.unbind(event as 'message', callback);
    return this;
  }

  /** Starts connecting. A no-op while connecting or connected; while a retry is pending, retries now. */
  override connect(): void {
    // A new cause may be reported: the app asked again.
    this.diagnosed = false;
    super.connect();
  }

  /** Sends one frame if connected; returns whether it was handed to the socket. */
  send(event: string, data: unknown, channel?: string): boolean {
    try {
      return this.sendRaw(encodeFrame(event, data, channel));
    } catch (error) {
      this.options.log('warn', `send failed for ${event}`, error);
      return false;
    }
  }

  protected url(): string {
    return this.options.url(this.tls);
  }

  protected override ping(): void {
    this.send('pusher:ping', {});
  }

  protected override dead(): void {
    this.lost(4201, 'pong reply not received');
  }

  // No WebSocket at all will not fix itself: the one permanent failure besides a refusal.
  protected override openFailed(error: unknown): CloseVerdict {
    return { fail: new RealtimeError(`cannot open a WebSocket: ${describe(error)}`, { cause: error }) };
  }

  protected message(raw: unknown): void {
    const frame = decodeFrame(raw);
    if (!frame) {
      this.options.log('warn', 'not a protocol 7 frame', raw);
      return;
    }
    if (frame.event === 'pusher:connection_established') this.handshake(frame);
    else if (frame.event === 'pusher:ping') this.send('pusher:pong', {});
    else if (frame.event === 'pusher:error') this.serverError(frame);
    // Any frame proves the link is alive, so it both cancels a pending pong wait and restarts the clock.
    this.alive();
    if (frame.event !== 'pusher:pong' && frame.event !== 'pusher:ping') this.events.emit('message', frame);
  }

  /**
   * What a close code asks for (`closeAction`): 4000 switches to TLS at once, a refusal fails, 4200–4299
   * retry at once (once), the rest back off, 4100–4199 for at least the 1 s the protocol asks.
   */
  protected classify(
    { code, reason }: SocketClose,
    wasConnected: boolean,
    errorEvent: unknown,
  ): CloseVerdict {
    // Erred before the handshake (a TLS handshake that met plain HTTP, say): worth asking why. `tls` is still
    // the attempt's, so `url()` is that attempt's URL.
    if (errorEvent && !wasConnected) this.diagnose(errorEvent);
    const action = closeAction(code);
    if (action === 'tls' && !this.tls) {
      this.tls = true;
      return 'now';
    }
    if (action === 'refuse') {
      const message = `connection refused: ${code} ${reason || 'see the close code'}`;
      return { fail: new RealtimeError(message, { closeCode: code }) };
    }
    return action === 'retry' ? 'retry' : code >= 4100 && code <= 4199 ? 1000 : 'backoff';
  }

  private handshake(frame: Frame): void {
    const data = (frame.data ?? {}) as { socket_id?: unknown; activity_timeout?: unknown };
    if (typeof data.socket_id !== 'string') {
      this.options.log('warn', 'no socket_id', frame.data);
      return;
    }
    this.socketId = data.socket_id;
    // Both sides may have an opinion on how long silence may last; the shorter one wins (the protocol's rule).
    // The server's is whole seconds: 0, a negative or a fraction of a second is no opinion (pusher-js ignores
    // a falsy one too), or a hostile server would have the client ping in a busy loop.
    const seconds = data.activity_timeout;
    const server =
      typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1 ? seconds * 1000 : Infinity;
    this.activityMs = Math.min(this.options.activityTimeoutMs, server);
    this.diagnosed = false;
    this.established();
  }

  private serverError(frame: Frame): void {
    const data = (frame.data ?? {}) as { message?: unknown; code?: unknown };
    const message = typeof data.message === 'string' ? data.message : 'server error';
    const code = typeof data.code === 'number' ? data.code : undefined;
    this.events.emit(
      'error',
      new RealtimeError(
        code === undefined ? message : `${code} ${message}`,
        code === undefined ? {} : { code },
      ),
    );
  }

  /** Runs beside the reconnect schedule, which it leaves alone: the advice comes as an `error` event. */
  private diagnose(errorEvent: unknown): void {
    if (this.diagnosed) return;
    this.options.diagnose?.(this.url(), errorEvent).then((advice) => {
      if (!advice || this.diagnosed || !this.wanted || this.state === 'connected') return;
      this.diagnosed = true;
      this.events.emit('error', new RealtimeError(advice));
    }, noop);
  }
}
