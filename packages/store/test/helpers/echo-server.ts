import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A node:http(s) server on port 0 whose answers the test decides, one handler per request in order. */
export interface ScriptedServer {
  url: string;
  /** Used in order; when empty, `fallback` answers. */
  handlers: RequestListener[];
  fallback: RequestListener;
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

let certificate: { key: string; cert: string } | undefined;

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI once per file. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'x-store-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startScriptedServer(options: { tls?: boolean } = {}): Promise<ScriptedServer> {
  const state: ScriptedServer = {
    url: '',
    handlers: [],
    fallback: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    },
    requests: [],
    close: async () => {},
  };
  const handle: RequestListener = (req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      (state.handlers.shift() ?? state.fallback)(req, res);
    });
  };
  const server = options.tls ? createTlsServer(selfSignedCertificate(), handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Everything the request carried, in one line: URL (query included) and every header value. */
export function everything(req: IncomingMessage): string {
  return [req.url, ...Object.values(req.headers).flat()].join(' ');
}

/** Answers `status` and puts everything the request carried into the request id, the Link header and the body. */
export function echoAll(status: number, contentType = 'application/json'): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const all = everything(req);
    res.writeHead(status, {
      'content-type': contentType,
      'x-request-id': all.replace(/[^\t\x20-\x7e]/g, '?'),
      'x-wp-total': all.slice(0, 200).replace(/[^\t\x20-\x7e]/g, '?'),
      link: `<${req.url}>; rel="next"`,
    });
    res.end(
      contentType.includes('json')
        ? JSON.stringify({ code: 'echo', message: `you sent ${all}`, data: { status, params: { url: all } } })
        : `<html><body>you sent ${all}</body></html>`,
    );
  };
}
