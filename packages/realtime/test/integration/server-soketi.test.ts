/**
 * Our client and server SDK against soketi 1.6.1 (installed from npm by `test/helpers/soketi.ts`), with
 * soketi's default app `app-id` / `app-key` / `app-secret`: every frame and every HTTP answer here was
 * written by a server nobody here wrote. Private and presence channels are authorized by a node:http
 * endpoint that answers with our `RealtimeServer`.
 */
import { AuthenticationError, ValidationError } from '@x/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventMetadata, Member } from '../../src/index.js';
import { RealtimeServer } from '../../src/server.js';
import { expectSendToUser, expectSocketIdExcludes } from '../helpers/flows.js';
import { type AuthApp, ClientFleet, startAuthApp, waitFor } from '../helpers/sandbox.js';
import { SOKETI_APP, type Soketi, startSoketi } from '../helpers/soketi.js';

let soketi: Soketi;
let server: RealtimeServer;
let auth: AuthApp;
let fleet: ClientFleet;

const serverFor = (overrides: Partial<ConstructorParameters<typeof RealtimeServer>[0]> = {}) =>
  new RealtimeServer({
    ...SOKETI_APP,
    host: soketi.host,
    port: soketi.port,
    useTLS: false,
    maxRetries: 0,
    ...overrides,
  });

beforeAll(async () => {
  soketi = await startSoketi();
  server = serverFor();
  auth = await startAuthApp(server);
  fleet = new ClientFleet(soketi, auth);
}, 600_000);
afterEach(() => fleet.disconnectAll());
afterAll(async () => {
  await auth?.close();
  await soketi?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RealtimeServer options: app ids of self-hosted servers', () => {
  it("accepts soketi's `app-id` and other ids a server can route; refuses what would change the URL path", () => {
    for (const appId of ['app-id', 'my_app.1', 'APP', 0, 42, '123'])
      expect(serverFor({ appId }).appId).toBe(String(appId));
    const cases: [unknown, RegExp][] = [
      ['', /appId: is required.*empty string/],
      ['   ', /appId: is required.*empty string/],
      ['a b', /appId: must not contain spaces or control characters/],
      ['a\u0000b', /appId: must not contain spaces or control characters/],
      ['apps/1', /appId: may hold only letters, digits and/],
      ['..', /appId: must not be \. or \.\./],
      ['a?b', /appId: may hold only/],
      ['a%3Ab', /appId: may hold only/],
      ['café', /appId: may hold only/],
      ['a"b', /appId: may hold only/],
      ['[1]', /appId: may hold only/],
      ['x'.repeat(201), /appId: must be at most 200 characters/],
      [-1, /appId: must be a non-negative integer or a string/],
      [1.5, /appId: must be a non-negative integer or a string/],
      [undefined, /appId: is required.*received undefined|appId: is required.*an undefined/],
      [{}, /appId: is required.*an object/],
    ];
    for (const [appId, message] of cases) {
      const attempt = () => serverFor({ appId: appId as string });
      expect(attempt).toThrow(ValidationError);
      expect(attempt).toThrow(message);
    }
  });
});

