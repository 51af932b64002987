import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface ScriptedServer {
  url: string;
  /** Every request that reached the server, in order. */
  seen: Seen[];
  /** Requests counted on arrival, before their body is read (`seen` waits for the body). */
  arrived: number;
  /** The handler for the next requests; replace it between tests. */
  handler: (req: Seen, res: ServerResponse) => void;
  close(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 port 0 whose answers a test scripts: statuses, headers and bodies no honest
 * service would send. Sockets are tracked so `close()` does not wait on keep-alive connections.
 */
export async function scriptedServer(
  handler: ScriptedServer['handler'] = (_req, res) => res.end(),
): Promise<ScriptedServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state: ScriptedServer = {
    url: '',
    seen: [],
    arrived: 0,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    state.arrived++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      state.seen.push(seen);
      state.handler(seen, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
