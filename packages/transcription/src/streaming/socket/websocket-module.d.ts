/**
 * `#websocket` is resolved by package.json "imports" at run time (Node: websocket-node, elsewhere:
 * websocket-web). Both export this; declared here so TypeScript needs no path mapping, which bundlers
 * (esbuild reads tsconfig paths) would otherwise follow into the Node variant.
 */
declare module '#websocket' {
  import type { SocketConstructor, SocketLike } from '@x/core/socket';
  export const WebSocketImpl: SocketConstructor | undefined;
  /** Node only: a WebSocket ping and its pong, for the heartbeat. */
  export const pinger: ((socket: SocketLike, onPong: () => void) => () => void) | undefined;
}

/** `#transcriber`: the transcriber class under the `node` condition, undefined elsewhere (see transcriber-node.ts). */
declare module '#transcriber' {
  export const StreamingTranscriber: typeof import('../transcriber.js').StreamingTranscriber | undefined;
}
