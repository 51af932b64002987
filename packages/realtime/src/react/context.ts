import { createContext, useContext } from 'react';
import type { ChannelFor, RealtimeClient } from '../client/client.js';
// Values come through the main entry, so the build shares its copy (tsup.config.ts).
import { RealtimeError } from '../index.js';
import type { ChannelEventsOf } from '../shared/contract.js';
import type { AnyClient } from './lease.js';

/**
 * Register your client's type once and every hook is typed by it (presence `user_info`, and event maps
 * once the client has them):
 *
 * ```ts
 * declare module '@x/realtime/react' {
 *   interface Register { client: typeof client }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the app through declaration merging.
export interface Register {}

/** The registered client type, or `RealtimeClient` when none was registered. */
export type RegisteredClient = Register extends { client: infer C extends AnyClient } ? C : RealtimeClient;

/** The channel `client.subscribe(name)` returns for that client type: its `UserInfo`, its contract's events. */
export type ChannelOf<Client, Name extends string> =
  Client extends RealtimeClient<infer UserInfo, infer C>
    ? ChannelFor<Name, UserInfo, ChannelEventsOf<C, Name>>
    : never;

export const ClientContext = createContext<AnyClient | null>(null);

/** The provider's client. Throws when there is no `<RealtimeProvider>` above. */
export function useRealtimeClient<Client extends AnyClient = RegisteredClient>(): Client {
  const client = useContext(ClientContext);
  if (!client) throw new RealtimeError('useRealtimeClient: no <RealtimeProvider> above this component');
  return client as Client;
}
