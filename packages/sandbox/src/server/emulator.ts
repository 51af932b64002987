import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';

/** What @hono/node-server hands a fetch handler as `env`: the Node request behind the web `Request`. */
export interface NodeEnv {
  incoming: IncomingMessage;
}

export type FetchHandler = (request: Request, env: NodeEnv) => Response | Promise<Response>;

/** Called with an open socket once the handshake for one of the emulator's paths has completed. */
export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void;

/**
 * One emulator as the shared server sees it: which paths it answers over HTTP and over WebSocket. The server
 * knows nothing else about it (no store, no transcripts, no channels).
 */
export interface MountedEmulator {
  /** For error messages: `'store'`, `'transcription'`, `'realtime'`. */
  name: string;
  /**
   * Path prefixes routed to `fetch`; the longest matching prefix wins, so `'/'` takes whatever no other
   * emulator claims. A prefix matches the path itself and anything below it (`/v2` matches `/v2/upload`).
   */
  prefixes: readonly string[];
  fetch: FetchHandler;
  /**
   * The answer to a request whose handler threw, in the service's own error shape (the server sends a
   * generic 500 JSON body when this is absent). It must not throw, and never echoes the request.
   */
  internalError?: () => Response;
  /** WebSocket upgrade paths: exact, or every path below it when it ends in `/` (`'/app/'`). */
  sockets?: readonly { path: string; handle: SocketHandler }[];
}

/** The request path without the query, as the client sent it. */
export function rawPath(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q === -1 ? u : u.slice(0, q);
}

export function prefixMatches(prefix: string, path: string): boolean {
  if (prefix === '/' || path === prefix) return true;
  const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return path.startsWith(base);
}

/** The emulator with the longest prefix matching `path`, or undefined. */
export function routeFor(emulators: readonly MountedEmulator[], path: string): MountedEmulator | undefined {
  let best: MountedEmulator | undefined;
  let bestLength = -1;
  for (const e of emulators) {
    for (const prefix of e.prefixes) {
      if (prefix.length > bestLength && prefixMatches(prefix, path)) {
        best = e;
        bestLength = prefix.length;
      }
    }
  }
  return best;
}

/**
 * Logs a handler failure on stderr: a sandbox bug worth a report, never the request's content (which may
 * hold a key). Only the error's class and first stack frame, so a hostile input cannot flood the log.
 */
export function reportHandlerFailure(emulator: string, what: string, err: unknown): void {
  const name = err instanceof Error ? err.name : typeof err;
  const frame = err instanceof Error ? (err.stack?.split('\n')[1]?.trim() ?? '') : '';
  process.stderr.write(`x-sandbox: ${emulator}: ${what.slice(0, 200)} failed (${name} ${frame})\n`);
}
