import { CLOSE } from '../protocol/codes.js';
import { encodeFrame } from '../protocol/frames.js';
import { channelType, USER_CHANNEL_PREFIX } from '../protocol/names.js';
import type { RealtimeApp } from './apps.js';
import { AppChannels, type Subscriber } from './channels.js';
import type { RealtimeSettings } from './settings.js';
import { Watchlists } from './watchlist.js';
import type { WebhookDispatcher } from './webhooks.js';

/** A connection as the model sees it; the WebSocket layer implements it. */
export interface Peer extends Subscriber {
  readonly app: RealtimeApp;
  /** Channels this connection is subscribed to. */
  readonly channels: Set<string>;
  /** Set by a verified `pusher:signin`. */
  userId: string | null;
  /** False once closed: a send may close a slow reader, and a closed connection must not be indexed again. */
  readonly open: boolean;
  /** Signed in or subscribed to an authorized channel (see `RealtimeHub.authorize`). */
  readonly authorized: boolean;
  authorize(): void;
  /** A protocol close: code and reason reach the client. */
  close(code: number, reason: string): void;
  /** An abrupt drop: the client sees 1006. */
  terminate(): void;
}

export interface PublishedEvent {
  channel: string;
  event: string;
  data: string;
  /** Left out of delivery: the publisher's own connection (the HTTP API's `socket_id`). */
  exceptSocketId?: string;
  /** Client events on presence channels carry the sender's user id. */
  userId?: string;
}

/** Everything that lives while the sandbox runs: per app its connections, channels, signed-in users. */
export class RealtimeHub {
  readonly #byKey = new Map<string, RealtimeApp>();
  readonly #byId = new Map<string, RealtimeApp>();
  readonly #channels = new Map<RealtimeApp, AppChannels>();
  readonly #peers = new Map<RealtimeApp, Map<string, Peer>>();
  readonly #users = new Map<RealtimeApp, Map<string, Set<Peer>>>();
  readonly #watchlists = new Map<RealtimeApp, Watchlists>();
  readonly #authorized = new Map<RealtimeApp, Set<Peer>>();

