/**
 * The `default` side of the `#websocket` import map: browsers, workers, Deno, Bun, React Native. Their
 * global WebSocket is all there is: it cannot send an `Authorization` header (so the API key is refused
 * and a temporary token goes in the URL) and cannot ping.
 */
import type { SocketConstructor, SocketLike } from '@x/core/socket';

export const WebSocketImpl = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;

export const pinger: ((socket: SocketLike, onPong: () => void) => () => void) | undefined = undefined;
