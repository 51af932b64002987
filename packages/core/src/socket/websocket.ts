/**
 * The WebSocket seam. A reconnecting socket needs only this much of a socket, which the browser's
 * `WebSocket`, the global one in Node 22+, Deno, Bun, React Native and the `ws` package all have. Tests and
 * unusual runtimes pass their own `WebSocketFactory`.
 */
export interface SocketLike {
  readonly readyState: number;
  /** Bytes queued and not yet sent (browsers, `ws`): what a sender of audio watches for backpressure. */
  readonly bufferedAmount?: number;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  /** `ws` has it: drops a dead link at once instead of waiting for a closing handshake that never comes. */
  terminate?(): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Opens one socket to `url`. */
export type WebSocketFactory = (url: string) => SocketLike;

/** A WebSocket class: the global one takes `(url, protocols)`, `ws` takes `(url, options)`. */
export type SocketConstructor = new (url: string, init?: any) => SocketLike;

/**
 * The default `WebSocketFactory` of a package: the runtime's global WebSocket when it has one, else what
 * `load` gives. `load` is the package's own `import('#websocket')`: that import map resolves to `ws` under the
 * `node` condition only, so a browser bundle never sees `ws`, and `ws` stays a dependency of the packages
 * that need it, not of @x/core. Throws a plain `Error` when there is neither; the caller wraps it in its own.
 */
export async function webSocketFactory(
  load: () => Promise<SocketConstructor | undefined>,
): Promise<WebSocketFactory> {
  const Impl = (globalThis as { WebSocket?: SocketConstructor }).WebSocket ?? (await load());
  if (!Impl) throw new Error('no WebSocket implementation in this runtime: pass `webSocketFactory`');
  return (url) => new Impl(url);
}

/**
 * A `WebSocketFactory` that sends `headers` on the upgrade request (an `Authorization` header), which only
 * `ws` can do, so it always takes what `load` gives (see `webSocketFactory`), even where the runtime has a
 * global WebSocket. A browser's WebSocket would send the headers as a subprotocol, exposing a key, so when
 * `load` gives that one (a browser bundle's side of the import map) this throws instead: authenticate in the
 * URL there (a temporary token). The error names no header value.
 */
export async function webSocketFactoryWithHeaders(
  load: () => Promise<SocketConstructor | undefined>,
  headers: Record<string, string>,
): Promise<WebSocketFactory> {
  const Impl = await load();
  if (!Impl || Impl === (globalThis as { WebSocket?: unknown }).WebSocket) {
    throw new Error("this runtime's WebSocket cannot send headers on the upgrade: authenticate in the URL");
  }
  return (url) => new Impl(url, { headers });
}
