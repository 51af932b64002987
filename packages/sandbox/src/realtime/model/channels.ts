import { encodeFrame } from '../protocol/frames.js';
import { type ChannelType, channelType } from '../protocol/names.js';
import type { RealtimeApp } from './apps.js';
import { ChannelCache } from './cache.js';
import { SubscriptionCounts, type SubscriptionCountThrottle } from './counts.js';
import { KeyedTimers } from './timers.js';
import type { WebhookEvent } from './webhooks.js';

/** Whoever can receive a channel's events: a connection, as the model sees it. */
export interface Subscriber {
  readonly socketId: string;
  send(text: string): void;
}

export interface PresenceMember {
  userId: string;
  info: unknown;
}

interface MemberEntry {
  info: unknown;
  /** A user may be in the channel over several connections; it is one member until the last one leaves. */
  sockets: Set<string>;
}

export class Channel {
  readonly type: ChannelType;
  readonly subscribers = new Map<string, Subscriber>();
  readonly members = new Map<string, MemberEntry>();
  readonly userBySocket = new Map<string, string>();

  constructor(readonly name: string) {
    this.type = channelType(name);
  }

  /** `{ids, hash, count}` as `pusher_internal:subscription_succeeded` carries it for presence channels. */
  presenceData(): { presence: { ids: string[]; hash: Record<string, unknown>; count: number } } {
    const ids = [...this.members.keys()];
    // User ids are anyone's: `__proto__` must be a key like any other, not the object's prototype.
    const hash: Record<string, unknown> = Object.create(null);
    for (const [id, member] of this.members) hash[id] = member.info ?? null;
    return { presence: { ids, hash, count: ids.length } };
  }
}

export type JoinResult = { ok: true; channel: Channel } | { ok: false; message: string };

export interface AppChannelsOptions {
  maxPresenceMembers: number;
  cacheTtlMs: number;
  /** How long `member_removed` and `channel_vacated` webhooks wait for the user or channel to come back. */
  leaveWebhookDelayMs: number;
  countThrottle: SubscriptionCountThrottle;
  emitWebhook(event: WebhookEvent): void;
}

/**
 * One app's channels: who is subscribed, who is present, the last event of cache channels, and the webhooks
 * those changes cause (occupied/vacated on the first/last subscriber, member_added/removed on a user's
 * first/last connection).
 *
 * The leaving half of those webhooks is delayed as Pusher delays it: "Webhooks for presence channels are
 * specifically delayed in order to debounce temporary disconnections and member removals. If a user disconnects
 * and then reconnects within 3 seconds, neither event will be delivered via webhook"
 * (https://docs.bird.com/pusher/channels/channels/webhooks/why-is-my-server-not-receiving-webhooks-channels).
 * The same debounce applies to channel_vacated/channel_occupied, so a channel re-occupied within the delay
 * produces no vacated/occupied pair. Only webhooks wait: `pusher_internal:member_removed` goes to the other
 * members at once.
 */
export class AppChannels {
  readonly #channels = new Map<string, Channel>();
  readonly cache: ChannelCache;
  /** Delayed `member_removed` / `channel_vacated` webhooks, keyed so a return within the delay calls them off. */
  readonly #leaving = new KeyedTimers();
  readonly #counts: SubscriptionCounts;

