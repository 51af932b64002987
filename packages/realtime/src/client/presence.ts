import { AuthFailure } from './auth.js';
import {
  type BindableEvent,
  type ChannelEvents,
  type EventMap,
  type EventMetadata,
  PrivateChannel,
} from './channel.js';
import type { Callback } from './emitter.js';
import type { Frame } from './protocol.js';

/** One member of a presence channel: the id and `user_info` the app's auth endpoint signed. */
export interface Member<UserInfo = Record<string, unknown>> {
  id: string;
  info: UserInfo;
}

/** The members of a presence channel, kept current by `member_added` and `member_removed`. */
export class Members<UserInfo = Record<string, unknown>> {
  private map = new Map<string, UserInfo>();
  private myId: string | null = null;
  /** This connection's own member, once subscribed. */
  me: Member<UserInfo> | null = null;

  get count(): number {
    return this.map.size;
  }

  get(id: string): Member<UserInfo> | null {
    const info = this.map.get(id);
    return info === undefined && !this.map.has(id) ? null : { id, info: info as UserInfo };
  }

  each(callback: (member: Member<UserInfo>) => void): void {
    for (const [id, info] of this.map) callback({ id, info });
  }

  /** @internal */
  setMyId(id: string): void {
    this.myId = id;
  }

  /** @internal `{presence: {ids, hash, count}}` from `subscription_succeeded` replaces the whole set. */
  replace(data: unknown): void {
    const hash = (data as { presence?: { hash?: Record<string, UserInfo> } })?.presence?.hash ?? {};
    this.map = new Map(Object.entries(hash));
    this.me = this.myId === null ? null : this.get(this.myId);
  }

  /** @internal Returns the member, or null when it was already there (a second connection of the same user). */
  add(data: unknown): Member<UserInfo> | null {
    const { user_id, user_info } = data as { user_id?: unknown; user_info?: UserInfo };
    if (user_id === undefined || user_id === null) return null;
    const id = String(user_id);
    const known = this.map.has(id);
    this.map.set(id, user_info as UserInfo);
    return known ? null : { id, info: user_info as UserInfo };
  }

  /** @internal */
  remove(data: unknown): Member<UserInfo> | null {
    const id = String((data as { user_id?: unknown })?.user_id);
    const member = this.get(id);
    this.map.delete(id);
    return member;
  }

  /** @internal */
  reset(): void {
    this.map.clear();
    this.me = null;
  }
}

export interface PresenceEvents<UserInfo> extends ChannelEvents {
  'pusher:subscription_succeeded': Members<UserInfo>;
  'pusher:member_added': Member<UserInfo>;
  'pusher:member_removed': Member<UserInfo>;
}

/** A `presence-` channel: a private channel that also knows who else is in it. `Events` as on `Channel`. */
export class PresenceChannel<
  UserInfo = Record<string, unknown>,
  Events extends EventMap = {},
> extends PrivateChannel<Events> {
  readonly members = new Members<UserInfo>();

  override bind<K extends keyof PresenceEvents<UserInfo>>(
    event: K,
    callback: (data: PresenceEvents<UserInfo>[K]) => void,
  ): this;
  override bind<K extends keyof Events & string>(
    event: K,
    callback: (data: Events[K], metadata: EventMetadata) => void,
  ): this;
  override bind<T = unknown>(
    event: BindableEvent<Events>,
    callback: (data: T, metadata: EventMetadata) => void,
  ): this;
  override bind(event: string, callback: Callback): this {
    return super.bind(event as never, callback);
  }

  /** Typed shorthand for `bind('pusher:member_added', …)`. */
  onMemberAdded(callback: (member: Member<UserInfo>) => void): this {
    return this.bind('pusher:member_added', callback);
  }

  /** Typed shorthand for `bind('pusher:member_removed', …)`. */
  onMemberRemoved(callback: (member: Member<UserInfo>) => void): this {
    return this.bind('pusher:member_removed', callback);
  }

  override lost(): void {
    super.lost();
    this.members.reset();
  }

  protected override async subscriptionData(socketId: string): Promise<Record<string, unknown>> {
    const auth = await this.host.authorize(this.name, socketId);
    if (typeof auth.channel_data === 'string') {
      let parsed: { user_id?: unknown };
      try {
        parsed = JSON.parse(auth.channel_data);
      } catch {
        throw new AuthFailure('channel_data in the auth response is not JSON', 200);
      }
      this.members.setMyId(String(parsed.user_id));
      // Sent byte for byte as received: the signature covers this exact string.
      return { auth: auth.auth, channel_data: auth.channel_data };
    }
    // Since pusher-js 7.4 a signed-in user may be authorized without channel_data; the id comes from signin.
    const userId = this.host.userId();
    if (userId === null) throw new AuthFailure('no channel_data and no signed-in user', 200);
    this.members.setMyId(userId);
    return { auth: auth.auth };
  }

  protected override subscribedPayload(data: unknown): unknown {
    this.members.replace(data);
    return this.members;
  }

  protected override internal(frame: Frame): void {
    if (frame.event === 'pusher_internal:member_added') {
      const member = this.members.add(frame.data);
      if (member) this.emitter.emit('pusher:member_added', member);
    } else if (frame.event === 'pusher_internal:member_removed') {
      const member = this.members.remove(frame.data);
      if (member) this.emitter.emit('pusher:member_removed', member);
    } else {
      super.internal(frame);
    }
  }
}