  constructor(
    readonly apps: readonly RealtimeApp[],
    readonly settings: RealtimeSettings,
    readonly webhooks: WebhookDispatcher,
  ) {
    for (const app of apps) {
      this.#byKey.set(app.key, app);
      this.#byId.set(app.appId, app);
      this.#channels.set(
        app,
        new AppChannels(app, {
          maxPresenceMembers: settings.maxPresenceMembers,
          cacheTtlMs: settings.cacheTtlMs,
          leaveWebhookDelayMs: settings.webhooks.leaveDelayMs,
          countThrottle: settings.subscriptionCountThrottle,
          emitWebhook: (event) => webhooks.emit(app, event),
        }),
      );
      this.#peers.set(app, new Map());
      this.#users.set(app, new Map());
      this.#watchlists.set(app, new Watchlists());
      this.#authorized.set(app, new Set());
    }
  }

  appByKey(key: string): RealtimeApp | undefined {
    return this.#byKey.get(key);
  }

  appById(id: string): RealtimeApp | undefined {
    return this.#byId.get(id);
  }

  channels(app: RealtimeApp): AppChannels {
    return this.#channels.get(app)!;
  }

  peers(app: RealtimeApp): Map<string, Peer> {
    return this.#peers.get(app)!;
  }

  connectionCount(app?: RealtimeApp): number {
    if (app) return this.peers(app).size;
    let total = 0;
    for (const peers of this.#peers.values()) total += peers.size;
    return total;
  }

  /**
   * Whether `peer` may become authorized. With "authorized connections" only authorized connections count
   * toward `maxConnections` (Pusher: "an attacker can't connect to your Channels app to exhaust your connection
   * limit, as we do not count unauthorized connections towards your quota",
   * https://pusher.com/docs/channels/using_channels/authorized-connections), so the quota is checked here rather
   * than at the handshake, and one that would pass it is closed with 4004 (over connection quota); false then.
   */
  admitAuthorized(peer: Peer): boolean {
    if (peer.authorized || !peer.app.authorizedConnections) return true;
    if (this.#authorized.get(peer.app)!.size < peer.app.maxConnections) return true;
    peer.close(CLOSE.overConnectionQuota, 'Application is over connection quota');
    return false;
  }

  /** The connection signed in or subscribed to a private, presence or encrypted channel (see `admitAuthorized`). */
  authorize(peer: Peer): void {
    if (peer.authorized || !peer.open) return;
    peer.authorize();
    this.#authorized.get(peer.app)!.add(peer);
  }

  add(peer: Peer): void {
    this.peers(peer.app).set(peer.socketId, peer);
  }

  /** Takes a connection out of every channel and the user index; called once when it closes. */
  remove(peer: Peer): void {
    const channels = this.channels(peer.app);
    for (const name of peer.channels) channels.leave(peer.socketId, name);
    peer.channels.clear();
    this.peers(peer.app).delete(peer.socketId);
    this.#authorized.get(peer.app)!.delete(peer);
    this.#watchlists.get(peer.app)!.unwatch(peer);
    if (peer.userId !== null) this.#signOut(peer, peer.userId);
  }

  /** The user's last signed-in connection is gone: it is offline (see `Watchlists`). */
  #signOut(peer: Peer, userId: string): void {
    const users = this.#users.get(peer.app)!;
    const sockets = users.get(userId);
    if (!sockets?.delete(peer) || sockets.size > 0) return;
    users.delete(userId);
    if (peer.app.watchlistEvents) this.#watchlists.get(peer.app)!.announce('offline', userId);
  }

  /**
   * A verified signin. The user's first connection brings it online for its watchers; then this connection's
   * own `watchlist` (already checked) replaces any it had, and it hears which of those users are online.
   */
  signIn(peer: Peer, userId: string, watchlist: readonly string[] = []): void {
    // Closed by the send of its signin_success (a slow reader): `remove` has run already, so indexing it now
    // would keep the user online for good.
    if (!peer.open) return;
    const users = this.#users.get(peer.app)!;
    if (peer.userId !== null && peer.userId !== userId) {
      this.#signOut(peer, peer.userId);
      // Its old id going offline may have closed it too (it can watch that id).
      if (!peer.open) return;
    }
    peer.userId = userId;
    let sockets = users.get(userId);
    const cameOnline = !sockets;
    if (!sockets) {
      sockets = new Set();
      users.set(userId, sockets);
    }
    sockets.add(peer);
    if (!peer.app.watchlistEvents) return;
    const watchlists = this.#watchlists.get(peer.app)!;
    if (cameOnline) watchlists.announce('online', userId);
    // The announcement may have closed this very connection (it can watch the id it now signs in as).
    if (!peer.open) return;
    watchlists.watch(peer, watchlist, (id) => users.has(id));
  }

  /**
   * Delivers an event to a channel's subscribers (or, for `#server-to-user-{id}`, to the user's signed-in
   * connections) and remembers it when the channel is a cache channel. Returns how many connections got it.
   */
  publish(app: RealtimeApp, e: PublishedEvent): number {
    const frame = encodeFrame({
      event: e.event,
      channel: e.channel,
      data: e.data,
      ...(e.userId !== undefined ? { user_id: e.userId } : {}),
    });
    if (e.channel.startsWith(USER_CHANNEL_PREFIX)) {
      const userId = e.channel.slice(USER_CHANNEL_PREFIX.length);
      let sent = 0;
      for (const peer of [...(this.#users.get(app)!.get(userId) ?? [])]) {
        if (peer.socketId === e.exceptSocketId) continue;
        peer.send(frame);
        sent += 1;
      }
      return sent;
    }
    const channels = this.channels(app);
    if (channelType(e.channel).cache) channels.cache.set(e.channel, e.event, e.data);
    return channels.publish(e.channel, frame, e.exceptSocketId);
  }

  /** `terminate_connections`: every connection the user signed in on is closed with 4009. */
  terminateUser(app: RealtimeApp, userId: string, code: number, reason: string): number {
    const sockets = [...(this.#users.get(app)!.get(userId) ?? [])];
    for (const peer of sockets) peer.close(code, reason);
    return sockets.length;
  }

  allPeers(): Peer[] {
    return [...this.#peers.values()].flatMap((peers) => [...peers.values()]);
  }

  /** Sends every delayed leave webhook now. */
  flushLeaveWebhooks(): void {
    for (const channels of this.#channels.values()) channels.flushLeaveWebhooks();
  }

  /** Forgets channels, presence, users and watchlists (and the caches and delayed webhooks unless kept). */
  clear(options: { keepCache?: boolean; keepLeaveWebhooks?: boolean } = {}): void {
    for (const channels of this.#channels.values()) channels.clear(options);
    for (const users of this.#users.values()) users.clear();
    for (const watchlists of this.#watchlists.values()) watchlists.clear();
    for (const authorized of this.#authorized.values()) authorized.clear();
  }
}