  constructor(
    readonly app: RealtimeApp,
    private readonly options: AppChannelsOptions,
  ) {
    this.cache = new ChannelCache(options.cacheTtlMs);
    this.#counts = new SubscriptionCounts(
      options.countThrottle,
      (name) => this.#channels.get(name)?.subscribers.size,
      (name) => this.#sendCount(name),
    );
  }

  get(name: string): Channel | undefined {
    return this.#channels.get(name);
  }

  all(): IterableIterator<Channel> {
    return this.#channels.values();
  }

  get size(): number {
    return this.#channels.size;
  }

  join(subscriber: Subscriber, name: string, member?: PresenceMember): JoinResult {
    const existing = this.#channels.get(name);
    if (existing?.subscribers.has(subscriber.socketId)) return { ok: true, channel: existing };
    const channel = existing ?? new Channel(name);
    if (
      member &&
      !channel.members.has(member.userId) &&
      channel.members.size >= this.options.maxPresenceMembers
    ) {
      return {
        ok: false,
        message: `Cannot subscribe to ${name}: presence channels are limited to ${this.options.maxPresenceMembers} members`,
      };
    }
    if (!existing) this.#channels.set(name, channel);
    channel.subscribers.set(subscriber.socketId, subscriber);
    if (!existing && !this.#leaving.cancel(vacatedKey(name))) {
      this.options.emitWebhook({ name: 'channel_occupied', channel: name });
    }
    if (member) {
      channel.userBySocket.set(subscriber.socketId, member.userId);
      const entry = channel.members.get(member.userId);
      if (entry) entry.sockets.add(subscriber.socketId);
      else {
        channel.members.set(member.userId, { info: member.info, sockets: new Set([subscriber.socketId]) });
        const added = encodeFrame({
          event: 'pusher_internal:member_added',
          channel: name,
          data: { user_id: member.userId, user_info: member.info },
        });
        this.#broadcast(channel, added, subscriber.socketId);
        if (!this.#leaving.cancel(memberKey(name, member.userId))) {
          this.options.emitWebhook({ name: 'member_added', channel: name, user_id: member.userId });
        }
      }
    }
    return { ok: true, channel };
  }

  /** After a join was answered: subscription counts go out once the subscriber knows it is in. */
  announceCount(channel: Channel): void {
    if (!this.app.subscriptionCounting || channel.type.kind === 'presence') return;
    this.#counts.changed(channel.name);
  }

  #sendCount(name: string): void {
    const channel = this.#channels.get(name);
    if (!channel) return;
    const count = channel.subscribers.size;
    const frame = encodeFrame({
      event: 'pusher_internal:subscription_count',
      channel: channel.name,
      data: { subscription_count: count },
    });
    this.#broadcast(channel, frame);
    this.options.emitWebhook({
      name: 'subscription_count',
      channel: channel.name,
      subscription_count: count,
    });
  }

  leave(socketId: string, name: string): void {
    const channel = this.#channels.get(name);
    if (!channel?.subscribers.delete(socketId)) return;
    const userId = channel.userBySocket.get(socketId);
    if (userId !== undefined) {
      channel.userBySocket.delete(socketId);
      const entry = channel.members.get(userId);
      entry?.sockets.delete(socketId);
      if (entry && entry.sockets.size === 0) {
        channel.members.delete(userId);
        const removed = encodeFrame({
          event: 'pusher_internal:member_removed',
          channel: name,
          data: { user_id: userId },
        });
        this.#broadcast(channel, removed);
        this.#leaveWebhook(memberKey(name, userId), {
          name: 'member_removed',
          channel: name,
          user_id: userId,
        });
      }
    }
    if (channel.subscribers.size === 0) {
      this.#channels.delete(name);
      this.#counts.forget(name);
      this.#leaveWebhook(vacatedKey(name), { name: 'channel_vacated', channel: name });
    } else {
      this.announceCount(channel);
    }
  }

  /** Sends an already encoded frame to every subscriber but `exceptSocketId`; returns how many got it. */
  publish(name: string, frame: string, exceptSocketId?: string): number {
    const channel = this.#channels.get(name);
    return channel ? this.#broadcast(channel, frame, exceptSocketId) : 0;
  }

  #broadcast(channel: Channel, frame: string, exceptSocketId?: string): number {
    let sent = 0;
    // A copy: a send can close a slow reader, which leaves the channel while we iterate.
    for (const subscriber of [...channel.subscribers.values()]) {
      if (subscriber.socketId === exceptSocketId) continue;
      subscriber.send(frame);
      sent += 1;
    }
    return sent;
  }

  #leaveWebhook(key: string, event: WebhookEvent): void {
    // No receiver, no timer: an app without webhooks holds no handles.
    if (!this.app.webhooks) return;
    if (this.options.leaveWebhookDelayMs === 0) this.options.emitWebhook(event);
    else this.#leaving.set(key, this.options.leaveWebhookDelayMs, () => this.options.emitWebhook(event));
  }

  /** Sends the delayed leave webhooks now (`idle()`: what is pending is delivered, not waited for). */
  flushLeaveWebhooks(): void {
    this.#leaving.flush();
  }

  /**
   * Forgets every channel without webhooks: the sandbox is being reset or restarted. A restart keeps the
   * delayed leave webhooks, so clients that come back within the delay produce none, as after a real blip.
   */
  clear(options: { keepCache?: boolean; keepLeaveWebhooks?: boolean } = {}): void {
    this.#channels.clear();
    this.#counts.clear();
    if (!options.keepLeaveWebhooks) this.#leaving.clear();
    if (!options.keepCache) this.cache.clear();
  }
}

// NUL cannot occur in a channel name, so the keys of two channels never collide.
const vacatedKey = (channel: string) => `vacated\u0000${channel}`;
const memberKey = (channel: string, userId: string) => `member\u0000${channel}\u0000${userId}`;
