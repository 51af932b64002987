import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Mountable } from '../kit/emulator.js';
import { reportHandlerFailure, type SocketHandler } from '../kit/emulator.js';
import { rawPath } from './emulator.js';

/** The largest WebSocket message the shared server reads (see `wss`). */
export const MAX_FRAME_BYTES = 1024 * 1024;

interface Route {
  path: string;
  prefix: boolean;
  handle: SocketHandler;
}

/** Refuses an upgrade with a plain HTTP response, then closes the socket (the client sees a status, not a reset). */
function refuse(socket: Duplex, status: number, reason: string): void {
  const body = JSON.stringify({ error: reason });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Bad Request'}\r\n` +
        'Connection: close\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Ends one socket whose handler threw with 1011 (internal error); the server and other sockets go on. */
function failSocket(ws: WebSocket, path: string, event: string, err: unknown): void {
  reportHandlerFailure('websocket', `${event} on ${path}`, err);
  if (ws.readyState === ws.OPEN) ws.close(1011, 'internal error');
  else ws.terminate();
}

/**
 * The last guard for every listener an emulator adds to a socket: `ws` calls them from its parser, where a
 * throw would be an uncaught exception that ends the whole process. A listener that throws ends only its
 * own socket. Emulators still catch their own failures first, to answer in the protocol's error shape.
 */
function guardSocket(ws: WebSocket, path: string): void {
  const emit = ws.emit;
  ws.emit = function guardedEmit(this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
    try {
      return emit.call(this, event, ...args);
    } catch (err) {
      failSocket(this, path, String(event), err);
      return true;
    }
  } as typeof ws.emit;
}

/**
 * Routes WebSocket upgrades by path to the emulator that registered it. One `ws` server in noServer mode does
 * the handshakes, so every emulator shares the HTTP(S) port and TLS certificate instead of opening its own.
 */
export class UpgradeDispatcher {
  private readonly routes: Route[] = [];
  /**
   * `ws` buffers a whole message before any handler sees it, up to 100 MiB by default; emulators refuse
   * frames far smaller than this (the realtime one at its payload limit plus the envelope), so a hostile
   * client cannot make the server hold more than this per socket. Over it, `ws` closes with 1009.
   */
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  constructor(emulators: readonly Mountable[]) {
    for (const e of emulators) {
      for (const s of e.sockets ?? []) {
        if (this.routes.some((r) => r.path === s.path)) {
          throw new Error(`x-sandbox: WebSocket path ${s.path} is registered twice (${e.name})`);
        }
        this.routes.push({ path: s.path, prefix: s.path.endsWith('/'), handle: s.handle });
      }
    }
    // Longest first, so '/app/private/' wins over '/app/'.
    this.routes.sort((a, b) => b.path.length - a.path.length);
  }

  private find(path: string): Route | undefined {
    return this.routes.find((r) =>
      r.prefix ? path.startsWith(r.path) && path.length > r.path.length : r.path === path,
    );
  }

  /** The server's `upgrade` listener. */
  handle(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
      refuse(socket, 400, 'only WebSocket upgrades are supported');
      return;
    }
    const route = this.find(rawPath(request.url));
    if (!route) {
      refuse(socket, 404, 'no WebSocket endpoint at this path');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      guardSocket(ws, route.path);
      try {
        route.handle(ws, request);
      } catch (err) {
        failSocket(ws, route.path, 'open', err);
      }
    });
  }

  /** Drops every open WebSocket, then the handshake server: the sandbox is stopping, nobody waits for a close frame. */
  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }
}
