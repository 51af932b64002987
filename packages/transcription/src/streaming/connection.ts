import {
  type BackoffOptions,
  type CloseVerdict,
  ReconnectingSocket,
  type SocketClose,
  type SocketLog,
  type WebSocketFactory,
} from '@x/core/socket';
import type { QueueItem } from './audio-queue.js';

/** What the transcriber decides for its connection: the protocol side of the reconnecting socket. */
export interface ConnectionHost {
  /** Each attempt's URL (a fresh token from `getToken` each time). */
  url(): Promise<string>;
  factory(): Promise<WebSocketFactory>;
  message(data: unknown): void;
  classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict;
  openFailed(error: unknown): CloseVerdict;
  /** The heartbeat found the service quiet: ping it (a WebSocket ping, where the socket can). */
  ping(): void;
}

export interface ConnectionSettings {
  connectTimeoutMs: number;
  heartbeat: { idleMs: number; timeoutMs: number } | undefined;
  reconnect: { backoff: BackoffOptions } | undefined;
  log: SocketLog | undefined;
}

/** The close an attempt whose token did not come within the connect timeout stands for. */
const TOKEN_TIMEOUT: SocketClose = { code: 1006, reason: 'connect timeout' };

/**
 * The log with each socket event in its arguments reduced to its error: @x/core logs `ws`'s ErrorEvent as it
 * is, and its target, the WebSocket, holds the URL with `?token=` and the upgrade request with the API key.
 */
function withoutSockets(log: SocketLog): SocketLog {
  const safe = (arg: unknown) =>
    arg === null || typeof arg !== 'object' || arg instanceof Error
      ? arg
      : ((arg as { error?: unknown }).error ?? (arg as { message?: unknown }).message ?? '(socket event)');
  return (level, message, ...args) => log(level, message, ...args.map(safe));
}

/**
 * The streaming protocol on @x/core's reconnecting socket (state machine, connect timeout, heartbeat,
 * full-jitter backoff): each hook goes to the transcriber, and the few protected moves it needs are made
 * public here.
 */
export class StreamingConnection extends ReconnectingSocket {
  readonly #host: ConnectionHost;

  constructor(host: ConnectionHost, settings: ConnectionSettings) {
    super({
      factory: () => host.factory(),
      connectTimeoutMs: settings.connectTimeoutMs,
      activityTimeoutMs: settings.heartbeat?.idleMs,
      pongTimeoutMs: settings.heartbeat?.timeoutMs,
      backoff: settings.reconnect?.backoff,
      log: settings.log && withoutSockets(settings.log),
    });
    this.#host = host;
  }

  /** Sends if a session is running (`Begin` came); false otherwise. */
  send(item: QueueItem): boolean {
    return this.sendRaw(item);
  }

  /** `Begin` arrived: the session is up, the heartbeat runs. */
  begin(): void {
    this.established();
  }

  /** A message or a pong arrived: the link is alive. */
  traffic(): void {
    this.alive();
  }

  /** Bytes the socket holds unsent. */
  get bufferedAmount(): number {
    return this.socket?.bufferedAmount ?? 0;
  }

  /**
   * @x/core's connect timeout starts with the socket, after the token: a `getToken()` that never answers
   * would hold `connect()` (or a reconnect, and `close()` behind it) forever, so it gets the same time.
   */
  protected url(): Promise<string> {
    const ms = this.options.connectTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(TOKEN_TIMEOUT), ms);
      this.#host
        .url()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  }

  protected message(data: unknown): void {
    this.#host.message(data);
  }

  protected classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict {
    return this.#host.classify(close, wasConnected, errorEvent);
  }

  protected override openFailed(error: unknown): CloseVerdict {
    // A token that never came ends the attempt as a connect timeout does (a TimeoutError, or a retry).
    if (error === TOKEN_TIMEOUT) return this.#host.classify(TOKEN_TIMEOUT, false, undefined);
    return this.#host.openFailed(error);
  }

  protected override ping(): void {
    this.#host.ping();
  }

  /** No pong: the link died without closing (a stalled peer, a NAT that forgot it). */
  protected override dead(): void {
    this.lost(1006, 'heartbeat timeout');
  }
}
