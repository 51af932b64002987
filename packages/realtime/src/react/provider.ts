import { createElement, type ReactNode, useEffect, useMemo } from 'react';
import type { RealtimeClientOptions } from '../client/options.js';
// Values come through the main entry, so the build shares its copy (tsup.config.ts).
import { RealtimeClient } from '../index.js';
import { ClientContext } from './context.js';
import { type AnyClient, leaseOf } from './lease.js';
import { userStore } from './user-store.js';

export type RealtimeProviderProps = { children?: ReactNode } & (
  | { client: AnyClient; appKey?: never; options?: never }
  | {
      client?: never;
      /** The app key; the client is made from it and `options` once, and again only for another key. */
      appKey: string;
      options?: RealtimeClientOptions;
    }
);

/**
 * Gives its subtree a client and owns the socket: connected after mount, disconnected when the last
 * provider of that client unmounts (unless the app had connected that client itself: then it is the app's). Nothing connects while rendering, so server rendering opens no
 * socket, and StrictMode's double mount keeps the one socket (see `Lease`).
 */
export function RealtimeProvider(props: RealtimeProviderProps): ReactNode {
  const { client: given, appKey, children } = props;
  // Options are read when the client is made: an object literal per render must not make a new socket.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above; a new key makes a new client.
  const client = useMemo(() => given ?? new RealtimeClient(appKey as string, props.options), [given, appKey]);
  useEffect(() => {
    // The user store listens from the start, so watchlist events before the first `useUser` are kept.
    userStore(client);
    return leaseOf(client).retainConnection();
  }, [client]);
  return createElement(ClientContext.Provider, { value: client }, children);
}
