import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Mountable } from '../kit/emulator.js';
import { type NodeEnv, reportHandlerFailure } from '../kit/emulator.js';
import { generateCertificate } from './certificate.js';
import { rawPath, routeFor } from './emulator.js';
import { UpgradeDispatcher } from './upgrade.js';

export interface ServerOptions {
  port: number;
  host: string;
  https: boolean;
  /** Every emulator this server hosts: HTTP by path prefix, WebSocket upgrades by path. */
  emulators: readonly Mountable[];
}

export interface RunningServer {
  url: string;
  https: boolean;
  certificate?: string;
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Answers a path no emulator claimed (only reachable when no emulator mounts `/`). */
function notFound(): Response {
  return new Response(
    JSON.stringify({ error: 'not found', message: 'No sandbox emulator serves this path.' }),
    {
      status: 404,
      headers: { 'Content-Type': 'application/json; charset=UTF-8' },
    },
  );
}

/**
 * The answer to a request no emulator can see, since its URL or Host header does not make a web `Request`.
 * JSON with `error` and `message`, like `notFound()`; nothing of the request is echoed.
 */
function unparsableRequest(): Response {
  return new Response(
    JSON.stringify({
      error: 'bad request',
      message: 'The request line or Host header cannot be parsed as a URL.',
    }),
    { status: 400, headers: { 'Content-Type': 'application/json; charset=UTF-8' } },
  );
}

/** The generic 500 for an emulator without an `internalError` of its own. */
function internalError(): Response {
  return new Response(
    JSON.stringify({ error: 'internal error', message: 'The sandbox failed to answer this request.' }),
    { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' } },
  );
}

/** Starts the one HTTP(S) server every emulator is mounted on; it knows the emulators only by their paths. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const tls = options.https ? await generateCertificate() : null;
  const emulators = [...options.emulators];
  const upgrades = new UpgradeDispatcher(emulators);
  const fetch = async (request: Request, env: NodeEnv): Promise<Response> => {
    // The raw path (not `new URL(request.url)`): emulators see percent-encoding and dot segments as sent.
    const target = routeFor(emulators, rawPath(env.incoming.url));
    if (!target) return notFound();
    // The last guard: a handler that throws answers that one request with a 500 in its service's shape,
    // and the process, the other emulators and every other client's session go on.
    try {
      return await target.fetch(request, env);
    } catch (err) {
      reportHandlerFailure(target.name, `${request.method} ${rawPath(env.incoming.url)}`, err);
      return target.internalError?.() ?? internalError();
    }
  };
  // getRequestListener rather than createAdaptorServer, which takes no errorHandler: a request Node accepts
  // but a web `Request` cannot represent (a backslash in the path, an invalid Host) otherwise gets an empty 400.
  const listener = getRequestListener(fetch as never, { errorHandler: unparsableRequest });
  const server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, listener)
    : createHttpServer(listener);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  server.on('connection', track);
  server.on('secureConnection', track);
  // A client hanging up mid-request must never take the process down.
  server.on('clientError', (_err: Error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  server.on('upgrade', (request, socket, head) => upgrades.handle(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `${options.https ? 'https' : 'http'}://${hostForUrl(options.host)}:${address.port}`;
  let closed: Promise<void> | null = null;
  return {
    url,
    https: options.https,
    ...(tls ? { certificate: tls.cert } : {}),
    close() {
      closed ??= new Promise<void>((resolve) => {
        upgrades.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}
