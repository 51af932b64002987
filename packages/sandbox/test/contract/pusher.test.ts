/**
 * Contract: the official Pusher SDKs against the realtime emulator, used as their READMEs show. The server SDK
 * `pusher` 5.3.4 (host/port/useTLS:false pointed at the sandbox) triggers, queries, terminates, authorizes and
 * verifies webhooks; the client `pusher-js` 8.6.0 (its Node build, WebSocket transport only, wsHost/wsPort at
 * the sandbox) subscribes to public, private, presence and encrypted channels, signs in, and receives events.
 * Encrypted channels need NaCl, which pusher-js's Node build takes as the `nacl` option (it depends on
 * tweetnacl; we load pusher-js's own copy rather than declare another dependency).
 */

import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const requireFromPusherJs = createRequire(createRequire(import.meta.url).resolve('pusher-js'));
const nacl = requireFromPusherJs('tweetnacl');

const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');
let box: Sandbox<false>;
let server: PusherServer;
let receiver: http.Server;
const webhookBodies: { headers: http.IncomingHttpHeaders; rawBody: string }[] = [];
const clients: PusherClient[] = [];

/** A pusher-js client whose channel and user auth call the server SDK in-process, as an auth endpoint would. */
function client(user: { id: string; info?: Record<string, unknown> } = { id: 'anon' }): PusherClient {
  const rt = box.realtime!;
  const c = new PusherClient(rt.key, {
    cluster: 'sandbox',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(rt.url).port),
    forceTLS: false,
    enabledTransports: ['ws'],
    nacl,
    channelAuthorization: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        const presence = channelName.startsWith('presence-')
          ? { user_id: user.id, user_info: user.info ?? {} }
          : undefined;
        callback(null, server.authorizeChannel(socketId, channelName, presence));
      },
    },
    userAuthentication: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => {
        callback(null, server.authenticateUser(socketId, { id: user.id, user_info: user.info ?? {} }));
      },
    },
  } as ConstructorParameters<typeof PusherClient>[1]);
  clients.push(c);
  return c;
}

function connected(c: PusherClient): Promise<void> {
  return new Promise((resolve) => {
    if (c.connection.state === 'connected') resolve();
    else c.connection.bind('connected', () => resolve());
  });
}

function subscribed(c: PusherClient, name: string): Promise<any> {
  const channel = c.subscribe(name);
  return new Promise((resolve, reject) => {
    channel.bind('pusher:subscription_succeeded', resolve);
    channel.bind('pusher:subscription_error', reject);
  });
}

