import { randomInt } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { RealtimeApp } from '../model/apps.js';
import type { Peer } from '../model/hub.js';
import type { RealtimeSettings } from '../model/settings.js';
import { CLOSE, closeReason } from '../protocol/codes.js';
import { encodeFrame, errorFrame } from '../protocol/frames.js';

/** Counters the sandbox handle reports. */
export interface SocketCounters {
  opened: number;
  messagesIn: number;
  messagesOut: number;
  /** Connections closed for not draining their send buffer. */
  slowClosed: number;
}

/** A socket id as Pusher makes them: two integers joined by a dot (the server SDKs check `^\d+\.\d+$`). */
export function newSocketId(): string {
  return `${randomInt(1, 2 ** 31 - 1)}.${randomInt(1, 2 ** 31 - 1)}`;
}

/**
 * One client connection: what it is subscribed to, its liveness check, its send buffer bound. The activity
 * check runs as Pusher describes it: after `activity_timeout` seconds with nothing from the client the server
 * sends `pusher:ping`, and closes with 4201 when nothing comes back within the pong timeout.
 */
export class Connection implements Peer {
  readonly socketId = newSocketId();
  readonly channels = new Set<string>();
  userId: string | null = null;
  /** The signed-in user's `user_info`, used for presence subscriptions authorized without channel_data. */
  userInfo: unknown;
  /** Accepted while the sandbox was silent: `connection_established` goes out when it speaks again. */
  pendingStart = false;
  /** `performance.now()` of each accepted client event in the last second, for the per-connection limit. */
  readonly clientEventTimes: number[] = [];
  #lastSeen = performance.now();
  #activityTimer: NodeJS.Timeout | null = null;
  #pongTimer: NodeJS.Timeout | null = null;
  #authorizeTimer: NodeJS.Timeout | null = null;
  #authorized = false;
  /** The authorization window ended while the sandbox was silent. */
  #authorizeOverdue = false;
  #silent = false;
  #gone = false;

  constructor(
    readonly app: RealtimeApp,
    private readonly ws: WebSocket,
    private readonly settings: RealtimeSettings,
    private readonly counters: SocketCounters,
    /** Called once, when the connection is closed by either side. */
    private readonly onGone: (connection: Connection) => void,
  ) {
    ws.on('close', () => this.#dispose());
    ws.on('error', () => this.terminate());
    // A protocol-level ping or pong from the client counts as activity too.
    ws.on('ping', () => this.touch());
    ws.on('pong', () => this.touch());
  }

  get open(): boolean {
    return !this.#gone;
  }

  get authorized(): boolean {
    return this.#authorized;
  }

  get silent(): boolean {
    return this.#silent;
  }

  start(): void {
    this.send(
      encodeFrame({
        event: 'pusher:connection_established',
        data: { socket_id: this.socketId, activity_timeout: this.settings.activityTimeoutSeconds },
      }),
    );
    this.#scheduleActivityCheck(this.settings.activityTimeoutSeconds * 1000);
    if (this.app.authorizedConnections && !this.#authorized && !this.#authorizeTimer) {
      this.#authorizeTimer = setTimeout(
        () => this.#authorizeTimedOut(),
        this.settings.authorizedConnectionTimeoutMs,
      );
      this.#authorizeTimer.unref();
    }
  }

