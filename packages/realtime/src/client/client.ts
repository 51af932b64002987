import type { ChannelEventsOf, Contract } from '../shared/contract.js';
import { channelKind, channelNameProblem } from '../shared/names.js';
import { authenticateUser, authorizeChannel, type ChannelAuthData, relativeEndpoint } from './auth.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import { Channel, type EventMap, PrivateChannel } from './channel.js';
import { ClientEventQueue } from './client-events.js';
import { type Clock, systemClock } from './clock.js';
import { Connection } from './connection.js';
import { EncryptedChannel } from './encrypted.js';
import { ValidationError } from './errors.js';
import { type Log, makeLog } from './log.js';
import { type RealtimeClientOptions, type Settings, settle } from './options.js';
import { PresenceChannel } from './presence.js';
import { connectionUrl, type Frame } from './protocol.js';
import { defaultWebSocketFactory } from './socket/websocket.js';
import { User, type UserHost } from './user.js';

/**
 * The channel class a name's prefix gives, so `members` needs no cast (pusher-js#529), with the events a
 * contract declares for it. Encrypted channels are not typed by a contract yet.
 */
export type ChannelFor<
  Name extends string,
  UserInfo = Record<string, unknown>,
  Events extends EventMap = {},
> = Name extends `presence-${string}`
  ? PresenceChannel<UserInfo, Events>
  : Name extends `private-encrypted-${string}`
    ? EncryptedChannel
    : Name extends `private-${string}`
      ? PrivateChannel<Events>
      : Channel<Events>;

export type AnyChannel = Channel | PrivateChannel | PresenceChannel<unknown> | EncryptedChannel;

/**
 * A Pusher Channels (protocol 7) client. Construction has no side effects; `connect()` opens the socket.
 * `UserInfo` types the `user_info` of presence members; `C`, the `contract` option, types channel events.
 */
export class RealtimeClient<
  UserInfo = Record<string, unknown>,
  // Any contract, none in particular: untyped, so `RealtimeClient<Info>` takes whatever options it is given.
  C extends Contract | undefined = Contract | undefined,
