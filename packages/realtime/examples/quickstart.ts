/**
 * Both halves of @x/realtime in one script: the app's own node:http server (its auth endpoint signs
 * subscriptions with `authorizeChannel`, its webhook endpoint checks Pusher's signature) and two clients on a
 * private and a presence channel, receiving an event the server publishes. It runs against a local sandbox,
 * or against Pusher when PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET and PUSHER_CLUSTER are set:
 *   pnpm --filter @x/realtime example
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RealtimeClient } from '@x/realtime';
import { RealtimeServer, ValidationError, WebhookVerificationError } from '@x/realtime/server';
import { REALTIME_DEV_APP, startSandbox } from '@x/sandbox';

const { PUSHER_APP_ID, PUSHER_KEY, PUSHER_SECRET, PUSHER_CLUSTER } = process.env;
const real = PUSHER_APP_ID && PUSHER_KEY && PUSHER_SECRET && PUSHER_CLUSTER;

// The app's server. POST /pusher/auth answers the clients' form POSTs (socket_id, channel_name, and our
// `user` param); POST /pusher/webhooks takes the service's signed webhooks.
let server: RealtimeServer | undefined;
const verified: string[] = [];
const app = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8');
  try {
    if (!server) throw new Error('not ready');
    if (req.url === '/pusher/auth') {
      const form = new URLSearchParams(body);
      const channel = form.get('channel_name') ?? '';
      // A real app takes the user from its session and decides here who may join which channel.
      const user = form.get('user') ?? 'anonymous';
      const presence = channel.startsWith('presence-')
        ? { user_id: user, user_info: { name: user.toUpperCase() } }
        : undefined;
      const signed = await server.authorizeChannel(form.get('socket_id') ?? '', channel, presence);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(signed));
    } else if (req.url === '/pusher/webhooks') {
      // The raw body, as received: a re-serialised one would not verify.
      const { events } = await server.verifyWebhook(body, req.headers, { maxAgeMs: 6 * 60_000 });
      for (const e of events) verified.push(`${e.name} ${e.channel}${'user_id' in e ? ` ${e.user_id}` : ''}`);
      res.writeHead(200).end();
    } else {
      res.writeHead(404).end();
    }
  } catch (error) {
    res.writeHead(error instanceof WebhookVerificationError ? 401 : 403).end(String(error));
  }
});
await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

// Without Pusher credentials: the sandbox's dev app, posting its webhooks to this script. (Pusher's webhook
// URL is set in its dashboard and must be public, so against Pusher this script does not receive them.)
const sandbox = real
  ? undefined
  : await startSandbox({
      store: false,
      realtime: { apps: [{ ...REALTIME_DEV_APP, webhooks: { url: `${appUrl}/pusher/webhooks` } }] },
    });
const local = sandbox?.realtime ? new URL(sandbox.realtime.url) : undefined;
const key = sandbox?.realtime?.key ?? PUSHER_KEY!;
server = new RealtimeServer(
  local
    ? {
        appId: sandbox!.realtime!.appId,
        key,
        secret: sandbox!.realtime!.secret,
        host: local.hostname,
        port: Number(local.port),
        useTLS: false,
      }
    : { appId: PUSHER_APP_ID!, key, secret: PUSHER_SECRET!, cluster: PUSHER_CLUSTER! },
);

/** A client as a browser would make it: it knows the key, never the secret. */
function makeClient(user: string): RealtimeClient<{ name: string }> {
  return new RealtimeClient<{ name: string }>(key, {
    ...(local
      ? { wsHost: local.hostname, wsPort: Number(local.port), forceTLS: false }
      : { cluster: PUSHER_CLUSTER! }),
    channelAuthorization: { endpoint: `${appUrl}/pusher/auth`, params: { user } },
  });
}

const ada = makeClient('ada');
const states: string[] = [];
ada.connection.bind('state_change', ({ current }) => states.push(current));
ada.connect();
const orders = ada.subscribe('private-orders'); // PrivateChannel
const lobby = ada.subscribe('presence-lobby'); // PresenceChannel<{ name: string }>
await Promise.all([orders.subscribed, lobby.subscribed]);
console.log(`connection: ${states.join(' -> ')} (socket ${ada.connection.socketId})`);
console.log(`subscribed: ${orders.name}, ${lobby.name} as ${lobby.members.me?.id}`);

const joined = new Promise<string>((resolve) =>
  lobby.onMemberAdded((m) => resolve(`${m.id} (${m.info.name})`)),
);
const bob = makeClient('bob');
bob.connect();
await bob.subscribe('presence-lobby').subscribed;
console.log(`member added: ${await joined}; ${lobby.members.count} members`);

const shipped = new Promise<{ id: number }>((resolve) =>
  orders.bind<{ id: number }>('order-shipped', resolve),
);
await server.trigger('private-orders', 'order-shipped', { id: 42 });
console.log(`received order-shipped: ${JSON.stringify(await shipped)}`);

const { users } = await server.channels.users('presence-lobby');
console.log(`presence-lobby users (HTTP API): ${users.map((u) => u.id).join(', ')}`);

await server.trigger('private-orders', 'too-big', 'x'.repeat(11_000)).catch((error: unknown) => {
  if (!(error instanceof ValidationError)) throw error;
  console.log(`as expected: ${error.message}`);
});

if (sandbox) {
  await sandbox.realtime!.idle(); // every webhook so far delivered
  for (const line of verified) console.log(`webhook verified: ${line}`);
} else {
  console.log(`webhooks: give the dashboard a public URL that reaches ${appUrl}/pusher/webhooks`);
}

ada.disconnect();
bob.disconnect();
await sandbox?.close();
await new Promise((resolve) => app.close(resolve));
