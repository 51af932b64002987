/**
 * The WebSocket seam (`@x/core/socket`'s). The client only needs this much of a socket, which the browser's
 * `WebSocket`, the global one in Node 22+, Deno, Bun, React Native and the `ws` package all have. Tests and
 * unusual runtimes pass `webSocketFactory`.
 */
import { type WebSocketFactory, webSocketFactory } from '@x/core/socket';

export type { SocketLike, WebSocketFactory } from '@x/core/socket';

/**
 * The native `WebSocket` where the runtime has one; otherwise (Node 20 and 21) `ws`, reached through the
 * `#websocket` import map so that only the `node` condition ever sees it: a browser bundle resolves the
 * map's `default` side, which imports nothing. The import is dynamic so importing the client stays free
 * of side effects and SSR-safe, and `ws` is loaded only when a Node process actually connects.
 */
export function defaultWebSocketFactory(): Promise<WebSocketFactory> {
  return webSocketFactory(() => import('#websocket').then((m) => m.WebSocketImpl));
}
