/**
 * Cross-SDK contract tests: one sandbox realtime emulator, and on it both sides of both SDKs. The official
 * `pusher` 5.3.4 server and our `RealtimeServer` share the app's key, secret and encryption master key; the
 * official `pusher-js` 8.6.0 (its Node build, WebSocket transport only, NaCl passed in as pusher-js's own
 * tweetnacl, as the sandbox's contract test does) and our `RealtimeClient` connect to the same emulator.
 * Auth goes where each test says: pusher-js's customHandler calls our server in-process, and our client
 * POSTs to a real node:http endpoint that answers with the official server's `authorizeChannel`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import PusherClient from 'pusher-js';
import WebSocket from 'ws';
import {
  type EventMetadata,
  RealtimeClient,
  type RealtimeClientOptions,
  type SocketLike,
} from '../../src/index.js';
import type { RealtimeServer } from '../../src/server.js';
import { devApp, MASTER_KEY, type RealtimeBox, startRealtimeBox } from './sandbox.js';

const requireFromPusherJs = createRequire(createRequire(import.meta.url).resolve('pusher-js'));
/** pusher-js's own tweetnacl: its Node build decrypts `private-encrypted-` channels with the `nacl` option. */
const nacl = requireFromPusherJs('tweetnacl');

export interface TestUser {
  id: string;
  info?: Record<string, unknown>;
}

/** A webhook the emulator posted, exactly as it came. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface Cross {
  box: RealtimeBox;
  /** Our server SDK, pointed at the emulator, with `MASTER_KEY`. */
  ours: RealtimeServer;
  /** The official server SDK, same app, same master key. */
  official: PusherServer;
  /** Webhook deliveries, in arrival order (the receiver answers 200 to all). */
  deliveries: Delivery[];
  /** A pusher-js client whose channel and user auth call `auth`'s `authorizeChannel`/`authenticateUser`. */
  pusherJs(user?: TestUser, auth?: 'ours' | 'official'): PusherClient;
  /** Our client, connected, authorized through the node:http endpoint backed by the official server. */
  ourClient(user?: TestUser, options?: RealtimeClientOptions): RealtimeClient;
  /** Form fields the auth endpoint received, in order. */
  authRequests: Record<string, string>[];
  close(): Promise<void>;
}

export async function startCross(): Promise<Cross> {
  const deliveries: Delivery[] = [];
  const hooks = await listen((req, body, res) => {
    deliveries.push({ headers: req.headers, rawBody: body });
    res.writeHead(200).end();
  });
  const box = await startRealtimeBox({
    apps: [devApp({ webhooks: { url: `${hooks.url}/pusher/webhooks` }, subscriptionCounting: true })],
  });
  const ours = box.server();
  const official = new PusherServer({
    appId: box.rt.appId,
    key: box.rt.key,
    secret: box.rt.secret,
    host: '127.0.0.1',
    port: new URL(box.rt.url).port,
    useTLS: false,
    encryptionMasterKeyBase64: MASTER_KEY,
  });

  // The app's auth endpoints as a Node app would write them with the official SDK: form body in, JSON out.
  const authRequests: Record<string, string>[] = [];
  const auth = await listen((req, body, res) => {
    const form = Object.fromEntries(new URLSearchParams(body));
    authRequests.push(form);
    const { socket_id: socketId = '', channel_name: channel = '', user_id: id = 'anon', name } = form;
    const info = name === undefined ? {} : { name };
    const answer = req.url?.startsWith('/pusher/user-auth')
      ? official.authenticateUser(socketId, { id, user_info: info })
      : official.authorizeChannel(
          socketId,
          channel,
          channel.startsWith('presence-') ? { user_id: id, user_info: info } : undefined,
        );
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });

  const pusherClients: PusherClient[] = [];
  const ourClients: RealtimeClient[] = [];
  const wsPort = Number(new URL(box.rt.wsUrl).port);

  return {
    box,
    ours,
    official,
    deliveries,
    authRequests,
    pusherJs(user = { id: 'anon' }, via = 'ours') {
      const presence = { user_id: user.id, user_info: user.info ?? {} };
      const signin = { id: user.id, user_info: user.info ?? {} };
      const client = new PusherClient(box.rt.key, {
        cluster: 'sandbox',
        wsHost: '127.0.0.1',
        wsPort,
        forceTLS: false,
        enabledTransports: ['ws'],
        nacl,
        channelAuthorization: {
          endpoint: '/unused',
          transport: 'ajax',
          customHandler: ({ socketId, channelName }, callback) => {
            const data = channelName.startsWith('presence-') ? presence : undefined;
            if (via === 'official') callback(null, official.authorizeChannel(socketId, channelName, data));
            else
              ours.authorizeChannel(socketId, channelName, data).then(
                (answer) => callback(null, answer),
                (error: Error) => callback(error, null),
              );
          },
        },
        userAuthentication: {
          endpoint: '/unused',
          transport: 'ajax',
          customHandler: ({ socketId }, callback) => {
            if (via === 'official') callback(null, official.authenticateUser(socketId, signin));
            else
              ours.authenticateUser(socketId, signin).then(
                (answer) => callback(null, answer),
                (error: Error) => callback(error, null),
              );
          },
        },
      } as ConstructorParameters<typeof PusherClient>[1]);
      pusherClients.push(client);
      return client;
    },
    ourClient(user = { id: 'anon' }, options = {}) {
      const params: Record<string, string> = { user_id: user.id };
      if (typeof user.info?.name === 'string') params.name = user.info.name;
      const client = new RealtimeClient(box.rt.key, {
        wsHost: '127.0.0.1',
        wsPort,
        forceTLS: false,
        webSocketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
        channelAuthorization: { endpoint: `${auth.url}/pusher/auth`, params },
        userAuthentication: { endpoint: `${auth.url}/pusher/user-auth`, params },
        ...options,
      });
      ourClients.push(client);
      client.connect();
      return client;
    },
    async close() {
      for (const client of pusherClients) client.disconnect();
      for (const client of ourClients) client.disconnect();
      await box.close();
      await Promise.all([hooks.close(), auth.close()]);
    },
  };
}

