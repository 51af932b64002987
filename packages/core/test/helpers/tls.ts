import { generate } from 'selfsigned';
import { Agent, type RequestInit as UndiciRequestInit, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../../src/index.js';

let certificate: Promise<{ key: string; cert: string }> | undefined;

/** A self-signed certificate for localhost and 127.0.0.1, made once per test file (RSA keygen is slow). */
export function testCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
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
        ],
      },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return certificate;
}

/**
 * A `fetch` for the client's `fetch` option that trusts `ca`: undici's own `fetch` with a dispatcher,
 * the way users reach an API behind a private CA. Close it in `afterAll`.
 */
export function trustingFetch(ca: string): { fetch: FetchLike; close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { ca } });
  return {
    fetch: (url, init) =>
      undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher }) as unknown as Promise<Response>,
    close: () => dispatcher.close(),
  };
}