describe('app ids with the characters a path segment carries unencoded', () => {
  // The id went out percent-encoded (`a%3Ab`), soketi routes the raw segment, and answered "The app a%3Ab
  // could not be found" for an id it serves. Sent as is, the request routes and its signature verifies.
  it("soketi serving app `my:app+1@x=y;z,w&v$u!(t)*~s'r` takes triggers and queries", async () => {
    const appId = "my:app+1@x=y;z,w&v$u!(t)*~s'r";
    const other = await startSoketi({ SOKETI_DEFAULT_APP_ID: appId });
    try {
      const client = serverFor({ appId, host: other.host, port: other.port });
      await expect(client.trigger('news', 'flash', 1)).resolves.toBeDefined();
      await expect(
        client.triggerBatch([{ channel: 'news', name: 'flash', data: 'x' }]),
      ).resolves.toBeDefined();
      await expect(client.channels.list()).resolves.toEqual({ channels: {} });
      // The signature covers the path: a wrong secret is still refused, so the id was verified, not skipped.
      await expect(
        serverFor({ appId, host: other.host, port: other.port, secret: 'no' }).channels.list(),
      ).rejects.toMatchObject({ status: 401 });
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('HTTP API errors that soketi sends with status 200', () => {
  it("a wrong secret rejects with AuthenticationError 401 and soketi's message; nothing is delivered", async () => {
    const client = await fleet.connected('ada');
    const got: unknown[] = [];
    const channel = client.subscribe('news').bind('flash', (data) => got.push(data));
    await channel.subscribed;
    const wrong = serverFor({ secret: 'not-the-secret', coalesce: false });
    const error = await wrong.trigger('news', 'flash', { n: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      message: expect.stringContaining('The secret authentication failed'),
    });
    expect((error as Error).message).toContain('answered HTTP 200 with this error in its body');
    expect((error as Error).message).not.toContain('not-the-secret');
    await expect(wrong.triggerBatch([{ channel: 'news', name: 'flash', data: 'x' }])).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    await expect(wrong.channels.list()).rejects.toMatchObject({ status: 401 });
    // The right secret still works, and only its event arrives.
    await server.trigger('news', 'flash', { n: 2 });
    await waitFor(() => got.length === 1);
    await sleep(50);
    expect(got).toEqual([{ n: 2 }]);
  });

  it('an app soketi does not know: 404 from the body; success bodies ({ok:true}, channel info) stay successes', async () => {
    await expect(serverFor({ appId: 'no-such-app' }).channels.list()).rejects.toMatchObject({ status: 404 });
    await expect(server.trigger('news', 'flash', 1)).resolves.toBeDefined();
    await expect(server.channels.get('presence-nobody')).resolves.toMatchObject({ occupied: false });
  });
});

describe('client and server SDK against soketi', () => {
  it('connects with a socket id, subscribes to a public channel, and gets triggered events in order', async () => {
    const client = await fleet.connected('ada');
    expect(client.connection.socketId).toMatch(/^\d+\.\d+$/);
    const got: unknown[] = [];
    const channel = client.subscribe('public-feed').bind('post', (data) => got.push(data));
    await channel.subscribed;
    await server.trigger('public-feed', 'post', { n: 1 });
    await server.trigger(['public-feed', 'other'], 'post', 'plain text');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([{ n: 1 }, 'plain text']);
  });

  it('private channel: authorized through our server; socketId excludes that connection', () =>
    expectSocketIdExcludes(fleet, server));

  it('presence: members on both sides, channels.get user_count, channels.users, channels.list', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    const adaRoom = ada.subscribe('presence-room');
    await adaRoom.subscribed;
    const added: Member<{ name: string }>[] = [];
    adaRoom.bind('pusher:member_added', (member) => added.push(member as Member<{ name: string }>));
    const bobRoom = bob.subscribe('presence-room');
    await bobRoom.subscribed;
    await waitFor(() => added.length === 1);
    expect(added[0]).toMatchObject({ id: 'bob', info: { name: 'user bob' } });
    expect(bobRoom.members.count).toBe(2);
    expect(bobRoom.members.me).toMatchObject({ id: 'bob' });

    await expect(
      server.channels.get('presence-room', { info: ['user_count', 'subscription_count'] }),
    ).resolves.toMatchObject({
      occupied: true,
      user_count: 2,
    });
    const { users } = await server.channels.users('presence-room');
    expect(users.map((u) => u.id).sort()).toEqual(['ada', 'bob']);
    const list = await server.channels.list({ prefix: 'presence-', info: ['user_count'] });
    // soketi 1.6.1 lists the channel with `subscription_count` where Pusher's reference says `user_count`.
    expect(list.channels['presence-room']).toMatchObject({ subscription_count: 2 });
  });

  it('triggerBatch: 12 events on three channels arrive in order', async () => {
    const client = await fleet.connected('ada');
    const got: string[] = [];
    const names = ['batch-a', 'private-batch-b', 'presence-batch-c'];
    const channels = names.map((name) => client.subscribe(name));
    for (const channel of channels)
      channel.bind('tick', (data) => got.push(`${channel.name}:${String(data)}`));
    await Promise.all(channels.map((channel) => channel.subscribed));
    const events = Array.from({ length: 12 }, (_, i) => ({
      channel: names[i % 3]!,
      name: 'tick',
      data: String(i),
    }));
    await server.triggerBatch(events);
    await waitFor(() => got.length === 12);
    expect(got).toEqual(events.map((e) => `${e.channel}:${e.data}`));
  });

  it('coalesced triggers of one tick all arrive, each exactly once, in call order per channel', async () => {
    const client = await fleet.connected('ada');
    const got: number[] = [];
    const channel = client.subscribe('coalesced').bind('n', (data) => got.push(data as number));
    await channel.subscribed;
    await Promise.all(Array.from({ length: 35 }, (_, i) => server.trigger('coalesced', 'n', i)));
    await waitFor(() => got.length === 35);
    await sleep(50);
    expect(got).toEqual(Array.from({ length: 35 }, (_, i) => i));
  });

  it('client events (enabled for the app): reach the other member with user_id, not the sender', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    const adaRoom = ada.subscribe('presence-chat');
    const bobRoom = bob.subscribe('presence-chat');
    await Promise.all([adaRoom.subscribed, bobRoom.subscribed]);
    const adaGot: unknown[] = [];
    const bobGot: [unknown, EventMetadata][] = [];
    adaRoom.bind('client-wave', (data) => adaGot.push(data));
    bobRoom.bind('client-wave', (data, metadata) => bobGot.push([data, metadata]));
    expect(adaRoom.trigger('client-wave', { hi: 1 })).toBe(true);
    await waitFor(() => bobGot.length === 1);
    expect(bobGot[0]?.[0]).toEqual({ hi: 1 });
    expect(bobGot[0]?.[1]).toMatchObject({ user_id: 'ada' });
    await sleep(50);
    expect(adaGot).toEqual([]);
  });

  it('signin, then sendToUser reaches every connection of that user and no one else', async () => {
    await expectSendToUser(fleet, server);
  });
});
