import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from '../base/backoff.js';
import { type Clock, systemClock, Timer } from '../base/clock.js';
import type { Log } from '../base/log.js';
import { Emitter, type EventMap } from './emitter.js';
import type { SocketLike, WebSocketFactory } from './websocket.js';

/**
 * - `initialized`: `connect()` was never called. `connecting`: a socket is opening, or open and awaiting
 *   the protocol's handshake. `connected`: the protocol called `established()`.
 * - `unavailable`: a transient fault; a retry is scheduled (`connecting_in`).
 * - `failed`: a permanent fault (a `fail` verdict); nothing happens until `connect()`.
 * - `disconnected`: `disconnect()` was called.
 */
export type SocketState =
  | 'initialized'
  | 'connecting'
  | 'connected'
  | 'unavailable'
  | 'failed'
  | 'disconnected';

export interface StateChange {
  previous: SocketState;
  current: SocketState;
}

/** How a socket ended: the peer's close frame, or one the client made up (1006 for an open timeout). */
export interface SocketClose {
  code: number;
  reason: string;
}

/**
 * What the protocol makes of an ended attempt:
 * - `'backoff'`: transient; retry after a full-jitter delay that grows with each consecutive failure.
 * - a number: the same, never sooner than that many ms (a server asking for at least a second).
 * - `'retry'`: at once if this is the first failure since the last stable connection, else as `'backoff'`,
 *   so a server that accepts and drops at once cannot pull the client into a loop at full speed.
 * - `'now'`: open again at once without counting a failure: the protocol changed the next attempt (TLS).
 *   Return it only when the next attempt differs, or it loops.
 * - `{ fail }`: permanent (refused, unauthorized): emits `error` with `fail`, state `failed`, no more attempts.
 */
export type CloseVerdict = 'backoff' | 'retry' | 'now' | number | { fail: unknown };

/** Where the socket reports, with the level of each line: `(level, message, ...args)`; core's `Log`. */
export type SocketLog = Log;

/**
 * The events of a `ReconnectingSocket`: `state_change`, one per state name (no arguments), `connecting_in`
 * (ms until the next attempt), `closed` (each socket that ended), `error` (a `fail` verdict's error).
 * A protocol adds its own (`message`, `turn`, …) to the same emitter.
 */
export type SocketEvents = {
  state_change: [StateChange];
  connecting_in: [number];
  closed: [SocketClose];
  error: [unknown];
} & { [S in SocketState]: [] };

export interface ReconnectingSocketOptions {
  /** Builds each attempt's socket (see `webSocketFactory`); called once per attempt, after `url()`. */
  factory(): WebSocketFactory | Promise<WebSocketFactory>;
  /** Ms from creating a socket to `established()`; past it the attempt ends as a close 1006 `connect timeout`. */
  connectTimeoutMs: number;
  /**
   * The heartbeat, while `connected`: ms without `alive()` before `ping()` is called. Without it there is no
   * heartbeat. The protocol may change it per connection (`activityMs`), e.g. to what its server asked for.
   */
  activityTimeoutMs?: number | undefined;
  /**
   * Ms after a ping without `alive()` before `dead()`: how a link that died silently (a NAT or a proxy dropped
   * it) is noticed. Leave it out where pings get no answer (AssemblyAI's `KeepAlive`): then `ping()` is only
   * called every `activityTimeoutMs` while no traffic comes.
   */
  pongTimeoutMs?: number | undefined;
  /** Reconnect delays. Default 1 s doubling up to 30 s. */
  backoff?: BackoffOptions | undefined;
  clock?: Clock | undefined;
  /** The jitter source, [0, 1). */
  random?: (() => number) | undefined;
  log?: SocketLog | undefined;
}

type Events = Emitter<SocketEvents>;

const noop = (): void => {};

/**
 * A connection that lasted this long resets the backoff. Resetting on every handshake instead would let a
 * server that accepts and then closes at once pull the client into a reconnect loop at full speed. Exported
 * so protocol clients that judge their own sessions (transcription streaming) use the same threshold.
 */
export const STABLE_AFTER_MS = 10_000;

/**
 * One logical connection over successive sockets: a state machine, a connect timeout, an optional heartbeat
 * and the reconnect schedule. It knows no protocol; a protocol extends it: `url()` names each attempt,
 * `message()` reads frames (calling `established()` once its handshake is done and `alive()` on valid
 * traffic), `classify()` says what each close means, and its own public methods send what it speaks.
 *
 * @example
 * class Session extends ReconnectingSocket<SocketEvents & { turn: [Turn] }> {
 *   protected url() { return token().then((t) => `wss://host/v3/ws?token=${t}`); } // fresh per attempt
 *   protected message(data: unknown) { … if (begin) this.established(); this.alive(); … }
 *   protected classify({ code }: SocketClose) { return code === 1008 ? { fail: new AuthError() } : 'backoff'; }
 * }
 */
