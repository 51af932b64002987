/**
 * The `node` side of the `#websocket` import map (package.json "imports"): Node before 22 has no global
 * WebSocket, so the `ws` package stands in. Only this file imports `ws`, and only Node resolves it. It also
 * holds what only makes sense outside a browser: telling a TLS attempt that met plain HTTP.
 */
import WebSocket from 'ws';
import { plainHttpAdvice, plainHttpCode } from '../../shared/tls.js';
import type { SocketLike } from './websocket.js';

export const WebSocketImpl = WebSocket as unknown as (new (url: string) => SocketLike) | undefined;

/**
 * Why a `wss://` socket closed before opening, when the reason is a host speaking plain HTTP: the advice,
 * else undefined. `ws` puts the TLS error on its error event. A socket that says nothing (Node's own
 * WebSocket) gets one HTTPS request to the same origin, which fails the same way; only after a failed
 * attempt, so a working connection costs nothing.
 */
export async function plainHttp(url: string, event: unknown): Promise<string | undefined> {
  const detail = (event as { error?: { code?: unknown } } | null)?.error;
  let code = plainHttpCode(detail);
  if (!code && typeof detail?.code !== 'string' && typeof fetch === 'function') {
    const origin = `https://${new URL(url).host}/`;
    code = await fetch(origin, { method: 'HEAD', signal: AbortSignal.timeout(5000) }).then(
      () => undefined,
      plainHttpCode,
    );
  }
  return code && plainHttpAdvice('forceTLS', url, code);
}
