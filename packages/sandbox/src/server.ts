import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { generate } from 'selfsigned';

export interface ServerOptions {
  port: number;
  host: string;
  https: boolean;
  /** The root fetch handler (a Hono app's `fetch`) every emulator is mounted on. */
  fetch: (request: Request, env: unknown) => Response | Promise<Response>;
}

export interface RunningServer {
  url: string;
  https: boolean;
  certificate?: string;
  close(): Promise<void>;
}

/** A self-signed certificate for localhost / 127.0.0.1 / ::1, generated in memory. */
export async function generateCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the HTTP(S) server that hosts the emulators; generic over what is mounted on `fetch`. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const tls = options.https ? await generateCertificate() : null;
  const server = createAdaptorServer({
    fetch: options.fetch as never,
    ...(tls
      ? { createServer: createHttpsServer as never, serverOptions: { key: tls.key, cert: tls.cert } }
      : { createServer: createHttpServer as never }),
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client hanging up mid-request must never take the process down.
  server.on('clientError', (_err: Error, socket: Socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
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
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}