function nextEvent(c: PusherClient, channel: string, event: string): Promise<any> {
  return new Promise((resolve) =>
    c.channel(channel)!.bind(event, (data: unknown, meta: unknown) => resolve({ data, meta })),
  );
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      webhookBodies.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/pusher`;
  box = await startSandbox({
    store: false,
    realtime: {
      apps: [
        {
          appId: '777',
          key: 'contract-key',
          secret: 'contract-secret',
          webhooks: { url: hook },
          subscriptionCounting: true,
        },
      ],
    },
  });
  const rt = box.realtime!;
  server = new PusherServer({
    appId: rt.appId,
    key: rt.key,
    secret: rt.secret,
    host: '127.0.0.1',
    port: new URL(rt.url).port,
    useTLS: false,
    encryptionMasterKeyBase64: MASTER_KEY,
  });
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await box?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('official pusher + pusher-js against the realtime emulator', () => {
  it('connects and receives events on a public channel', async () => {
    const c = client();
    await subscribed(c, 'contract-public');
    const got = nextEvent(c, 'contract-public', 'greeting');
    await server.trigger('contract-public', 'greeting', { hello: 'world' });
    await expect(got).resolves.toMatchObject({ data: { hello: 'world' } });
  });

  it('subscribes to a private channel through authorizeChannel and excludes the sender by socket_id', async () => {
    const a = client();
    const b = client();
    await Promise.all([subscribed(a, 'private-contract'), subscribed(b, 'private-contract')]);
    const toB = nextEvent(b, 'private-contract', 'note');
    let aGot = false;
    a.channel('private-contract')!.bind('note', () => {
      aGot = true;
    });
    await server.trigger('private-contract', 'note', { n: 1 }, { socket_id: a.connection.socket_id });
    await expect(toB).resolves.toMatchObject({ data: { n: 1 } });
    await new Promise((r) => setTimeout(r, 100));
    expect(aGot).toBe(false);
  });

  it('tracks presence members, relays client events with user_id, and answers channel queries', async () => {
    const alice = client({ id: 'alice', info: { name: 'Alice' } });
    const bob = client({ id: 'bob', info: { name: 'Bob' } });
    const members = await subscribed(alice, 'presence-contract');
    expect(members.count).toBe(1);
    const added = nextEvent(alice, 'presence-contract', 'pusher:member_added');
    await subscribed(bob, 'presence-contract');
    await expect(added).resolves.toMatchObject({ data: { id: 'bob', info: { name: 'Bob' } } });
    const typed = nextEvent(alice, 'presence-contract', 'client-typing');
    expect(bob.channel('presence-contract')!.trigger('client-typing', { on: true })).toBe(true);
    await expect(typed).resolves.toMatchObject({ data: { on: true }, meta: { user_id: 'bob' } });

    const users = await (await server.get({ path: '/channels/presence-contract/users' })).json();
    expect(users.users.map((u: { id: string }) => u.id).sort()).toEqual(['alice', 'bob']);
    const info = await (
      await server.get({
        path: '/channels/presence-contract',
        params: { info: 'user_count,subscription_count' },
      })
    ).json();
    expect(info).toEqual({ occupied: true, user_count: 2, subscription_count: 2 });
    const list = await (
      await server.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })
    ).json();
    expect(list.channels['presence-contract']).toEqual({ user_count: 2 });
  });

  it('decrypts events on an encrypted channel', async () => {
    const c = client();
    await subscribed(c, 'private-encrypted-contract');
    const got = nextEvent(c, 'private-encrypted-contract', 'secret');
    await server.trigger('private-encrypted-contract', 'secret', { code: 42 });
    await expect(got).resolves.toMatchObject({ data: { code: 42 } });
  });

  it("signs a user in, sends to the user, and terminates the user's connections", async () => {
    const c = client({ id: 'carol' });
    c.signin();
    await connected(c);
    await c.user.signinDonePromise;
    const direct = new Promise((resolve) => c.user.bind('direct', resolve));
    // After signin_success pusher-js subscribes to #server-to-user-carol; wait until that is acknowledged.
    await new Promise<void>((resolve) => {
      const channel = c.user.serverToUserChannel;
      if (channel?.subscribed) resolve();
      else channel?.bind('pusher:subscription_succeeded', () => resolve());
    });
    await server.sendToUser('carol', 'direct', { hi: 1 });
    await expect(direct).resolves.toEqual({ hi: 1 });
    const gone = new Promise<void>((resolve) => c.connection.bind('disconnected', () => resolve()));
    await server.terminateUserConnections('carol');
    await gone;
    // 4009 is in the "do not reconnect" range: pusher-js stays disconnected.
    expect(c.connection.state).toBe('disconnected');
  });

  it("rejects a trigger signed with the wrong secret as a RequestError with Pusher's 401 text", async () => {
    const rt = box.realtime!;
    const wrong = new PusherServer({
      appId: rt.appId,
      key: rt.key,
      secret: 'not-the-secret',
      host: '127.0.0.1',
      port: new URL(rt.url).port,
      useTLS: false,
    });
    await expect(wrong.trigger('x', 'y', {})).rejects.toMatchObject({
      status: 401,
      body: expect.stringMatching(/^Invalid signature/),
    });
  });

  it('delivers webhooks that pusher.webhook().isValid() accepts', async () => {
    await box.realtime!.idle();
    expect(webhookBodies.length).toBeGreaterThan(0);
    const names = new Set<string>();
    for (const body of webhookBodies) {
      const webhook = server.webhook(body);
      expect(webhook.isValid()).toBe(true);
      for (const event of webhook.getEvents()) names.add(event.name);
      expect(webhook.getTime()).toBeInstanceOf(Date);
    }
    expect([...names]).toEqual(expect.arrayContaining(['channel_occupied', 'member_added', 'client_event']));
    const forged = server.webhook({
      ...webhookBodies[0]!,
      rawBody: webhookBodies[0]!.rawBody.replace('channel', 'chanel'),
    });
    expect(forged.isValid()).toBe(false);
  });
});
