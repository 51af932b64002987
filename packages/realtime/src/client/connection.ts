import { type BackoffOptions, backoffDelay } from './backoff.js';
import { type Clock, Timer } from './clock.js';
import { type Callback, Emitter } from './emitter.js';
import { describe, RealtimeError } from './errors.js';
import type { Log } from './log.js';
import { closeAction, decodeFrame, encodeFrame, type Frame } from './protocol.js';
import type { SocketLike, WebSocketFactory } from './socket/websocket.js';

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

/**
 * A connection that lasted this long resets the backoff. Resetting on every handshake instead would let a
 * server that accepts and then closes at once (4200) pull the client into a reconnect loop at full speed.
 */
const STABLE_AFTER_MS = 10_000;

const noop = (): void => {};

/**
 * One logical connection over successive sockets: the state machine, the heartbeat and the reconnect
 * schedule. It knows nothing of channels; the client listens to `message` and `state_change`.
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

export class Connection {
  state: ConnectionState = 'initialized';
  socketId: string | null = null;
  /** @internal Why the state is `failed`: the error event it emitted (`closeCode` for a refusal). */
  failure: RealtimeError | null = null;
  private socket: SocketLike | null = null;
  private tls: boolean;
  /** Consecutive attempts that ended without a stable connection. */
  private attempts = 0;
  private connectedAt = 0;
  /** The user wants a connection: set by connect(), cleared by disconnect() and refusals. */
  private wanted = false;
  /** Bumped per socket, so events from a socket we already dropped are ignored. */
  private epoch = 0;
  private activityMs: number;
  /** The diagnosis was reported as an `error`: once per cause, until a connection or `connect()`. */
  private diagnosed = false;
  private readonly retryTimer: Timer;
  private readonly connectTimer: Timer;
  private readonly activityTimer: Timer;
  private readonly pongTimer: Timer;

  private readonly events: Emitter;

  constructor(private readonly settings: ConnectionSettings) {
    this.events = new Emitter(settings.log);
    this.tls = settings.tls;
    this.activityMs = settings.activityTimeoutMs;
    this.retryTimer = new Timer(settings.clock);
    this.connectTimer = new Timer(settings.clock);
    this.activityTimer = new Timer(settings.clock);
    this.pongTimer = new Timer(settings.clock);
  }

  /** Calls `callback` on a connection event, or on entering the state of that name (`connected`, …). */
  bind<K extends keyof ConnectionEvents>(event: K, callback: (data: ConnectionEvents[K]) => void): this;
  bind(event: ConnectionState, callback: () => void): this;
  bind(event: string, callback: Callback): this {
    this.events.bind(event, callback);
    return this;
  }

  unbind(event?: string, callback?: Callback): this {
    this.events.unbind(event, callback);
    return this;
  }

  /** Starts connecting. A no-op while connecting or connected; while a retry is pending, retries now. */
  connect(): void {
    if (this.wanted && (this.state === 'connecting' || this.state === 'connected')) return;
    this.wanted = true;
    this.attempts = 0;
    this.diagnosed = false;
    void this.open();
  }

  /** Closes the socket and stops reconnecting; from `failed` too, since the app asked. Idempotent. */
  disconnect(): void {
    this.wanted = false;
    this.retryTimer.clear();
    this.drop(1000, 'client disconnect', false);
    if (this.state !== 'initialized') this.setState('disconnected');
  }

  /** Sends one frame if connected; returns whether it was handed to the socket. */
  send(event: string, data: unknown, channel?: string): boolean {
    if (this.state !== 'connected' || !this.socket) return false;
    try {
      this.socket.send(encodeFrame(event, data, channel));
      return true;
    } catch (error) {
      this.settings.log('warn', `send failed for ${event}`, error);
      return false;
    }
  }

  /** The browser says the network is back: retry now rather than waiting out the backoff. */
  online(): void {
    if (!this.wanted || this.state === 'connecting' || this.state === 'connected') return;
    this.attempts = 0;
    void this.open();
  }

  /** The browser says it is offline: stop trusting the socket; the backoff keeps probing in case it is wrong. */
  offline(): void {
    if (!this.wanted || (this.state !== 'connecting' && this.state !== 'connected')) return;
    this.drop(4200, 'offline');
    this.scheduleRetry(0);
  }

  private async open(): Promise<void> {
    this.retryTimer.clear();
    this.drop(1000, 'reconnecting', false);
    const epoch = ++this.epoch;
    this.setState('connecting');
    let socket: SocketLike;
    const url = this.settings.url(this.tls);
    try {
      const factory = await this.settings.factory();
      if (epoch !== this.epoch || !this.wanted) return;
      socket = factory(url);
    } catch (error) {
      // No WebSocket at all will not fix itself: the one permanent failure besides a refusal.
      if (epoch === this.epoch) this.fail(`cannot open a WebSocket: ${describe(error)}`, { cause: error });
      return;
    }
    this.socket = socket;
    let errorEvent: unknown;
    socket.onerror = (event) => {
      errorEvent = event;
      this.settings.log('debug', 'socket error', event);
    };
    socket.onmessage = (event) => {
      if (epoch === this.epoch) this.received(event.data);
    };
    socket.onclose = (event) => {
      if (epoch !== this.epoch) return;
      this.socket = null;
      // Erred before the handshake (a TLS handshake that met plain HTTP, say): worth asking why.
      if (errorEvent && this.state === 'connecting') this.diagnose(url, errorEvent);
      this.closed(event.code, event.reason);
    };
    this.connectTimer.set(this.settings.connectTimeoutMs, () => {
      this.settings.log('warn', `no handshake in ${this.settings.connectTimeoutMs} ms`);
      this.drop(4200, 'connect timeout');
      this.closed(1006, 'connect timeout');
    });
  }

  private received(raw: unknown): void {
    const frame = decodeFrame(raw);
    if (!frame) {
      this.settings.log('warn', 'not a protocol 7 frame', raw);
      return;
    }
    // Any frame proves the link is alive, so it both cancels a pending pong wait and restarts the clock.
    this.pongTimer.clear();
    if (frame.event === 'pusher:connection_established') this.established(frame);
    else if (frame.event === 'pusher:ping') this.send('pusher:pong', {});
    else if (frame.event === 'pusher:error') this.serverError(frame);
    this.armActivity();
    if (frame.event !== 'pusher:pong' && frame.event !== 'pusher:ping') this.events.emit('message', frame);
  }

  /** Runs beside the reconnect schedule, which it leaves alone: the advice comes as an `error` event. */
  private diagnose(url: string, errorEvent: unknown): void {
    if (this.diagnosed) return;
    this.settings.diagnose?.(url, errorEvent).then((advice) => {
      if (!advice || this.diagnosed || !this.wanted || this.state === 'connected') return;
      this.diagnosed = true;
      this.events.emit('error', new RealtimeError(advice));
    }, noop);
  }

  private established(frame: Frame): void {
    const data = (frame.data ?? {}) as { socket_id?: unknown; activity_timeout?: unknown };
    if (typeof data.socket_id !== 'string') {
      this.settings.log('warn', 'no socket_id', frame.data);
      return;
    }
    this.connectTimer.clear();
    this.socketId = data.socket_id;
    // Both sides may have an opinion on how long silence may last; the shorter one wins (the protocol's rule).
    // The server's is whole seconds: 0, a negative or a fraction of a second is no opinion (pusher-js ignores
    // a falsy one too), or a hostile server would have the client ping in a busy loop.
    const seconds = data.activity_timeout;
    const server =
      typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 1
        ? seconds * 1000
        : Number.POSITIVE_INFINITY;
    this.activityMs = Math.min(this.settings.activityTimeoutMs, server);
    this.connectedAt = this.settings.clock.now();
    this.diagnosed = false;
    this.setState('connected');
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

  /** After `activityMs` of silence, ping; if nothing comes back within `pongTimeoutMs`, the link is dead. */
  private armActivity(): void {
    if (this.state !== 'connected') return;
    this.activityTimer.set(this.activityMs, () => {
      this.send('pusher:ping', {});
      this.pongTimer.set(this.settings.pongTimeoutMs, () => {
        this.settings.log('warn', `no pong in ${this.settings.pongTimeoutMs} ms`);
        this.drop(4201, 'pong timeout');
        this.closed(4201, 'pong reply not received');
      });
    });
  }

  private closed(code: number, reason: string): void {
    const wasConnected = this.state === 'connected';
    // The socket is gone or already dropped: this only clears the timers and the socket id.
    this.drop(code, reason);
    this.events.emit('closed', { code, reason });
    if (!this.wanted) return;
    if (wasConnected && this.settings.clock.now() - this.connectedAt >= STABLE_AFTER_MS) this.attempts = 0;
    const action = closeAction(code);
    if (action === 'tls' && !this.tls) {
      this.tls = true;
      void this.open();
    } else if (action === 'refuse') {
      this.fail(`connection refused: ${code} ${reason || 'see the close code'}`, { closeCode: code });
    } else if (action === 'retry' && this.attempts === 0) {
      // Once at once; a second consecutive "retry" without a stable connection backs off like any fault.
      this.attempts = 1;
      void this.open();
    } else {
      // 4100–4199: the protocol asks for at least 1 s, whatever the configured base.
      this.scheduleRetry(code >= 4100 && code <= 4199 ? 1000 : 0);
    }
  }

  private fail(message: string, init: { closeCode?: number; cause?: unknown }): void {
    this.wanted = false;
    this.failure = new RealtimeError(message, init);
    this.events.emit('error', this.failure);
    this.setState('failed');
  }

  private scheduleRetry(floorMs: number): void {
    this.attempts += 1;
    const delay = backoffDelay(this.attempts, this.settings.backoff, this.settings.random, floorMs);
    this.setState('unavailable');
    this.events.emit('connecting_in', delay);
    this.retryTimer.set(delay, () => void this.open());
  }

  /**
   * Forgets the current socket. A dead link never answers a closing handshake, so it is terminated where
   * the implementation can (`ws`); a healthy one is closed politely so the server sees a clean 1000.
   */
  private drop(code: number, reason: string, dead = true): void {
    this.connectTimer.clear();
    this.activityTimer.clear();
    this.pongTimer.clear();
    const socket = this.socket;
    this.socket = null;
    this.socketId = null;
    this.epoch += 1;
    if (!socket) return;
    socket.onmessage = null;
    socket.onclose = null;
    // `ws` emits 'error' when a connecting socket is aborted and throws if nobody listens: keep a listener.
    socket.onerror = () => {};
    try {
      if (dead && socket.terminate) socket.terminate();
      else socket.close(code >= 4000 || code === 1000 ? code : 1000, reason);
    } catch {
      // Closing an already closed socket may throw in some implementations; it is gone either way.
    }
  }

  private setState(current: ConnectionState): void {
    const previous = this.state;
    if (previous === current) return;
    this.state = current;
    this.settings.log('debug', `state ${previous} -> ${current}`);
    this.events.emit('state_change', { previous, current } satisfies StateChange);
    this.events.emit(current);
  }
}
