/**
 * `@x/realtime/react`: a provider that owns the client's socket, and hooks for its connection state,
 * channels (shared, reference-counted subscriptions), events, presence members, the signed-in user and
 * the resubscription after a gap. React is an optional peer: only this entry imports it. Safe under
 * StrictMode (one socket) and in server rendering (no socket, nothing thrown).
 * Entry convention: explicit named exports (hooks and their types; errors come from `@x/realtime`).
 */

export { type EventsOf, useChannel, useEvent, useResubscribed, useSubscribed } from './react/channel.js';
export { useConnectionState, useSocketId } from './react/connection.js';
export { type ChannelOf, type Register, type RegisteredClient, useRealtimeClient } from './react/context.js';
export { type PresenceState, usePresence } from './react/presence.js';
export { RealtimeProvider, type RealtimeProviderProps } from './react/provider.js';
export { type UseUser, type UseUserOptions, useUser } from './react/user.js';
export type { SigninState, UserState } from './react/user-store.js';