async function listen(
  handle: (
    req: import('node:http').IncomingMessage,
    body: string,
    res: import('node:http').ServerResponse,
  ) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves when pusher-js is connected. */
export function pjConnected(client: PusherClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.connection.state === 'connected') resolve();
    else client.connection.bind('connected', () => resolve());
  });
}

/** pusher-js subscribes; resolves with `pusher:subscription_succeeded`'s data (the members, for presence). */
export function pjSubscribed(client: PusherClient, name: string): Promise<any> {
  const channel = client.subscribe(name);
  return new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve);
    channel.bind('pusher:subscription_error', (error: unknown) =>
      reject(new Error(`subscription_error on ${name}: ${JSON.stringify(error)}`)),
    );
  });
}

/** Signs pusher-js in and waits until its `#server-to-user-{id}` channel is acknowledged. */
export async function pjSignedIn(client: PusherClient): Promise<void> {
  client.signin();
  await pjConnected(client);
  await client.user.signinDonePromise;
  await new Promise<void>((resolve) => {
    const channel = client.user.serverToUserChannel;
    if (channel?.subscribed) resolve();
    else channel?.bind('pusher:subscription_succeeded', () => resolve());
  });
}

/** One event as a receiver saw it: name, channel, decoded data, and the metadata pusher-js or ours gave. */
export interface Received {
  event: string;
  channel: string;
  data: unknown;
  userId?: string | undefined;
}

/**
 * Records every non-`pusher:` event a pusher-js channel gets, in order. pusher-js gives global callbacks no
 * metadata, so `userId` is read from a named binding: pass the client event names whose `user_id` matters.
 */
export function pjRecord(client: PusherClient, channelName: string, withUserId: string[] = []): Received[] {
  const got: Received[] = [];
  const channel = client.channel(channelName)!;
  channel.bind_global((event: string, data: unknown) => {
    if (event.startsWith('pusher:') || event.startsWith('pusher_internal:') || withUserId.includes(event))
      return;
    got.push({ event, channel: channelName, data });
  });
  for (const event of withUserId) {
    channel.bind(event, (data: unknown, meta?: { user_id?: string }) =>
      got.push({ event, channel: channelName, data, ...(meta?.user_id ? { userId: meta.user_id } : {}) }),
    );
  }
  return got;
}

/** Records every non-`pusher:` event one of our channels gets, in order. */
export function ourRecord(client: RealtimeClient, channelName: string): Received[] {
  const got: Received[] = [];
  client.channel(channelName)!.bindGlobal((event, data, ...rest) => {
    const meta = rest[0] as EventMetadata | undefined;
    if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
    got.push({ event, channel: channelName, data, ...(meta?.user_id ? { userId: meta.user_id } : {}) });
  });
  return got;
}
