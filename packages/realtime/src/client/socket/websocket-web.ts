/**
 * The `default` side of the `#websocket` import map: browsers, workers, Deno, Bun and React Native. They
 * all have a global WebSocket, which `defaultWebSocketFactory` already prefers, so this side imports
 * nothing and exists only so bundlers resolve the specifier to something that pulls in no Node modules.
 */
import type { SocketLike } from './websocket.js';

export const WebSocketImpl = (globalThis as { WebSocket?: new (url: string) => SocketLike }).WebSocket;

/** Browsers say nothing about why a socket failed, and a page has no use for the Node-side diagnosis. */
export const plainHttp = undefined;
