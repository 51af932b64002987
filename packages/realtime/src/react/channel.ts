import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { Channel, ChannelEvents, EventMetadata, ResubscribedData } from '../client/channel.js';
import type { PresenceChannel, PresenceEvents } from '../client/presence.js';
import { type ChannelOf, type RegisteredClient, useRealtimeClient } from './context.js';
import { type AnyClient, leaseOf } from './lease.js';

/** The events a channel type knows by name: presence ones for presence channels. */
export type EventsOf<Ch> =
  Ch extends PresenceChannel<infer UserInfo> ? PresenceEvents<UserInfo> : ChannelEvents;

/**
 * Subscribes to `name` while the component is mounted and returns the channel, typed by its prefix (and by
 * the registered client). Components on the same name share one subscription, left once the last of them
 * unmounts. Null while rendering on the server, before the first effect, and for a null `name`.
 */
export function useChannel<Name extends string, Client extends AnyClient = RegisteredClient>(
  name: Name | null | undefined,
): ChannelOf<Client, Name> | null {
  const lease = leaseOf(useRealtimeClient());
  useEffect(() => (name ? lease.retainChannel(name) : undefined), [lease, name]);
  const channel = useSyncExternalStore(
    lease.onChange,
    () => (name && lease.holders(name) > 0 ? lease.channel(name) : null),
    () => null,
  );
  return channel as ChannelOf<Client, Name> | null;
}

// React warns about useLayoutEffect in server rendering (before 19); there is nothing to bind there anyway.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Calls `handler` for `event` on `channel` (as `useChannel` returns it; nothing while null). The latest
 * handler is called without binding again, so an inline arrow function is fine.
 */
export function useEvent<Ch extends Channel, K extends keyof EventsOf<Ch> & string>(
  channel: Ch | null | undefined,
  event: K,
  handler: (data: EventsOf<Ch>[K], metadata: EventMetadata) => void,
): void;
/** An app event: `T` is its payload, as the publisher sent it. */
export function useEvent<T = unknown>(
  channel: Channel | null | undefined,
  event: string,
  handler: (data: T, metadata: EventMetadata) => void,
): void;
export function useEvent(
  channel: Channel | null | undefined,
  event: string,
  handler: (data: unknown, metadata: EventMetadata) => void,
): void {
  const latest = useRef(handler);
  useIsomorphicLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!channel) return;
    const call = (data: unknown, metadata: EventMetadata) => latest.current(data, metadata);
    channel.bind(event, call);
    return () => void channel.unbind(event, call);
  }, [channel, event]);
}

/**
 * Calls `handler` with `{ gapMs }` when `channel` is subscribed again after a reconnect. Pusher keeps no
 * history: refetch whatever the gap may have hidden.
 */
export function useResubscribed(
  channel: Channel | null | undefined,
  handler: (data: ResubscribedData) => void,
): void {
  useEvent<ResubscribedData>(channel, 'pusher:resubscribed', handler);
}

const SUBSCRIPTION_EVENTS = ['pusher:subscription_succeeded', 'pusher:subscription_error'] as const;

/** Whether `channel` is subscribed now: true after the server's answer, false again when the connection drops. */
export function useSubscribed(channel: Channel | null | undefined): boolean {
  const { connection } = useRealtimeClient();
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!channel) return () => {};
      for (const event of SUBSCRIPTION_EVENTS) channel.bind(event, changed);
      connection.bind('state_change', changed);
      return () => {
        for (const event of SUBSCRIPTION_EVENTS) channel.unbind(event, changed);
        connection.unbind('state_change', changed);
      };
    },
    [channel, connection],
  );
  return useSyncExternalStore(
    subscribe,
    () => channel?.isSubscribed === true,
    () => false,
  );
}
