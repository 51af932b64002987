/**
 * `#websocket` is resolved by package.json "imports" at run time (Node: websocket-node, elsewhere:
 * websocket-web). Both export this; declared here so TypeScript needs no path mapping, which bundlers
 * (esbuild reads tsconfig paths) would otherwise follow into the Node variant.
 */
declare module '#websocket' {
  import type { SocketLike } from './websocket.js';
  export const WebSocketImpl: (new (url: string) => SocketLike) | undefined;
  /** Node only: the advice when a TLS socket failed against a host speaking plain HTTP. */
  export const plainHttp: ((url: string, event: unknown) => Promise<string | undefined>) | undefined;
}
