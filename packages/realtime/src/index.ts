/**
 * `@x/realtime`: the Pusher Channels (protocol 7) client for browsers, Node and React Native. Nothing here
 * imports the server SDK, a secret, ky or a Node built-in; `ws` is reached only through the `#websocket`
 * import map under the `node` condition, and NaCl only when an encrypted channel is used.
 * Entry convention: explicit named exports; of core's `ERROR_CLASSES`, only the two the client throws.
 */

export type {
  AuthErrorData,
  ChannelAuthData,
  ChannelAuthorization,
  EndpointAuth,
  Headers as AuthHeaders,
  UserAuthData,
  UserAuthentication,
} from './client/auth.js';
export type { BackoffOptions } from './client/backoff.js';
export type { ChannelHost } from './client/channel.js';
export {
  type BindableEvent,
  Channel,
  type ChannelEvents,
  type ClientEventData,
  type ClientEventName,
  type EventMap,
  type EventMetadata,
  PrivateChannel,
  type ResubscribedData,
  type SubscriptionErrorData,
} from './client/channel.js';
export type { AnyChannel } from './client/client.js';
export { type ChannelFor, RealtimeClient } from './client/client.js';
export type { Clock } from './client/clock.js';
export type { ConnectionEvents, ConnectionSettings } from './client/connection.js';
export { Connection, type ConnectionState, ConnectionStates, type StateChange } from './client/connection.js';
export type { Callback, Emitter, GlobalCallback } from './client/emitter.js';
export { EncryptedChannel } from './client/encrypted.js';
export { RealtimeError, ValidationError, type ValidationIssue } from './client/errors.js';
export type { ClientLogger, Log } from './client/log.js';
export type { RealtimeClientOptions } from './client/options.js';
export { type Member, Members, PresenceChannel, type PresenceEvents } from './client/presence.js';
export type { Frame } from './client/protocol.js';
export type { SocketLike, WebSocketFactory } from './client/socket/websocket.js';
export type { UserHost } from './client/user.js';
export { User, type UserData, type Watchlist, type WatchlistEvent } from './client/user.js';
export {
  type ChannelEventsOf,
  type ChannelPattern,
  type CheckedEvent,
  type Contract,
  type ContractEvents,
  type ContractIssue,
  type ContractShape,
  defineContract,
  type EventDataOf,
  type EventMap as ContractEventMap,
  type EventNameOf,
  type EventSpec,
  type EventType,
  event,
  type Gate,
  type PayloadOf,
  type Reporter,
  type StandardResult,
  type StandardSchemaV1,
  type ValidateMode,
  type Verdict,
} from './shared/contract.js';
