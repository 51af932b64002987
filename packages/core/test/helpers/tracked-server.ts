import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';

/** A test server on 127.0.0.1, port 0, that knows its sockets: to count connections and to close at once. */
export interface TrackedServer {
  readonly baseURL: string;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Destroys every open socket (keep-alive ones included). */
  destroySockets(): void;
  /** Destroys every socket, then closes the server. */
  close(): Promise<void>;
}

export async function listenTracked(server: HttpServer | NetServer): Promise<TrackedServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const destroySockets = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    destroySockets,
    close: () =>
      new Promise<void>((resolve) => {
        destroySockets();
        server.close(() => resolve());
      }),
  };
}
