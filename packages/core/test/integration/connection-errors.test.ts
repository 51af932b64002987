import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BaseClient, ConnectionError, streamBody } from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/**
 * Socket failures say what happened, on both ways out: fetch (undici puts the code in `cause`) and the
 * node:http upload path (the code on the error itself). A bare "ECONNREFUSED" or OpenSSL's "wrong version
 * number" sent people looking in the wrong place.
 */
const server = useFaultServer();

function client(baseURL: string) {
  return new BaseClient(
    { baseURL, rateLimit: false, maxRetries: 0, timeout: 5000 },
    { packageName: '@x/test', packageVersion: '0.0.0' },
  );
}

async function* bytes(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array(16);
}

/** Both transports: a plain GET (fetch) and a streamed upload (node:http). */
const paths = [
  ['fetch', (c: BaseClient) => c.request({ method: 'GET', path: '/things' })],
  [
    'node:http',
    (c: BaseClient) => c.request({ method: 'POST', path: '/upload', body: streamBody(() => bytes()) }),
  ],
] as const;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe.each(paths)('over %s', (_, send) => {
  it('nothing listening: "nothing is listening at <origin>", marked unsent', async () => {
    const port = await freePort();
    const error = await send(client(`http://127.0.0.1:${port}`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain(`nothing is listening at http://127.0.0.1:${port}`);
    expect((error as ConnectionError).unsent).toBe(true);
  });

  it('https:// against a plain HTTP server: "this host speaks plain HTTP: use http://"', async () => {
    const plain = new URL(server.url);
    const error = await send(client(`https://${plain.host}`)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain(
      'this host speaks plain HTTP: use http:// (or set the TLS option false)',
    );
  });

  it('a server that drops the connection: "closed the connection before answering"', async () => {
    server.replies.push('reset');
    const error = await send(client(server.url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toContain(`the server at ${server.url} closed the connection`);
  });

  it('a host name that does not resolve says so, naming the host', async () => {
    const error = await send(client('http://no-such-host.invalid')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(
      /host name no-such-host\.invalid (does not resolve|could not be resolved)/,
    );
  });
});
