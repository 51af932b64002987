/**
 * The client against a real `ws` server speaking protocol 7 (test/helpers/ws-peer.ts): connection,
 * reconnection and close codes, heartbeat, and the channel kinds, with real sockets and real time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeClient, type RealtimeClientOptions, type SocketLike } from '../../src/index.js';
import { waitFor } from '../helpers/sandbox.js';
import { type AuthEndpoint, sign, startAuthEndpoint, WsPeer } from '../helpers/ws-peer.js';

// Pusher's documentation app: the notes' signature vectors use it.
const creds = { key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' };

let peer: WsPeer;
let auth: AuthEndpoint;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  peer = await WsPeer.start(creds);
  auth = await startAuthEndpoint(creds);
});
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
  peer.silent = false;
  peer.refuseWith = null;
  auth.failWith = null;
});
afterAll(async () => {
  await peer.close();
  await auth.close();
});

function makeClient(options: RealtimeClientOptions = {}): RealtimeClient {
  const client = new RealtimeClient(creds.key, {
    wsHost: '127.0.0.1',
    wsPort: peer.port,
    forceTLS: false,
    webSocketFactory: (url) => new WebSocket(url) as unknown as SocketLike,
    reconnect: { baseDelayMs: 50, maxDelayMs: 200 },
    channelAuthorization: { endpoint: auth.url },
    ...options,
  });
  clients.push(client);
  return client;
}

function statesOf(client: RealtimeClient): string[] {
  const states: string[] = [];
  client.connection.bind('state_change', ({ current }) => states.push(current));
  return states;
}

describe('signatures (the notes’ vectors)', () => {
  it('private, presence and user signatures match Pusher’s published ones', () => {
    expect(sign(creds.secret, '1234.1234:private-foobar')).toBe(
      '58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4',
    );
    expect(
      sign(creds.secret, '1234.1234:presence-foobar:{"user_id":10,"user_info":{"name":"Mr. Pusher"}}'),
    ).toBe('afaed3695da2ffd16931f457e338e6c9f2921fa133ce7dac49f529792be6304c');
    expect(sign(creds.secret, '1234.1234::user::{"id":"12345"}')).toBe(
      '4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba',
    );
  });
});

describe('connection', () => {
  it('connects, reports states, and disconnects cleanly', async () => {
    const client = makeClient();
    const states = statesOf(client);
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    expect(client.connection.socketId).toMatch(/^\d+\.\d+$/);
    client.disconnect();
    expect(states).toEqual(['connecting', 'connected', 'disconnected']);
    await waitFor(() => peer.sockets === 0);
  });

  it('reconnects after the server drops the socket, resubscribes, and signals resubscribed', async () => {
    const client = makeClient();
    const news = client.subscribe('news');
    const received: unknown[] = [];
    const gaps: number[] = [];
    news.bind('created', (data) => received.push(data));
    news.bind('pusher:resubscribed', ({ gapMs }) => gaps.push(gapMs));
    client.connect();
    await news.subscribed;
    const firstSocket = client.connection.socketId;
    peer.dropAll();
    await waitFor(() => gaps.length === 1);
    expect(client.connection.socketId).not.toBe(firstSocket);
    expect(gaps[0]).toBeGreaterThanOrEqual(0);
    peer.trigger('news', 'created', { id: 1 });
    await waitFor(() => received.length === 1);
    expect(received).toEqual([{ id: 1 }]);
  });

  it('4009 (4001-4099): failed, no reconnect', async () => {
    const client = makeClient();
    const errors: { closeCode?: number }[] = [];
    client.connection.bind('error', (error) => errors.push(error));
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    const before = peer.connections;
    peer.closeAll(4009, 'unauthorized');
    await waitFor(() => client.connection.state === 'failed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(peer.connections).toBe(before);
    expect(errors[0]?.closeCode).toBe(4009);
  });

  it('4100: unavailable, reconnects after backing off', async () => {
    const client = makeClient();
    const states = statesOf(client);
    const delays: number[] = [];
    client.connection.bind('connecting_in', (ms) => delays.push(ms));
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    peer.closeAll(4100, 'over capacity');
    await waitFor(() => states.filter((s) => s === 'connected').length === 2);
    expect(states).toEqual(['connecting', 'connected', 'unavailable', 'connecting', 'connected']);
    expect(delays[0]).toBeGreaterThanOrEqual(1000); // the protocol's floor for 41xx, whatever the base
  });

  it('4200: reconnects at once, without passing through unavailable', async () => {
    const client = makeClient({ reconnect: { baseDelayMs: 5000, maxDelayMs: 5000 } });
    const states = statesOf(client);
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    peer.closeAll(4200);
    await waitFor(() => states.filter((s) => s === 'connected').length === 2, 1000);
    expect(states).toEqual(['connecting', 'connected', 'connecting', 'connected']);
  });

  it('a silent server is detected by ping/pong and the client reconnects', async () => {
    const client = makeClient({ activityTimeout: 150, pongTimeout: 150 });
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    const before = peer.connections;
    const first = client.connection.socketId;
    peer.silent = true;
    await waitFor(() => peer.received.some((f) => f.event === 'pusher:ping' && f.socketId === first));
    peer.silent = false;
    await waitFor(() => client.connection.state === 'connected' && client.connection.socketId !== first);
    expect(peer.connections).toBe(before + 1);
  });

  it('refusal before the handshake (4001) fails without retrying', async () => {
    peer.refuseWith = 4001;
    const client = makeClient();
    client.connect();
    await waitFor(() => client.connection.state === 'failed');
  });
});
