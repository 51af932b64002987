/** Real-socket helpers for the store emulator tests: node:http requests, raw TCP, and WC error checks. */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/index.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

/** One request on a fresh connection (agent: false), any method, body sent as given. */
export function request(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any;
          try {
            json = text.length > 0 ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface RawSocketResult {
  /** Status code of the first response line, or 0 if the server closed without answering. */
  status: number;
  raw: string;
}

/**
 * Write bytes on a raw TCP connection and collect everything until the server closes it
 * (or `idleMs` passes with no data after the first response arrived, for keep-alive servers).
 * `halfClose` ends our side after writing (the server sees EOF mid-request).
 */
export function rawSocket(
  port: number,
  payload: string | Buffer,
  { host = '127.0.0.1', idleMs = 300, maxMs = 10_000, halfClose = false } = {},
): Promise<RawSocketResult> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      clearTimeout(hard);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
      resolve({ status: match ? Number(match[1]) : 0, raw });
    };
    const hard = setTimeout(finish, maxMs);
    socket.on('connect', () => (halfClose ? socket.end(payload) : socket.write(payload)));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      clearTimeout(idle);
      idle = setTimeout(finish, idleMs);
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A reset after the server answered is fine; before any answer it is a real failure.
      if (chunks.length > 0 || err.code === 'ECONNRESET') finish();
      else reject(err);
    });
  });
}

/** Split a raw HTTP/1.1 response into head and body (handles Content-Length and chunked). */
export function parseRawBody(raw: string): { head: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return { head: raw, body: '' };
  const head = raw.slice(0, split);
  let body = raw.slice(split + 4);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    let out = '';
    let rest = body;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) break;
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (!Number.isFinite(size) || size === 0) break;
      out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = out;
  } else {
    const length = /^content-length:\s*(\d+)/im.exec(head);
    if (length) body = body.slice(0, Number(length[1]));
  }
  return { head, body: Buffer.from(body, 'latin1').toString('utf8') };
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/**
 * Assert a WordPress REST error body: {code: string, message: string, data: {status} | number}, with the
 * HTTP status equal to data.status (or the bare number), and the expected status and code.
 */
export function expectWcError(
  res: { status: number; json: any; text?: string },
  status: number,
  code: string,
) {
  const context = `HTTP ${res.status} ${res.text ?? JSON.stringify(res.json)}`.slice(0, 600);
  expect(res.json, context).toBeTypeOf('object');
  expect(res.json, context).not.toBeNull();
  expect(typeof res.json.code, context).toBe('string');
  expect(typeof res.json.message, context).toBe('string');
  const data = res.json.data;
  const dataStatus = typeof data === 'number' ? data : data?.status;
  expect(typeof dataStatus, context).toBe('number');
  expect({ status: res.status, code: res.json.code, dataStatus }, context).toEqual({
    status,
    code,
    dataStatus: status,
  });
}

/** `Authorization` value for the sandbox's read_write key over HTTP Basic. */
export function basicAuth(sb: Sandbox): string {
  return `Basic ${Buffer.from(`${sb.store.consumerKey}:${sb.store.consumerSecret}`).toString('base64')}`;
}

/**
 * One JSON call to the store's REST base with the read_write key. Objects are sent as JSON, strings as
 * they are (for malformed bodies).
 */
export async function storeApi(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${sb.url}/wp-json/wc/v3${path}`, {
    method,
    headers: {
      Authorization: basicAuth(sb),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, text };
}