> {
  readonly key: string;
  /** State, `socketId`, and `bind('state_change' | 'connected' | … | 'error', cb)`. */
  readonly connection: Connection;
  /** `signin()`, and events the server sends to the signed-in user. */
  readonly user: User;
  private readonly channels = new Map<string, AnyChannel>();
  private readonly clientEvents: ClientEventQueue;
  private readonly options: Settings;
  private readonly log: Log;
  private readonly host: UserHost;
  private removeNetworkListeners: (() => void) | null = null;

  constructor(key: string, options: RealtimeClientOptions<C> = {}) {
    const settings = settle(key, options);
    const host = settings.wsHost || `ws-${settings.cluster}.pusher.com`;
    // An endpoint given outright is checked now; the defaults (relative too) only fail if a channel needs them.
    for (const path of ['channelAuthorization', 'userAuthentication'] as const) {
      const auth = options[path];
      const problem = auth && 'endpoint' in auth && relativeEndpoint(auth.endpoint);
      if (problem) throw new ValidationError('options', [{ path: `${path}.endpoint`, message: problem }]);
    }
    this.key = key;
    this.options = settings;
    this.log = makeLog(options.logger, options.logLevel);
    const clock = options.clock ?? systemClock;
    const factory = options.webSocketFactory;
    this.connection = new Connection({
      url: (tls) =>
        connectionUrl({
          key,
          host,
          tls,
          port: tls ? settings.wssPort : settings.wsPort,
          path: settings.wsPath,
        }),
      tls: settings.forceTLS,
      activityTimeoutMs: settings.activityTimeout,
      pongTimeoutMs: settings.pongTimeout,
      connectTimeoutMs: settings.connectTimeout,
      backoff: { ...DEFAULT_BACKOFF, ...options.reconnect },
      factory: factory ? () => factory : defaultWebSocketFactory,
      diagnose: (url, event) => import('#websocket').then((m) => m.plainHttp?.(url, event)),
      clock,
      random: options.random ?? Math.random,
      log: this.log,
    });
    this.host = this.makeHost(clock);
    // Only a client given a contract reaches the validation code, through the contract itself.
    options.contract?.guard(this.host, settings, ValidationError);
    this.user = new User(this.host);
    this.clientEvents = new ClientEventQueue(
      settings.clientEventBuffer,
      clock,
      (name) => this.connection.state === 'connected' && this.channels.get(name)?.isSubscribed === true,
      (channel, event, data) => this.connection.send(event, data, channel),
    );
    this.connection.bind('state_change', ({ current }: { current: string }) => this.stateChanged(current));
    this.connection.bind('message', (frame: Frame) => this.route(frame));
  }

  /** Opens the connection (and keeps it open, reconnecting, until `disconnect()`). */
  connect(): void {
    this.listenToNetwork();
    this.connection.connect();
  }

  /**
   * Closes the connection and stops reconnecting. Channels stay in the table and resubscribe on `connect()`;
   * held client events are dropped, since they were meant for a connection the app chose to end. Idempotent.
   */
  disconnect(): void {
    this.removeNetworkListeners?.();
    this.removeNetworkListeners = null;
    this.clientEvents.clear();
    this.connection.disconnect();
  }

  /** Subscribes (now if connected, else on connect) and returns the channel typed by the name's prefix. */
  subscribe<Name extends string>(name: Name): ChannelFor<Name, UserInfo, ChannelEventsOf<C, Name>> {
    const existing = this.channels.get(name);
    if (existing) {
      // Subscribing again after a refusal (say, the user just logged in) is the retry.
      if (existing.failedAttempt && this.connection.state === 'connected') void existing.subscribe();
      return existing as ChannelFor<Name, UserInfo, ChannelEventsOf<C, Name>>;
    }
    const problem = channelNameProblem(name);
    if (problem) throw new ValidationError('channel name', [{ path: 'name', message: problem }]);
    const kind = channelKind(name);
    const channel: AnyChannel =
      kind === 'presence'
        ? new PresenceChannel<UserInfo>(name, this.host)
        : kind === 'encrypted'
          ? new EncryptedChannel(name, this.host)
          : kind === 'private'
            ? new PrivateChannel(name, this.host)
            : new Channel(name, this.host);
    this.channels.set(name, channel);
    if (this.connection.state === 'connected') void channel.subscribe();
    else this.refuse(channel);
    return channel as ChannelFor<Name, UserInfo, ChannelEventsOf<C, Name>>;
  }

  /** Leaves a channel: tells the server, drops its queued client events, and forgets it. */
  unsubscribe(name: string): void {
    const channel = this.channels.get(name);
    if (!channel) return;
    this.channels.delete(name);
    this.clientEvents.forget(name);
    // A subscribe on its way (sent, unanswered) subscribes the socket when it arrives: it is left too.
    if (channel.isSubscribed || channel.answer.pending)
      this.connection.send('pusher:unsubscribe', { channel: name });
    channel.close();
  }

  channel(name: string): AnyChannel | undefined {
    return this.channels.get(name);
  }

  allChannels(): AnyChannel[] {
    return [...this.channels.values()];
  }

  /** Shorthand for `client.user.signin()`. */
  signin(): ReturnType<User['signin']> {
    return this.user.signin();
  }

  private stateChanged(current: string): void {
    if (current === 'connected') {
      for (const channel of this.channels.values()) void channel.subscribe();
      this.user.connected();
    } else {
      for (const channel of this.channels.values()) {
        channel.lost();
        this.refuse(channel);
      }
      this.user.lost();
    }
  }

  /** While `failed`, nothing will subscribe the channel until `connect()`: its waiters are told why. */
  private refuse(channel: AnyChannel): void {
    const failure = this.connection.state === 'failed' && this.connection.failure;
    if (failure)
      channel.failed({ type: 'ConnectionFailed', error: failure.message, closeCode: failure.closeCode });
  }

  private route(frame: Frame): void {
    if (this.user.handle(frame)) return;
    let name = frame.channel ?? '';
    if (frame.event === 'pusher:error' && !name) {
      // Pusher refuses a subscription (a bad signature, say) with a `pusher:error` that has code null and no
      // channel; only the message names it ("Invalid signature: Expected HMAC SHA256 hex digest of
      // 1.2:private-x, but got …"). It goes to the channel awaiting an answer whose name the message contains,
      // the longest, so `private-ab` is not taken for `private-a`. If none matches, `subscriptionTimeout`
      // ends the wait.
      const message = String((frame.data as { message?: unknown })?.message);
      for (const { name: candidate, answer } of this.channels.values()) {
        if (answer.pending && candidate.length > name.length && message.includes(candidate)) name = candidate;
      }
    }
    // Frames for a channel just left can still arrive; they have nobody to go to.
    this.channels.get(name)?.handle(frame);
  }

  private makeHost(clock: Clock): UserHost {
    const { options, connection } = this;
    return {
      get socketId() {
        return connection.socketId;
      },
      get connected() {
        return connection.state === 'connected';
      },
      send: (event, data, channel) => connection.send(event, data, channel),
      authorize: (channelName, socketId): Promise<ChannelAuthData> =>
        authorizeChannel(options.channelAuthorization ?? { endpoint: '/pusher/auth' }, socketId, channelName),
      authenticate: (socketId) =>
        authenticateUser(options.userAuthentication ?? { endpoint: '/pusher/user-auth' }, socketId),
      clientEvent: (channel, event, data) => this.clientEvents.push(channel, event, data),
      userId: () => this.user.data?.id ?? null,
      unsubscribe: (channel) => this.unsubscribe(channel),
      subscribed: () => this.clientEvents.pump(),
      clock,
      subscriptionTimeoutMs: options.subscriptionTimeout,
      log: this.log,
    };
  }

  /** Browsers say when the network goes and comes back; elsewhere (Node, SSR, workers) there is no window. */
  private listenToNetwork(): void {
    const target = (globalThis as { window?: Pick<Window, 'addEventListener' | 'removeEventListener'> })
      .window;
    if (this.removeNetworkListeners || typeof target?.addEventListener !== 'function') return;
    const online = () => this.connection.online();
    const offline = () => this.connection.offline();
    target.addEventListener('online', online);
    target.addEventListener('offline', offline);
    this.removeNetworkListeners = () => {
      target.removeEventListener('online', online);
      target.removeEventListener('offline', offline);
    };
  }
}
