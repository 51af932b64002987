import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server saw of one request body. */
export interface Received {
  method: string;
  path: string;
  length: number;
  sha256: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  chunked: boolean;
  /** Only for bodies under 64 KiB, to check JSON and forms. */
  text: string | undefined;
}

export interface BodyServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * A server that hashes request bodies and answers by path:
 * - `/echo`: what it received, as JSON;
 * - `/fail-first/<any>`: 503 to the first request per path (after reading its body), then like `/echo`;
 * - `/never-read`: never reads the body nor answers, so an upload stalls once socket buffers fill;
 * - `/huge-error?bytes=N`: a 500 whose JSON body carries an N-byte message;
 * - `/download?bytes=N`: N bytes of `x`, streamed.
 */
export async function startBodyServer(): Promise<BodyServer> {
  const received: Received[] = [];
  const hanging = new Set<IncomingMessage>();
  const failed = new Set<string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/never-read') {
      req.pause();
      hanging.add(req);
      return;
    }
    if (url.pathname === '/download') return download(res, Number(url.searchParams.get('bytes')));
    const hash = createHash('sha256');
    const small: Buffer[] = [];
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      length += chunk.length;
      if (length <= 65_536) small.push(chunk);
    });
    req.on('end', () => {
      const seen: Received = {
        method: req.method ?? '',
        path: url.pathname,
        length,
        sha256: hash.digest('hex'),
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        chunked: req.headers['transfer-encoding'] === 'chunked',
        text: length <= 65_536 ? Buffer.concat(small).toString('utf8') : undefined,
      };
      received.push(seen);
      if (url.pathname.startsWith('/fail-first') && !failed.has(url.pathname)) {
        failed.add(url.pathname);
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        return res.end('{"message":"try again"}');
      }
      if (url.pathname === '/huge-error') {
        const bytes = Number(url.searchParams.get('bytes'));
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ code: 'boom', message: 'e'.repeat(bytes) }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const req of hanging) req.socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function download(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let left = bytes;
  const pump = () => {
    while (left > 0) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      if (!res.write(part)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
