/**
 * The client against the sandbox's realtime emulator over real sockets: the connection's states, then each
 * channel kind end to end. Private and presence channels are authorized by a node:http endpoint that answers
 * with `RealtimeServer.authorizeChannel`; events are published with `RealtimeServer.trigger` through the
 * emulator's HTTP API, so every frame the client reads was written by the emulator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Member, RealtimeClient, type StateChange } from '../../src/index.js';
import { waitFor, wsTarget } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { box, server, auth, fleet } = clientSandbox();
afterEach(() => {
  auth.failWith = null;
});

describe('connection', () => {
  it('goes initialized → connecting → connected with a socket id, and disconnected on disconnect()', async () => {
    const client = fleet.make('u-1', {}, false);
    const changes: StateChange[] = [];
    let connectedEvents = 0;
    client.connection.bind('state_change', (change) => changes.push(change));
    client.connection.bind('connected', () => connectedEvents++);
    expect(client.connection.state).toBe('initialized');
    client.connect();
    await waitFor(() => client.connection.state === 'connected');
    expect(changes).toEqual([
      { previous: 'initialized', current: 'connecting' },
      { previous: 'connecting', current: 'connected' },
    ]);
    expect(connectedEvents).toBe(1);
    expect(client.connection.socketId).toMatch(/^\d+\.\d+$/);
    await waitFor(() => box.rt.connections() === 1);

    client.disconnect();
    client.disconnect();
    expect(changes.at(-1)).toEqual({ previous: 'connected', current: 'disconnected' });
    expect(changes).toHaveLength(3);
    await waitFor(() => box.rt.connections() === 0);
  });

  it('a key the emulator does not know (4001) ends in failed, without retrying', async () => {
    const stranger = new RealtimeClient('no-such-key', {
      ...wsTarget(box.rt),
      forceTLS: false,
      reconnect: { baseDelayMs: 10, maxDelayMs: 10 },
    });
    fleet.clients.push(stranger);
    const errors: unknown[] = [];
    stranger.connection.bind('error', (error) => errors.push(error));
    const opened = box.rt.stats().sockets.opened;
    stranger.connect();
    await waitFor(() => stranger.connection.state === 'failed');
    expect(errors[0]).toMatchObject({ closeCode: 4001 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Refused before admission: the emulator counted no connection, and the client did not come back.
    expect(box.rt.stats().sockets.opened).toBe(opened);
    expect(stranger.connection.state).toBe('failed');
  });

  it('a refused key (4001) settles the channels waiting: ConnectionFailed, subscribed rejects', async () => {
    const stranger = new RealtimeClient('no-such-key', { ...wsTarget(box.rt), forceTLS: false });
    fleet.clients.push(stranger);
    const news = stranger.subscribe('news');
    const errors: unknown[] = [];
    news.bind('pusher:subscription_error', (error) => errors.push(error));
    stranger.connect();
    await expect(news.subscribed).rejects.toMatchObject({
      cause: { type: 'ConnectionFailed', closeCode: 4001 },
    });
    expect(errors).toEqual([expect.objectContaining({ type: 'ConnectionFailed', closeCode: 4001 })]);
    // One subscribed while failed is not left hanging either.
    await expect(stranger.subscribe('later').subscribed).rejects.toThrow(/4001/);
    // disconnect() is the app's request, honoured from failed too.
    stranger.disconnect();
    expect(stranger.connection.state).toBe('disconnected');
  });
});

describe('public channels', () => {
  it('receives events triggered through the HTTP API, JSON and plain strings alike', async () => {
    const client = await fleet.connected();
    const channel = client.subscribe('news');
    await channel.subscribed;
    expect(box.rt.channels()).toContainEqual(expect.objectContaining({ name: 'news', subscriptionCount: 1 }));
    const got: unknown[] = [];
    channel.bind('headline', (data) => got.push(data));
    await server.trigger('news', 'headline', { title: 'hello' });
    await server.trigger('news', 'headline', 'plain text');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([{ title: 'hello' }, 'plain text']);

    channel.unsubscribe();
    await waitFor(() => !box.rt.channels().some((c) => c.name === 'news'));
  });

  it('a channel subscribed before connecting is subscribed on connect', async () => {
    const client = fleet.make('u-1', {}, false);
    const channel = client.subscribe('early');
    client.connect();
    await expect(channel.subscribed).resolves.toBe(channel);
  });
});

describe('private channels', () => {
  it('are authorized by the app endpoint (authorizeChannel) and receive events', async () => {
    const client = await fleet.connected('u-7');
    const channel = client.subscribe('private-orders');
    await channel.subscribed;
    expect(auth.requests.at(-1)).toMatchObject({
      socket_id: client.connection.socketId,
      channel_name: 'private-orders',
      user_id: 'u-7',
    });
    const got: unknown[] = [];
    channel.bind('shipped', (data) => got.push(data));
    await server.trigger('private-orders', 'shipped', { id: 42 });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ id: 42 }]);
  });

  it('an endpoint answering 403 gives a typed subscription_error with the status; subscribing again retries', async () => {
    auth.failWith = 403;
    const client = await fleet.connected();
    const channel = client.subscribe('private-denied');
    const errors: unknown[] = [];
    channel.bind('pusher:subscription_error', (error) => errors.push(error));
    await expect(channel.subscribed).rejects.toThrow(/HTTP 403/);
    expect(errors).toEqual([{ type: 'AuthError', error: expect.stringContaining('403'), status: 403 }]);
    expect(channel.isSubscribed).toBe(false);
    expect(box.rt.channels().some((c) => c.name === 'private-denied')).toBe(false);

    auth.failWith = null;
    expect(client.subscribe('private-denied')).toBe(channel);
    await expect(channel.subscribed).resolves.toBe(channel);
  });
});

describe('presence channels', () => {
  it('members (me, count, each, get) and member_added / member_removed across two clients', async () => {
    const ada = await fleet.connected('ada');
    const room = ada.subscribe('presence-room');
    const added: Member<{ name: string }>[] = [];
    const removed: Member<{ name: string }>[] = [];
    room.onMemberAdded((member) => added.push(member));
    room.onMemberRemoved((member) => removed.push(member));
    await room.subscribed;
    expect(room.members.me).toEqual({ id: 'ada', info: { name: 'user ada' } });
    expect(room.members.count).toBe(1);

    const bob = await fleet.connected('bob');
    const bobRoom = bob.subscribe('presence-room');
    await bobRoom.subscribed;
    expect(bobRoom.members.count).toBe(2);
    expect(bobRoom.members.me?.id).toBe('bob');
    await waitFor(() => added.length === 1);
    expect(added).toEqual([{ id: 'bob', info: { name: 'user bob' } }]);
    expect(room.members.count).toBe(2);
    expect(room.members.get('bob')).toEqual({ id: 'bob', info: { name: 'user bob' } });
    expect(room.members.get('nobody')).toBeNull();
    const seen: string[] = [];
    room.members.each((member) => seen.push(member.id));
    expect(seen.sort()).toEqual(['ada', 'bob']);
    expect(box.rt.channels()).toContainEqual(
      expect.objectContaining({ name: 'presence-room', userCount: 2 }),
    );

    bob.disconnect();
    await waitFor(() => removed.length === 1);
    expect(removed).toEqual([{ id: 'bob', info: { name: 'user bob' } }]);
    expect(room.members.count).toBe(1);
  });

  it('a second connection of the same user adds no member', async () => {
    const ada = await fleet.connected('ada');
    const room = ada.subscribe('presence-twice');
    await room.subscribed;
    const added: unknown[] = [];
    room.onMemberAdded((member) => added.push(member));
    const adaAgain = await fleet.connected('ada');
    await adaAgain.subscribe('presence-twice').subscribed;
    const carol = await fleet.connected('carol');
    await carol.subscribe('presence-twice').subscribed;
    await waitFor(() => added.length === 1);
    expect(added).toEqual([{ id: 'carol', info: { name: 'user carol' } }]);
    expect(room.members.count).toBe(2);
  });
});

describe('encrypted channels', () => {
  it('decrypts what RealtimeServer.trigger encrypted with the master key; the emulator relays ciphertext', async () => {
    const client = await fleet.connected();
    const channel = client.subscribe('private-encrypted-vault');
    await channel.subscribed;
    expect(auth.requests.at(-1)?.channel_name).toBe('private-encrypted-vault');
    const raw = await box.connect();
    // A raw subscriber (authorized by the SDK too) sees what the wire carries: nonce and ciphertext only.
    await raw.subscribe(
      'private-encrypted-vault',
      await server.authorizeChannel(raw.socketId, 'private-encrypted-vault'),
    );
    const got: unknown[] = [];
    const failures: unknown[] = [];
    channel.bind('secret', (data) => got.push(data));
    channel.bind('pusher:decryption_error', (error) => failures.push(error));
    await server.trigger('private-encrypted-vault', 'secret', { pin: '1234' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ pin: '1234' }]);
    expect(failures).toEqual([]);
    const wire = await raw.next('secret');
    expect(Object.keys(wire.data).sort()).toEqual(['ciphertext', 'nonce']);
    expect(String(wire.rawData)).not.toContain('1234');
  });

  it('client events are refused locally', async () => {
    const client = await fleet.connected();
    const channel = client.subscribe('private-encrypted-quiet');
    await channel.subscribed;
    expect(() => channel.trigger()).toThrow(/not supported on encrypted channels/);
  });
});

describe('cache channels', () => {
  it('a late subscriber gets the last event; a channel with nothing cached answers cache_miss', async () => {
    await server.trigger('cache-weather', 'forecast', { sky: 'grey' });
    await server.trigger('cache-weather', 'forecast', { sky: 'blue' });
    const client = await fleet.connected();
    const channel = client.subscribe('cache-weather');
    const got: unknown[] = [];
    channel.bind('forecast', (data) => got.push(data));
    await channel.subscribed;
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ sky: 'blue' }]);

    const empty = client.subscribe('cache-nothing-yet');
    let misses = 0;
    empty.bind('pusher:cache_miss', () => misses++);
    await empty.subscribed;
    await waitFor(() => misses === 1);
  });

  it('private cache channels replay too, after authorization', async () => {
    await server.trigger('private-cache-score', 'goal', { home: 1 });
    const client = await fleet.connected();
    const channel = client.subscribe('private-cache-score');
    const got: unknown[] = [];
    channel.bind('goal', (data) => got.push(data));
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ home: 1 }]);
  });
});