export abstract class ReconnectingSocket<E extends EventMap<E> = SocketEvents> {
  state: SocketState = 'initialized';
  /** The error of the `fail` verdict that made the state `failed`. */
  failure: unknown = null;
  /** `SocketEvents` and the protocol's own events. */
  readonly events: Emitter<E>;
  /** The current socket, while one is open or opening. */
  protected socket: SocketLike | null = null;
  /**
   * What the server's handshake named this socket (Pusher's `socket_id`, AssemblyAI's session `id`): the
   * protocol sets it in `message()` before `established()`; it is cleared the moment the socket is dropped.
   */
  socketId: string | null = null;
  /** A connection is wanted: set by `connect()`, cleared by `disconnect()` and by a `fail` verdict. */
  protected wanted = false;
  /** The heartbeat's silence before a ping, from `activityTimeoutMs`; the protocol may change it per connection. */
  protected activityMs: number | undefined;
  /** The code sent when the client gives up on a socket it cannot terminate (connect timeout, offline). */
  protected dropCode = 1000;
  /** Consecutive attempts that ended without a stable connection. */
  private attempts = 0;
  private connectedAt = 0;
  /** Bumped per socket, so events from a socket already dropped are ignored. */
  private epoch = 0;
  private readonly clock: Clock;
  private readonly log: SocketLog;
  /**
   * The one deadline pending at any time, since they never overlap: the retry while `unavailable`, the
   * connect timeout while `connecting`, then while `connected` the next ping or the wait for its pong.
   */
  private readonly timer: Timer;

  constructor(protected readonly options: ReconnectingSocketOptions) {
    const log = options.log ?? noop;
    const clock = options.clock ?? systemClock;
    this.log = log;
    this.clock = clock;
    this.events = new Emitter(log);
    this.activityMs = options.activityTimeoutMs;
    this.timer = new Timer(clock);
  }

  /** Starts connecting. A no-op while connecting or connected; while a retry is pending, retries now. */
  connect(): void {
    if (this.wanted && (this.state === 'connecting' || this.state === 'connected')) return;
    this.wanted = true;
    this.attempts = 0;
    void this.open();
  }

  /** Closes the socket (1000) and stops reconnecting; from `failed` too. Idempotent. */
  disconnect(): void {
    this.wanted = false;
    this.drop(1000, 'client disconnect', false);
    if (this.state !== 'initialized') this.setState('disconnected');
  }

  /** The runtime says the network is back: retry now rather than waiting out the backoff. */
  online(): void {
    if (this.wanted) this.connect();
  }

  /** The runtime says it is offline: stop trusting the socket; the backoff keeps probing in case it is wrong. */
  offline(): void {
    if (!this.wanted || (this.state !== 'connecting' && this.state !== 'connected')) return;
    this.drop(this.dropCode, 'offline');
    this.retry(0);
  }

  /** The URL of each attempt, called once per attempt, so it may fetch a fresh one-time token. */
  protected abstract url(): string | Promise<string>;

  /** Each frame of the current socket, in order; never one from a socket already dropped. */
  protected abstract message(data: unknown): void;

  /**
   * What a close asks for; called only while a connection is wanted, after the `closed` event.
   * `wasConnected`: `established()` had been called on this socket. `errorEvent`: the socket's last `error`
   * event before the close, if any (`ws` puts the cause on it: ECONNREFUSED, a TLS error).
   */
  protected abstract classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict;

  /** What a throwing `url()` or `factory()` asks for: `{ fail: error }` when it cannot get better by itself. */
  protected abstract openFailed(error: unknown): CloseVerdict;

  /** The heartbeat's ping, the protocol's own (`pusher:ping`, `{"type":"KeepAlive"}`); unused without one. */
  protected abstract ping(): void;

  /** No answer to a ping within `pongTimeoutMs`: typically `this.lost(code, reason)` with the protocol's code. */
  protected abstract dead(): void;

  /** Hands `data` to the socket if `connected`; returns whether it did. Throws what the socket's `send` throws. */
  protected sendRaw(data: string | ArrayBufferLike | ArrayBufferView): boolean {
    if (this.state !== 'connected' || !this.socket) return false;
    this.socket.send(data);
    return true;
  }

  /** The protocol's handshake is done (call it from `message()`): `connected`, and the heartbeat starts. */
  protected established(): void {
    this.timer.clear();
    this.connectedAt = this.clock.now();
    this.setState('connected');
    this.alive();
  }

