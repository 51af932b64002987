import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';

/** What @hono/node-server hands a fetch handler as `env`: the Node request behind the web `Request`. */
export interface NodeEnv {
  incoming: IncomingMessage;
}

export type FetchHandler = (request: Request, env: NodeEnv) => Response | Promise<Response>;

/** Called with an open socket once the handshake for one of the emulator's paths has completed. */
export type SocketHandler = (socket: WebSocket, request: IncomingMessage) => void;

/** A WebSocket upgrade path: exact, or every path below it when it ends in `/` (`'/app/'`). */
export interface SocketRoute {
  path: string;
  handle: SocketHandler;
}

/**
 * One emulator as the shared server sees it: which paths it answers over HTTP and over WebSocket. The server
 * knows nothing else about it (no store, no transcripts, no channels).
 */
export interface Mountable {
  /** For error messages: `'store'`, `'transcription'`, `'realtime'`. */
  readonly name: string;
  /**
   * Path prefixes routed to `fetch`; the longest matching prefix wins, so `'/'` takes whatever no other
   * emulator claims. A prefix matches the path itself and anything below it (`/v2` matches `/v2/upload`).
   */
  readonly prefixes: readonly string[];
  fetch: FetchHandler;
  /**
   * The answer to a request whose handler threw, in the service's own error shape (the server sends a
   * generic 500 JSON body when this is absent). It must not throw, and never echoes the request.
   */
  internalError?: () => Response;
  /** WebSocket upgrade paths (see `SocketRoute`). */
  readonly sockets?: readonly SocketRoute[];
}

/**
 * What every emulator's handle (`sandbox.store`, `sandbox.transcription`, `sandbox.realtime`) offers a test,
 * whatever else its service adds: its base URL, faults, request counters and a reset.
 */
export interface EmulatorHandle<Fault = never, Stats = unknown> {
  /** The emulator's base URL (the sandbox's, without a trailing slash). */
  readonly url: string;
  /** Answers the next matching request(s) with a fault. */
  injectFault(fault: Fault): void;
  stats(): Stats;
  resetStats(): void;
  /** Forgets what clients did (data, faults, rate windows, sessions); resolves once that is durable. */
  reset(): Promise<void>;
}

/**
 * An emulator as `startSandbox` hosts it: mounted by its paths, told its home URL once the server listens,
 * closed with the sandbox. `handle` is what the user gets.
 */
export interface Emulator<Handle extends EmulatorHandle<never> = EmulatorHandle<never>> extends Mountable {
  readonly handle: Handle;
  /** Tells the emulator its public home URL (known once the server listens). */
  setHomeUrl(url: string): void;
  /** Stops its timers, sockets and deliveries and flushes what it persists; idempotent. */
  close(): Promise<void>;
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
