/**
 * The `node` side of the `#websocket` import map (package.json "imports"): Node before 22 has no global
 * WebSocket, so the `ws` package stands in. Only this file imports `ws`, and only Node resolves it.
 */
import WebSocket from 'ws';
import type { SocketLike } from './websocket.js';

export const WebSocketImpl = WebSocket as unknown as (new (url: string) => SocketLike) | undefined;
