/**
 * Channel kinds end to end: private auth through a real `node:http` endpoint, presence members, client
 * events between two clients, encrypted channels (encrypted here with @noble/ciphers, decrypted by the
 * client's lazily loaded secretbox), and signin with server-to-user events.
 */
import { randomBytes } from 'node:crypto';
import { secretbox } from '@noble/ciphers/salsa.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Member, RealtimeClient, type RealtimeClientOptions, type SocketLike } from '../../src/index.js';
import { waitFor } from '../helpers/sandbox.js';
import { type AuthEndpoint, channelSharedSecret, startAuthEndpoint, WsPeer } from '../helpers/ws-peer.js';

const creds = { key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' };
const masterKey = Uint8Array.from({ length: 32 }, (_, i) => i);

let peer: WsPeer;
let auth: AuthEndpoint;
const clients: RealtimeClient<{ name: string }>[] = [];

beforeAll(async () => {
  peer = await WsPeer.start(creds);
  auth = await startAuthEndpoint(creds, masterKey);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
  auth.failWith = null;
});
afterAll(async () => {
  await peer.close();
  await auth.close();
});

function makeClient(userId = 'u-1', options: RealtimeClientOptions = {}): RealtimeClient<{ name: string }> {
  const client = new RealtimeClient<{ name: string }>(creds.key, {
    wsHost: '127.0.0.1',
    wsPort: peer.port,
    forceTLS: false,
    webSocketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
    reconnect: { baseDelayMs: 50, maxDelayMs: 200 },
    channelAuthorization: { endpoint: auth.url, params: { user_id: userId, name: `user ${userId}` } },
    userAuthentication: { endpoint: auth.userUrl, params: { user_id: userId } },
    ...options,
  });
  clients.push(client);
  client.connect();
  return client;
}

function encrypt(channel: string, data: unknown): string {
  const nonce = randomBytes(24);
  const key = channelSharedSecret(channel, masterKey);
  const ciphertext = secretbox(key, nonce).seal(new TextEncoder().encode(JSON.stringify(data)));
  return JSON.stringify({
    nonce: nonce.toString('base64'),
    ciphertext: Buffer.from(ciphertext).toString('base64'),
  });
}

describe('private channels', () => {
  it('authorizes with a form POST to the endpoint and receives events', async () => {
    const client = makeClient();
    const channel = client.subscribe('private-orders');
    await channel.subscribed;
    const request = auth.requests.find((r) => r.channel_name === 'private-orders');
    expect(request).toMatchObject({ socket_id: client.connection.socketId, user_id: 'u-1' });
    const got: unknown[] = [];
    channel.bind('shipped', (data) => got.push(data));
    peer.trigger('private-orders', 'shipped', 'not json, kept as a string');
    await waitFor(() => got.length === 1);
    expect(got).toEqual(['not json, kept as a string']);
  });

  it('a non-200 answer surfaces as a typed subscription_error', async () => {
    auth.failWith = 403;
    const client = makeClient();
    const channel = client.subscribe('private-denied');
    const errors: unknown[] = [];
    channel.bind('pusher:subscription_error', (error) => errors.push(error));
    await expect(channel.subscribed).rejects.toThrow(/HTTP 403/);
    expect(errors[0]).toMatchObject({ type: 'AuthError', status: 403 });
    auth.failWith = null;
    expect(client.subscribe('private-denied')).toBe(channel);
    await channel.subscribed;
  });

  it('a signature the server refuses surfaces as a subscription_error', async () => {
    const client = makeClient('u-1', {
      channelAuthorization: { customHandler: async () => ({ auth: `${creds.key}:${'0'.repeat(64)}` }) },
    });
    await expect(client.subscribe('private-forged').subscribed).rejects.toThrow(/Invalid signature/);
  });
});

describe('presence channels', () => {
  it('keeps members current and types them', async () => {
    const ada = makeClient('u-1');
    const room = ada.subscribe('presence-room');
    const added: Member<{ name: string }>[] = [];
    const removed: string[] = [];
    room.onMemberAdded((member) => added.push(member));
    room.onMemberRemoved((member) => removed.push(member.id));
    await room.subscribed;
    expect(room.members.me).toEqual({ id: 'u-1', info: { name: 'user u-1' } });
    expect(room.members.count).toBe(1);

    const bob = makeClient('u-2');
    await bob.subscribe('presence-room').subscribed;
    await waitFor(() => added.length === 1);
    expect(added[0]).toEqual({ id: 'u-2', info: { name: 'user u-2' } });
    expect(room.members.count).toBe(2);
    expect(room.members.get('u-2')?.info.name).toBe('user u-2');

    bob.disconnect();
    await waitFor(() => removed.length === 1);
    expect(removed).toEqual(['u-2']);
    expect(room.members.count).toBe(1);
  });

  it('client events reach the other members with user_id, not the sender', async () => {
    const ada = makeClient('u-1');
    const bob = makeClient('u-2');
    const adaRoom = ada.subscribe('presence-chat');
    const bobRoom = bob.subscribe('presence-chat');
    const got: { data: unknown; userId: string | undefined }[] = [];
    const echoed: unknown[] = [];
    bobRoom.bind('client-typing', (data, meta) => got.push({ data, userId: meta.user_id }));
    adaRoom.bind('client-typing', (data) => echoed.push(data));
    await Promise.all([adaRoom.subscribed, bobRoom.subscribed]);
    for (let i = 0; i < 12; i += 1) expect(adaRoom.trigger('client-typing', { i })).toBe(true);
    await waitFor(() => got.length === 12);
    expect(got[0]).toEqual({ data: { i: 0 }, userId: 'u-1' });
    expect(got.map((g) => (g.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(echoed).toEqual([]);
  });
});

describe('encrypted channels', () => {
  it('decrypts with the shared_secret from the auth response', async () => {
    const client = makeClient();
    const channel = client.subscribe('private-encrypted-dm');
    const got: unknown[] = [];
    channel.bind('message', (data) => got.push(data));
    await channel.subscribed;
    peer.trigger('private-encrypted-dm', 'message', encrypt('private-encrypted-dm', { text: 'hello' }));
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ text: 'hello' }]);
    expect(() => (channel.trigger as unknown as (...a: unknown[]) => void)('client-x', {})).toThrow(
      /not supported/,
    );
  });

  it('re-authorizes once on a decryption failure, then drops and reports', async () => {
    const client = makeClient();
    const channel = client.subscribe('private-encrypted-rotated');
    const errors: { event: string }[] = [];
    channel.bind('pusher:decryption_error', (error) => errors.push(error));
    await channel.subscribed;
    const before = auth.requests.length;
    peer.trigger(
      'private-encrypted-rotated',
      'message',
      encrypt('private-encrypted-other', { text: 'wrong key' }),
    );
    await waitFor(() => errors.length === 1);
    expect(auth.requests.length).toBe(before + 1);
    expect(errors[0]?.event).toBe('message');
  });
});

describe('user signin', () => {
  it('signs in and receives server-to-user events', async () => {
    const client = makeClient('u-7');
    const user = await client.signin();
    expect(user).toMatchObject({ id: 'u-7' });
    const got: unknown[] = [];
    client.user.bind('notice', (data) => got.push(data));
    await waitFor(() =>
      peer.received.some(
        (f) =>
          f.event === 'pusher:subscribe' &&
          (f.data as { channel?: string }).channel === '#server-to-user-u-7',
      ),
    );
    peer.trigger('#server-to-user-u-7', 'notice', { text: 'hi' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ text: 'hi' }]);
  });

  it('signs in again after a reconnect and keeps receiving user events', async () => {
    const client = makeClient('u-8');
    await client.signin();
    const got: unknown[] = [];
    client.user.bind('notice', (data) => got.push(data));
    const signins = () => peer.received.filter((f) => f.event === 'pusher:signin').length;
    const before = signins();
    const userSubscribes = () =>
      peer.received.filter((f) => (f.data as { channel?: string })?.channel === '#server-to-user-u-8').length;
    await waitFor(() => userSubscribes() === 1);
    peer.dropAll();
    await waitFor(() => signins() === before + 1 && client.user.data?.id === 'u-8');
    await waitFor(() => userSubscribes() === 2);
    peer.trigger('#server-to-user-u-8', 'notice', { again: true });
    await waitFor(() => got.length === 1);
  });
});

describe('presence after a reconnect', () => {
  it('rebuilds the member list from the new subscription', async () => {
    const ada = makeClient('u-1');
    const bob = makeClient('u-2');
    const room = ada.subscribe('presence-reconnect');
    await Promise.all([room.subscribed, bob.subscribe('presence-reconnect').subscribed]);
    await waitFor(() => room.members.count === 2);
    let resubscribed = 0;
    room.bind('pusher:resubscribed', () => resubscribed++);
    peer.dropAll();
    await waitFor(() => resubscribed === 1 && room.members.count === 2);
    expect(room.members.me?.id).toBe('u-1');
  });
});
