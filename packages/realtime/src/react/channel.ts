import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type {
  BindableEvent,
  Channel,
  ChannelEvents,
  EventMetadata,
  ResubscribedData,
} from '../client/channel.js';
import type { PresenceChannel, PresenceEvents } from '../client/presence.js';
import { type ChannelOf, type RegisteredClient, useRealtimeClient } from './context.js';
import { type AnyClient, leaseOf } from './lease.js';

/**
 * A contract's events of a channel type (`{}` when it has none), read from its type-only `~events` field:
 * `Events` is otherwise only behind `bind`'s overloads, where the compiler cannot infer it, and a public
 * channel's events were left untyped.
 */
type ContractEventsOf<Ch> = Ch extends { readonly '~events'?: infer Events } ? NonNullable<Events> : {};

/** The events a channel type knows by name: the reserved ones (presence ones on presence channels) and its contract's. */
export type EventsOf<Ch> = (Ch extends PresenceChannel<infer UserInfo>
  ? PresenceEvents<UserInfo>
  : ChannelEvents) &
  ContractEventsOf<Ch>;

/** Names `useEvent` takes on a channel type: its known events, and any other name unless a contract lists them. */
export type EventNameOf<Ch> = (keyof EventsOf<Ch> & string) | BindableEvent<ContractEventsOf<Ch>>;

/** The payload of `K` on a channel type: known events are typed, others `unknown`. */
export type EventDataOf<Ch, K> = K extends keyof EventsOf<Ch> ? EventsOf<Ch>[K] : unknown;

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
 * handler is called without binding again, so an inline arrow function is fine. The payload is typed by the
 * channel (reserved events, a contract's); `useEvent<T>(…)` types an app event of an untyped channel.
 */
export function useEvent<
  T = never,
  Ch extends Channel = Channel,
  K extends EventNameOf<Ch> = EventNameOf<Ch>,
>(
  channel: Ch | null | undefined,
  event: K,
  handler: (data: [T] extends [never] ? EventDataOf<Ch, K> : T, metadata: EventMetadata) => void,
): void {
  // The types are the signature's; inside, any channel binds any name.
  const latest = useRef(handler as (data: unknown, metadata: EventMetadata) => void);
  useIsomorphicLayoutEffect(() => {
    latest.current = handler as (data: unknown, metadata: EventMetadata) => void;
  });
  useEffect(() => {
    const target = channel as Channel | null | undefined;
    if (!target) return;
    const call = (data: unknown, metadata: EventMetadata) => latest.current(data, metadata);
    target.bind(event as string, call);
    return () => void target.unbind(event, call);
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
  useEvent(channel, 'pusher:resubscribed', handler);
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
