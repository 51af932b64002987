/**
 * Real-socket helpers for the realtime emulator tests: a `ws` client that records every frame, and HTTP API
 * requests signed by hand (the algorithm of Pusher's REST API reference, written here independently of the
 * emulator's own code so the two check each other).
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import WebSocket from 'ws';

export interface Frame {
  event: string;
  channel?: string;
  /** The inner JSON parsed when `data` is a string holding JSON; otherwise as received. */
  data?: any;
  user_id?: string;
  /** The frame as received. */
  raw: string;
}

export function parseFrame(raw: string): Frame {
  const outer = JSON.parse(raw);
  let data = outer.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      // A publisher's plain string stays a string, as pusher-js keeps it.
    }
  }
  return { ...outer, data, raw };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class TestSocket {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  #waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(url, options);
    this.ws.on('error', () => {});
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('close', () => reject(new Error('closed before open')));
    });
    this.opened.catch(() => {});
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.ws.on('message', (raw, isBinary) => {
      if (isBinary) return;
      const frame = parseFrame(raw.toString());
      this.frames.push(frame);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
  }

  /** Connects to `/app/{key}?protocol=7` and waits for `pusher:connection_established`. */
  static async connect(wsUrl: string, key: string, query = 'protocol=7'): Promise<TestSocket> {
    const socket = new TestSocket(`${wsUrl}/app/${key}?${query}`);
    await socket.next('pusher:connection_established');
    return socket;
  }

  get socketId(): string {
    return this.frames.find((f) => f.event === 'pusher:connection_established')!.data.socket_id;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame (already received or still to come) that matches; rejects after `timeoutMs`. */
  next(match: string | ((f: Frame) => boolean), timeoutMs = 3000): Promise<Frame> {
    const test = typeof match === 'string' ? (f: Frame) => f.event === match : match;
    const seen = this.frames.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = { match: test, resolve };
      this.#waiters.push(waiter);
      setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`no frame matching ${String(match)} within ${timeoutMs} ms`));
      }, timeoutMs).unref();
    });
  }

  /** Frames received after the call that match, collected for `ms`. */
  async collect(match: (f: Frame) => boolean, ms: number): Promise<Frame[]> {
    const start = this.frames.length;
    await sleep(ms);
    return this.frames.slice(start).filter(match);
  }

  /** Subscribes (with auth computed from `secret` when given) and waits for the answer: success or error. */
  async subscribe(
    channel: string,
    auth?: { key: string; secret: string; channelData?: string },
  ): Promise<Frame> {
    const data: Record<string, unknown> = { channel };
    if (auth) {
      data.auth = channelAuth(auth.key, auth.secret, this.socketId, channel, auth.channelData);
      if (auth.channelData !== undefined) data.channel_data = auth.channelData;
    }
    const start = this.frames.length;
    this.send({ event: 'pusher:subscribe', data });
    // A refusal is a channel-less `pusher:error` (as Pusher sends it): the first one after this subscribe.
    return this.next(
      (f) =>
        this.frames.indexOf(f) >= start &&
        ((f.channel === channel && f.event === 'pusher_internal:subscription_succeeded') ||
          (f.event === 'pusher:error' && f.channel === undefined)),
    );
  }

  close(): void {
    this.ws.terminate();
  }
}

export function channelAuth(
  key: string,
  secret: string,
  socketId: string,
  channel: string,
  channelData?: string,
) {
  const text = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${key}:${createHmac('sha256', secret).update(text).digest('hex')}`;
}

export interface ApiCredentials {
  url: string;
  appId: string;
  key: string;
  secret: string;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export interface SignOptions {
  body?: unknown;
  /** Sent as is instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  params?: Record<string, string>;
  timestamp?: number;
  /** Override what is signed or sent, for forged requests. */
  secret?: string;
  key?: string;
  bodyMd5?: string;
  signature?: string;
}

/** One signed HTTP API request: `path` below the host, e.g. `/apps/1/events`. */
export async function api(
  creds: ApiCredentials,
  method: string,
  path: string,
  options: SignOptions = {},
): Promise<ApiAnswer> {
  const body =
    options.rawBody !== undefined
      ? Buffer.from(options.rawBody)
      : options.body !== undefined
        ? Buffer.from(JSON.stringify(options.body))
        : undefined;
  const params: Record<string, string> = {
    ...options.params,
    auth_key: options.key ?? creds.key,
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
  };
  if (body) params.body_md5 = options.bodyMd5 ?? createHash('md5').update(body).digest('hex');
  const query = Object.keys(params)
    .map((k) => k.toLowerCase())
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const signature =
    options.signature ??
    createHmac('sha256', options.secret ?? creds.secret)
      .update(`${method}\n${path}\n${query}`)
      .digest('hex');
  const res = await fetch(`${creds.url}${path}?${query}&auth_signature=${signature}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? new Uint8Array(body) : undefined,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The connection answers a ping sent now: it is still open and reading. */
export async function stillAlive(s: TestSocket): Promise<void> {
  const before = s.frames.length;
  s.send({ event: 'pusher:ping', data: {} });
  await s.next((f) => f.event === 'pusher:pong' && s.frames.indexOf(f) >= before);
}

/**
 * The query of a signed HTTP API request: `params` (values sent as is, not URL-encoded, as the server SDKs do)
 * plus auth_key, auth_timestamp, auth_version and, with a body, body_md5; then auth_signature last.
 */
export function signedQuery(
  key: string,
  secret: string,
  method: string,
  path: string,
  params: Record<string, string>,
  body?: Buffer,
): string {
  const all: Record<string, string> = {
    ...params,
    auth_key: key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
  };
  if (body && body.length > 0) all.body_md5 = createHash('md5').update(body).digest('hex');
  const query = Object.keys(all)
    .sort()
    .map((k) => `${k}=${all[k]}`)
    .join('&');
  const signature = createHmac('sha256', secret).update(`${method}\n${path}\n${query}`).digest('hex');
  return `${query}&auth_signature=${signature}`;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request with the path and headers exactly as given (no URL normalisation, unlike fetch). Rejects when
 * the connection drops or nothing is answered within `hangMs`: a server must always answer over HTTP.
 */
export function rawHttp(
  base: string,
  agent: http.Agent,
  req: { method: string; path: string; headers?: Record<string, string>; body?: Buffer },
  hangMs = 10_000,
): Promise<RawAnswer> {
  const url = new URL(base);
  const headers = { ...req.headers };
  if (req.body !== undefined) headers['Content-Length'] = String(req.body.length);
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
      },
    );
    const timer = setTimeout(() => r.destroy(new Error(`no answer to ${req.method} ${req.path}`)), hangMs);
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}

export async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** One client-to-server text frame, masked as RFC 6455 requires of clients (payload under 126 bytes). */
export function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}
