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

  protected url(): Promise<string> {
    return this.#host.url();
  }

  protected message(data: unknown): void {
    this.#host.message(data);
  }

  protected classify(close: SocketClose, wasConnected: boolean, errorEvent: unknown): CloseVerdict {
    return this.#host.classify(close, wasConnected, errorEvent);
  }

  protected override openFailed(error: unknown): CloseVerdict {
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