  /**
   * The connection signed in or subscribed to a private or presence channel: with "authorized connections" on,
   * that is what keeps it open. Pusher: "We categorize an authorized connection as one that has subscribed to at
   * least one authorized channel (private- or presence-). If you have this feature enabled and a connection does
   * not subscribe to at least one private- or presence- channel, it will be kicked off after a timeout"
   * (https://pusher.com/docs/channels/using_channels/authorized-connections); the feature is built on user
   * authentication, so a signin counts too. The close is 4009, "Connection is unauthorized" on
   * https://pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol (4000-4099: pusher-js
   * does not reconnect). Called through `RealtimeHub.authorize`, which also counts it toward the quota.
   */
  authorize(): void {
    this.#authorized = true;
    if (!this.#authorizeTimer) return;
    clearTimeout(this.#authorizeTimer);
    this.#authorizeTimer = null;
  }

  #authorizeTimedOut(): void {
    this.#authorizeTimer = null;
    // A silent sandbox sends nothing, not even this close: it goes out when the sandbox speaks again.
    if (this.#silent) this.#authorizeOverdue = true;
    else this.close(CLOSE.unauthorized, 'Connection not authorized within timeout');
  }

  /** Sends a frame unless the connection is closing or silenced; a reader that does not drain is closed. */
  send(text: string): void {
    if (this.#gone || this.#silent) return;
    if (this.ws.bufferedAmount > this.settings.maxBufferedBytes) {
      this.counters.slowClosed += 1;
      this.close(CLOSE.overCapacity, 'Send buffer full: the client does not read its messages');
      return;
    }
    this.counters.messagesOut += 1;
    this.ws.send(text);
  }

  sendError(code: number | null, message: string, channel?: string): void {
    this.send(errorFrame(code, message, channel));
  }

  touch(): void {
    this.#lastSeen = performance.now();
    if (this.#pongTimer) {
      clearTimeout(this.#pongTimer);
      this.#pongTimer = null;
    }
  }

  #scheduleActivityCheck(ms: number): void {
    if (this.#activityTimer) clearTimeout(this.#activityTimer);
    this.#activityTimer = setTimeout(() => this.#checkActivity(), ms);
    this.#activityTimer.unref();
  }

  // One timer re-armed for the time left, not one reset per message: a busy socket costs nothing here.
  #checkActivity(): void {
    if (this.#gone) return;
    const timeoutMs = this.settings.activityTimeoutSeconds * 1000;
    const idleMs = performance.now() - this.#lastSeen;
    if (this.#silent || idleMs < timeoutMs) {
      this.#scheduleActivityCheck(Math.max(10, timeoutMs - idleMs));
      return;
    }
    if (!this.#pongTimer) {
      this.send(encodeFrame({ event: 'pusher:ping', data: {} }));
      this.#pongTimer = setTimeout(() => {
        if (!this.#silent) this.close(CLOSE.pongNotReceived, 'Pong reply not received');
      }, this.settings.pongTimeoutMs);
      this.#pongTimer.unref();
    }
    this.#scheduleActivityCheck(timeoutMs);
  }

  /** Stops reading and writing (a server gone quiet): no pongs, no events, no activity check. */
  silence(): void {
    if (this.#gone || this.#silent) return;
    this.#silent = true;
    this.ws.pause();
  }

  unsilence(): void {
    if (!this.#silent) return;
    this.#silent = false;
    this.touch();
    if (this.#gone) return;
    this.ws.resume();
    if (this.#authorizeOverdue) {
      this.#authorizeOverdue = false;
      this.close(CLOSE.unauthorized, 'Connection not authorized within timeout');
      return;
    }
    if (this.pendingStart) {
      this.pendingStart = false;
      this.start();
    }
  }

  close(code: number, reason: string): void {
    if (this.#gone) return;
    const ws = this.ws;
    this.#dispose();
    try {
      ws.close(code, closeReason(reason));
    } catch {
      ws.terminate();
      return;
    }
    // A client that never answers the close frame (or never reads it) is dropped after a second.
    setTimeout(() => ws.terminate(), 1000).unref();
  }

  terminate(): void {
    this.#dispose();
    this.ws.terminate();
  }

  #dispose(): void {
    if (this.#gone) return;
    this.#gone = true;
    if (this.#activityTimer) clearTimeout(this.#activityTimer);
    if (this.#pongTimer) clearTimeout(this.#pongTimer);
    if (this.#authorizeTimer) clearTimeout(this.#authorizeTimer);
    this.onGone(this);
  }
}
