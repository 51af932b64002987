/**
 * The WebSocket seam. The client only needs this much of a socket, which the browser's `WebSocket`, the
 * global one in Node 22+, Deno, Bun, React Native and the `ws` package all have. Tests and unusual
 * runtimes pass `webSocketFactory`.
 */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** `ws` has it: drops a dead link at once instead of waiting for a closing handshake that never comes. */
  terminate?(): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type WebSocketFactory = (url: string) => SocketLike;

type SocketConstructor = new (url: string) => SocketLike;

/**
 * The native `WebSocket` where the runtime has one; otherwise (Node 20 and 21) `ws`, reached through the
 * `#websocket` import map so that only the `node` condition ever sees it: a browser bundle resolves the
 * map's `default` side, which imports nothing. The import is dynamic so importing the client stays free
 * of side effects and SSR-safe, and `ws` is loaded only when a Node process actually connects.
 */
export async function defaultWebSocketFactory(): Promise<WebSocketFactory> {
  const native = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
  const Impl = native ?? (await import('#websocket')).WebSocketImpl;
  if (!Impl) {
    throw new Error('no WebSocket implementation in this runtime: pass `webSocketFactory`');
  }
  return (url) => new Impl(url);
}
