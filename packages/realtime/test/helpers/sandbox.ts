/**
 * The sandbox's realtime emulator for the integration tests: a sandbox on port 0, a `RealtimeServer`
 * pointed at it, a raw `ws` subscriber that records exactly what the wire delivers (no client library in
 * between), a node:http receiver for the webhooks the emulator posts, and, for the client's tests, an app's
 * auth endpoints built on the server SDK plus a fleet of `RealtimeClient`s on `ws`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  REALTIME_DEV_APP,
  type RealtimeEmulatorOptions,
  type RealtimeSandbox,
  type Sandbox,
  startSandbox,
} from '@x/sandbox';
import WebSocket from 'ws';
import {
  type ConnectionState,
  RealtimeClient,
  type RealtimeClientOptions,
  type SocketLike,
} from '../../src/index.js';
import { RealtimeServer, type RealtimeServerOptions } from '../../src/server.js';

/** 32 bytes 0..31, base64: the master key of encrypted channels in these tests. */
export const MASTER_KEY = btoa(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i)));

export interface RealtimeBox {
  sandbox: Sandbox<false>;
  rt: RealtimeSandbox;
  /** A server SDK for the first app (or `app`), with short retry delays and the master key. */
  server(options?: Partial<RealtimeServerOptions>): RealtimeServer;
  /** A raw socket on `/app/{key}?protocol=7`, greeted; closed by `close()`. */
  connect(key?: string): Promise<RawSocket>;
  /** HTTP API requests the emulator has counted so far (rate-limited ones included). */
  requests(): number;
  close(): Promise<void>;
}

export async function startRealtimeBox(options: RealtimeEmulatorOptions = {}): Promise<RealtimeBox> {
  const sandbox = await startSandbox({ store: false, realtime: options });
  const rt = sandbox.realtime!;
  const sockets: RawSocket[] = [];
  const url = new URL(rt.url);
  return {
    sandbox,
    rt,
    server: (overrides = {}) =>
      new RealtimeServer({
        appId: rt.appId,
        key: rt.key,
        secret: rt.secret,
        host: url.hostname,
        port: Number(url.port),
        useTLS: false,
        encryptionMasterKeyBase64: MASTER_KEY,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        ...overrides,
      }),
    async connect(key = rt.key) {
      const socket = await RawSocket.connect(rt.wsUrl, key);
      sockets.push(socket);
      return socket;
    },
    requests: () => rt.stats().http.requests,
    async close() {
      for (const socket of sockets) socket.terminate();
      await sandbox.close();
    },
  };
}

/** The dev app with options added (webhooks, subscription counting). */
export const devApp = (extra: Partial<NonNullable<RealtimeEmulatorOptions['apps']>[number]> = {}) => ({
  ...REALTIME_DEV_APP,
  ...extra,
});

export interface Frame {
  event: string;
  channel?: string;
  /** `data` with the inner JSON parsed when it holds JSON (as pusher-js reads it). */
  data?: any;
  /** `data` exactly as it came (a string for every server-sent event but `pusher:error`). */
  rawData?: unknown;
  user_id?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 5 ms until it holds; throws after `timeoutMs`, saying `what` was awaited. */
export async function waitFor(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await sleep(5);
  }
}

