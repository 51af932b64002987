/**
 * The loopback sink of the upload benchmark, run in its own process (forked by `upload.bench.ts`): reads
 * every request body and discards it, then answers 200 with what it received. `via` tells which client
 * stack sent the bytes (undici's fetch adds `sec-fetch-mode`, `node:http` does not), so the bench can
 * show that core's uploads took the Node streaming path. Reports its port to the parent over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((request, response) => {
  let bytes = 0;
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.byteLength;
  });
  request.on('end', () => {
    const body = JSON.stringify({
      bytes,
      via: request.headers['sec-fetch-mode'] === undefined ? 'node:http' : 'fetch',
      framing: request.headers['content-length'] === undefined ? 'chunked' : 'content-length',
    });
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  request.on('error', () => response.destroy());
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ port });
});

process.on('message', (message) => {
  if (message === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
