/**
 * `@x/core/socket`: what a WebSocket client needs whatever its protocol, apart from the rest of @x/core so
 * that a browser bundle of a realtime client pulls in these small modules only (no ky, no zod): full-jitter
 * backoff, an injectable clock, a typed emitter, the WebSocket seam and a reconnecting socket with a heartbeat.
 * Nothing here imports `ws`: each package that needs it reaches it through its own `#websocket` import map.
 */

export { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from '../base/backoff.js';
export { type Clock, systemClock, Timer } from '../base/clock.js';
export { type AnyListener, Emitter, type EventMap, type Listener, type ListenerErrorLog } from './emitter.js';
export {
  type CloseVerdict,
  ReconnectingSocket,
  type ReconnectingSocketOptions,
  type SocketClose,
  type SocketEvents,
  type SocketLog,
  type SocketState,
  STABLE_AFTER_MS,
  type StateChange,
} from './reconnecting.js';
export { untilConnected } from './until-connected.js';
export {
  type SocketConstructor,
  type SocketLike,
  type WebSocketFactory,
  webSocketFactory,
  webSocketFactoryWithHeaders,
} from './websocket.js';
