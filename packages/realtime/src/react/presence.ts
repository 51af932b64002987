import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { Member, PresenceChannel } from '../client/presence.js';
import { useRealtimeClient } from './context.js';

export interface PresenceState<UserInfo> {
  /** Everyone in the channel, this connection's user included, in the order they came. */
  members: readonly Member<UserInfo>[];
  /** This connection's own member, once subscribed. */
  me: Member<UserInfo> | null;
}

const EMPTY: PresenceState<never> = Object.freeze({ members: Object.freeze([]), me: null });
const MEMBER_EVENTS = [
  'pusher:subscription_succeeded',
  'pusher:member_added',
  'pusher:member_removed',
] as const;

/**
 * The members of a presence channel (as `useChannel('presence-…')` returns it), re-rendering when someone
 * joins or leaves, and empty while not subscribed (the members are dropped with the connection).
 */
export function usePresence<UserInfo>(
  channel: PresenceChannel<UserInfo> | null | undefined,
): PresenceState<UserInfo> {
  const { connection } = useRealtimeClient();
  // The snapshot is rebuilt only after an event, so React sees the same object between changes.
  const cache = useRef<{
    channel: PresenceChannel<UserInfo>;
    version: number;
    state: PresenceState<UserInfo>;
  }>(null);
  const version = useRef(0);
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!channel) return () => {};
      const bump = () => {
        version.current += 1;
        changed();
      };
      for (const event of MEMBER_EVENTS) channel.bind(event, bump);
      // A lost connection empties the members without a channel event (`PresenceChannel.lost`).
      connection.bind('state_change', bump);
      return () => {
        for (const event of MEMBER_EVENTS) channel.unbind(event, bump);
        connection.unbind('state_change', bump);
      };
    },
    [channel, connection],
  );
  const read = (): PresenceState<UserInfo> => {
    if (!channel) return EMPTY;
    const held = cache.current;
    if (held?.channel === channel && held.version === version.current) return held.state;
    const members: Member<UserInfo>[] = [];
    if (channel.isSubscribed) channel.members.each((member) => members.push(member));
    const state = { members, me: channel.isSubscribed ? channel.members.me : null };
    cache.current = { channel, version: version.current, state };
    return state;
  };
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}