  /**
   * The protocol saw valid traffic, which proves the link alive: cancels a pending wait for a pong and
   * restarts the heartbeat's clock. After `activityMs` without it, `ping()`; then `pongTimeoutMs` without
   * it, `dead()`.
   */
  protected alive(): void {
    const { activityMs, options } = this;
    if (this.state !== 'connected' || activityMs === undefined) return;
    // Replaces a pending wait for a pong: this traffic is the answer.
    this.timer.set(activityMs, () => {
      const wait = options.pongTimeoutMs;
      // Armed before the ping, so a ping that ends the connection (its send failed) leaves nothing behind.
      if (wait === undefined) this.alive();
      else
        this.timer.set(wait, () => {
          this.log('warn', `no pong in ${wait} ms`);
          this.dead();
        });
      this.ping();
    });
  }

  /**
   * The protocol found the link dead or broken: the socket is terminated (closed with `code` where it cannot
   * be) and the loss is handled as a close with `code` and `reason`.
   */
  protected lost(code: number, reason: string): void {
    if (!this.socket) return;
    this.drop(code, reason);
    this.closed(code, reason);
  }

  private async open(): Promise<void> {
    const { options, log } = this;
    this.drop(1000, 'reconnecting', false);
    const epoch = ++this.epoch;
    this.setState('connecting');
    let socket: SocketLike;
    try {
      const url = await this.url();
      const factory = await options.factory();
      if (epoch !== this.epoch || !this.wanted) return;
      socket = factory(url);
    } catch (error) {
      if (epoch === this.epoch) this.act(this.openFailed(error));
      return;
    }
    this.socket = socket;
    let errorEvent: unknown;
    socket.onerror = (event) => {
      errorEvent = event;
      // Never the event itself: `ws` puts the socket on its `target`, with the URL's token and the headers.
      const e = event as { message?: unknown; error?: { code?: unknown } } | null | undefined;
      log('debug', 'socket error', e?.message, e?.error?.code);
    };
    socket.onmessage = (event) => {
      if (epoch === this.epoch) this.message(event.data);
    };
    socket.onclose = (event) => {
      if (epoch !== this.epoch) return;
      this.socket = null;
      this.closed(event.code, event.reason, errorEvent);
    };
    this.timer.set(options.connectTimeoutMs, () => {
      log('warn', `no handshake in ${options.connectTimeoutMs} ms`);
      this.drop(this.dropCode, 'connect timeout');
      this.closed(1006, 'connect timeout');
    });
  }

  private closed(code: number, reason: string, errorEvent?: unknown): void {
    const wasConnected = this.state === 'connected';
    const close = { code, reason };
    // The socket is gone or already dropped: this only clears the timer.
    this.drop(code, reason);
    (this.events as unknown as Events).emit('closed', close);
    if (!this.wanted) return;
    if (wasConnected && this.clock.now() - this.connectedAt >= STABLE_AFTER_MS) this.attempts = 0;
    this.act(this.classify(close, wasConnected, errorEvent));
  }

  private act(verdict: CloseVerdict): void {
    if (verdict === 'now') {
      void this.open();
    } else if (verdict === 'retry' && this.attempts === 0) {
      this.attempts = 1;
      void this.open();
    } else if (typeof verdict === 'object') {
      this.wanted = false;
      this.failure = verdict.fail;
      (this.events as unknown as Events).emit('error', verdict.fail);
      this.setState('failed');
    } else {
      this.retry(typeof verdict === 'number' ? verdict : 0);
    }
  }

  private retry(floorMs: number): void {
    const { backoff = DEFAULT_BACKOFF, random } = this.options;
    const delay = backoffDelay(++this.attempts, backoff, random, floorMs);
    this.setState('unavailable');
    (this.events as unknown as Events).emit('connecting_in', delay);
    this.timer.set(delay, () => void this.open());
  }

  /**
   * Forgets the current socket and cancels the pending deadline (a retry too). A dead link never answers a
   * closing handshake, so it is terminated where the implementation can (`ws`); a healthy one is closed
   * politely so the server sees a clean close.
   */
  private drop(code: number, reason: string, dead = true): void {
    this.timer.clear();
    const socket = this.socket;
    this.socket = this.socketId = null;
    this.epoch += 1;
    if (!socket) return;
    socket.onmessage = socket.onclose = null;
    // `ws` emits 'error' when a connecting socket is aborted and throws if nobody listens: keep a listener.
    socket.onerror = noop;
    try {
      if (dead && socket.terminate) socket.terminate();
      // Only 1000 and 3000–4999 may be sent (browsers throw on the rest).
      else socket.close(code === 1000 || (code >= 3000 && code < 5000) ? code : 1000, reason);
    } catch {
      // Closing an already closed socket may throw in some implementations; it is gone either way.
    }
  }

  private setState(current: SocketState): void {
    const previous = this.state;
    if (previous === current) return;
    this.state = current;
    this.log('debug', `state ${previous} -> ${current}`);
    const events = this.events as unknown as Events;
    events.emit('state_change', { previous, current });
    events.emit(current);
  }
}
