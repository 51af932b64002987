import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** What the server does with the next request: answer, reset the socket, or never answer. */
export type Reply =
  | { status?: number; headers?: Record<string, string>; json?: unknown; text?: string }
  | 'reset'
  | 'stall'
  | ((req: IncomingMessage, res: ServerResponse, body: string) => void);

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Names and values as sent, duplicates included. */
  rawHeaders: string[];
  body: string;
  at: number;
}

export interface FaultServer {
  url: string;
  /** Replies used in order, one per request; when empty the server answers `200 {"ok":true}`. */
  replies: Reply[];
  requests: Recorded[];
  close(): Promise<void>;
}

export interface FaultServerOptions {
  /** Serve HTTPS with this key and certificate (see `testCertificate()` in tls.ts). */
  tls?: { key: string; cert: string };
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const replies: Reply[] = [];
  const requests: Recorded[] = [];
  const stalled = new Set<ServerResponse>();
  const handle: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
        at: performance.now(),
      });
      const reply = replies.shift() ?? { json: { ok: true } };
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      if (reply === 'stall') {
        stalled.add(res);
        return;
      }
      if (typeof reply === 'function') {
        reply(req, res, body);
        return;
      }
      const headers: Record<string, string> = { ...reply.headers };
      let payload = '';
      if (reply.json !== undefined) {
        payload = JSON.stringify(reply.json);
        headers['content-type'] ??= 'application/json; charset=UTF-8';
      } else if (reply.text !== undefined) {
        payload = reply.text;
      }
      res.writeHead(reply.status ?? 200, headers);
      res.end(payload);
    });
  };
  const server = options.tls ? createTlsServer(options.tls, handle) : createServer(handle);
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    replies,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * One fault server for a test file: started before its tests, emptied of replies and recorded requests
 * before each, closed after. The returned object reads through to the running server. Options that take
 * time to make (a TLS certificate) can come from a function, called in `beforeAll`.
 */
export function useFaultServer(
  options: FaultServerOptions | (() => Promise<FaultServerOptions>) = {},
): FaultServer {
  let current: FaultServer | undefined;
  const live = (): FaultServer => {
    if (!current) throw new Error('the fault server runs only inside tests (beforeAll has not run yet)');
    return current;
  };
  beforeAll(async () => {
    current = await startFaultServer(typeof options === 'function' ? await options() : options);
  });
  afterAll(() => current?.close());
  beforeEach(() => {
    live().replies.length = 0;
    live().requests.length = 0;
  });
  return {
    get url() {
      return live().url;
    },
    get replies() {
      return live().replies;
    },
    get requests() {
      return live().requests;
    },
    close: () => live().close(),
  };
}
