/**
 * The `node` side of the `#websocket` import map (package.json "imports"): the `ws` package, the one
 * WebSocket that can put the API key in an `Authorization` header on the upgrade, and can ping. Only this
 * file imports `ws`, and only Node resolves it, so a browser bundle never sees it.
 */

import type { SocketConstructor, SocketLike } from '@x/core/socket';
import WebSocket from 'ws';

export const WebSocketImpl = WebSocket as unknown as SocketConstructor;

/**
 * A WebSocket ping for the heartbeat, and `onPong` for its answer. A stalled server (or a link a NAT
 * dropped) answers no ping, while a live one always does (RFC 6455), whatever the protocol above says.
 */
export function pinger(socket: SocketLike, onPong: () => void): () => void {
  const ws = socket as unknown as WebSocket;
  ws.on('pong', onPong);
  return () => ws.ping();
}