export class RawSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #ws: WebSocket;
  #waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];

  private constructor(url: string) {
    this.#ws = new WebSocket(url);
    this.#ws.on('error', () => {});
    this.closed = new Promise((resolve) => {
      this.#ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    this.#ws.on('message', (raw) => {
      const outer = JSON.parse(raw.toString());
      let data = outer.data;
      if (typeof data === 'string') {
        try {
          data = JSON.parse(data);
        } catch {
          // A publisher's plain string stays a string.
        }
      }
      const frame: Frame = { ...outer, data, rawData: outer.data };
      this.frames.push(frame);
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
  }

  static async connect(wsUrl: string, key: string): Promise<RawSocket> {
    const socket = new RawSocket(`${wsUrl}/app/${key}?protocol=7`);
    await socket.next('pusher:connection_established');
    return socket;
  }

  get socketId(): string {
    return this.frames.find((f) => f.event === 'pusher:connection_established')!.data.socket_id;
  }

  send(frame: unknown): void {
    this.#ws.send(JSON.stringify(frame));
  }

  /** The first frame, already received or still to come, that matches; rejects after `timeoutMs`. */
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

  /** Frames of one event name (and channel), in arrival order. */
  events(event: string, channel?: string): Frame[] {
    return this.frames.filter((f) => f.event === event && (channel === undefined || f.channel === channel));
  }

  /** Waits until `count` frames of `event` have come (bounded), then returns them. */
  async waitForEvents(event: string, count: number, channel?: string, timeoutMs = 3000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events(event, channel).length < count && Date.now() < deadline) await sleep(5);
    return this.events(event, channel);
  }

  /**
   * `pusher:subscribe` with whatever auth the caller got from the SDK (`authorizeChannel`'s `auth` and
   * `channel_data`, sent as they are); resolves with the answer, success or `pusher:error`.
   */
  subscribe(channel: string, auth: { auth?: string; channel_data?: string } = {}): Promise<Frame> {
    const start = this.frames.length;
    this.send({ event: 'pusher:subscribe', data: { channel, ...auth } });
    // A refusal is a channel-less `pusher:error`, as Pusher sends it: the first one after this subscribe.
    return this.next(
      (f) =>
        this.frames.indexOf(f) >= start &&
        ((f.channel === channel && f.event === 'pusher_internal:subscription_succeeded') ||
          (f.event === 'pusher:error' && f.channel === undefined)),
    );
  }

  /** `pusher:signin` with `authenticateUser`'s answer; resolves with `pusher:signin_success`. */
  signin(auth: { auth: string; user_data: string }): Promise<Frame> {
    this.send({ event: 'pusher:signin', data: auth });
    return this.next('pusher:signin_success');
  }

  unsubscribe(channel: string): void {
    this.send({ event: 'pusher:unsubscribe', data: { channel } });
  }

  /** A closing handshake, as a leaving browser tab sends it. */
  close(): void {
    this.#ws.close();
  }

  terminate(): void {
    this.#ws.terminate();
  }
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The status the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A node:http endpoint on port 0 that keeps each POST's raw body and headers and answers with the status
 * `answer` gives (an app's webhook handler: verify, then 200 or 401).
 */
export async function startWebhookReceiver(
  answer: (rawBody: string, headers: IncomingHttpHeaders) => Promise<number>,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const status = await answer(rawBody, req.headers).catch(() => 500);
      received.push({ headers: req.headers, rawBody, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pusher/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Client helpers: the package's own WebSocket client (`ws` in Node) against the emulator, with an app's auth
// endpoints on node:http that answer with the server SDK's `authorizeChannel` and `authenticateUser`.
// ---------------------------------------------------------------------------------------------------------

export interface AuthApp {
  /** Channel authorization, as pusher-js posts it: `socket_id`, `channel_name`, plus the client's params. */
  url: string;
  /** User authentication for `signin()`: `socket_id` plus params. */
  userUrl: string;
  /** Every form body received, in order. */
  requests: Record<string, string>[];
  /** When set, every request is answered with this status and no body (a session that expired, say). */
  failWith: number | null;
  close(): Promise<void>;
}

/**
 * An app's `/pusher/auth` and `/pusher/user-auth` on port 0. The user is whoever the form's `user_id`
 * (and `name`) says, as an app would take it from its session; presence `user_info` is `{ name }`; a
 * `watchlist` param (ids joined by commas) becomes the signed-in user's watchlist.
 */
export async function startAuthApp(server: RealtimeServer): Promise<AuthApp> {
  const app: AuthApp = { url: '', userUrl: '', requests: [], failWith: null, close: async () => {} };
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      app.requests.push(form);
      if (app.failWith !== null) {
        res.writeHead(app.failWith).end('Forbidden');
        return;
      }
      const userId = form.user_id ?? 'anonymous';
      const userInfo = { name: form.name ?? `user ${userId}` };
      try {
        const body = req.url?.endsWith('/user-auth')
          ? await server.authenticateUser(form.socket_id ?? '', {
              id: userId,
              user_info: userInfo,
              ...(form.watchlist ? { watchlist: form.watchlist.split(',') } : {}),
            })
          : await server.authorizeChannel(
              form.socket_id ?? '',
              form.channel_name ?? '',
              form.channel_name?.startsWith('presence-')
                ? { user_id: userId, user_info: userInfo }
                : undefined,
            );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  app.url = `${base}/pusher/auth`;
  app.userUrl = `${base}/pusher/user-auth`;
  app.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return app;
}

export type TestClient = RealtimeClient<{ name: string }>;

/** `ws://host:port` of a running emulator, split the way the client's options want it. */
export function wsTarget(rt: Pick<RealtimeSandbox, 'wsUrl'>): { wsHost: string; wsPort: number } {
  const url = new URL(rt.wsUrl);
  return { wsHost: url.hostname, wsPort: Number(url.port) };
}

/**
 * Makes connected clients of the emulator's first app and disconnects them all in `disconnectAll()`
 * (call it in `afterEach`). Reconnects are quick (50–200 ms steps) unless `reconnect` says otherwise.
 */
export class ClientFleet {
  readonly clients: TestClient[] = [];

  constructor(
    private readonly rt: Pick<RealtimeSandbox, 'wsUrl' | 'key'>,
    private readonly auth: AuthApp,
  ) {}

  make(userId = 'u-1', options: RealtimeClientOptions = {}, connect = true): TestClient {
    const client = new RealtimeClient<{ name: string }>(this.rt.key, {
      ...wsTarget(this.rt),
      forceTLS: false,
      webSocketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
      reconnect: { baseDelayMs: 50, maxDelayMs: 200 },
      channelAuthorization: { endpoint: this.auth.url, params: { user_id: userId } },
      userAuthentication: { endpoint: this.auth.userUrl, params: { user_id: userId } },
      ...options,
    });
    this.clients.push(client);
    if (connect) client.connect();
    return client;
  }

  /** A client already connected (`pusher:connection_established` received). */
  async connected(userId = 'u-1', options: RealtimeClientOptions = {}): Promise<TestClient> {
    const client = this.make(userId, options);
    await waitFor(() => client.connection.state === 'connected');
    return client;
  }

  disconnectAll(): void {
    for (const client of this.clients.splice(0)) client.disconnect();
  }
}

/** Every state the connection enters from now on, in order. */
export function recordStates(client: TestClient): ConnectionState[] {
  const states: ConnectionState[] = [];
  client.connection.bind('state_change', ({ current }) => states.push(current));
  return states;
}

/** Every `pusher:error` frame the client receives from now on (the connection's `message` events). */
export function recordServerErrors(client: TestClient): { code: unknown; message: unknown }[] {
  const errors: { code: unknown; message: unknown }[] = [];
  client.connection.bind('message', (frame) => {
    if (frame.event === 'pusher:error') errors.push(frame.data as { code: unknown; message: unknown });
  });
  return errors;
}
