/**
 * Channel and user auth, channel queries and user actions of `RealtimeServer` against the sandbox's
 * realtime emulator over real sockets: raw `ws` sockets subscribe and sign in with what `authorizeChannel`
 * and `authenticateUser` return, and the emulator is the judge of those signatures.
 */
import { describe, expect, it } from 'vitest';
import { devApp, type RawSocket } from '../helpers/sandbox.js';
import { serverSandbox } from '../helpers/sandbox-hooks.js';

const { box, server } = serverSandbox({ apps: [devApp({ subscriptionCounting: true })] });

async function join(channel: string, userId: string, info: Record<string, unknown> = {}) {
  const socket = await box.connect();
  const auth = await server.authorizeChannel(socket.socketId, channel, {
    user_id: userId,
    user_info: info,
  });
  const answer = await socket.subscribe(channel, auth);
  return { socket, answer };
}

async function signedIn(userId: string): Promise<RawSocket> {
  const socket = await box.connect();
  const auth = await server.authenticateUser(socket.socketId, { id: userId, user_info: { name: userId } });
  const success = await socket.signin(auth);
  expect(success.data.user_data).toBe(auth.user_data);
  return socket;
}

describe('authorizeChannel and authenticateUser, judged by the emulator', () => {
  it('private: accepted for its own socket, refused for another socket id', async () => {
    const socket = await box.connect();
    const good = await server.authorizeChannel(socket.socketId, 'private-a');
    expect((await socket.subscribe('private-a', good)).event).toBe('pusher_internal:subscription_succeeded');
    const other = await box.connect();
    const refused = await other.subscribe('private-a', good);
    expect(refused.event).toBe('pusher:error');
    expect(refused.data.message).toMatch(/Invalid signature/);
    // A wrong secret signs something the emulator refuses too.
    const forged = await box
      .server({ secret: 'not-the-secret' })
      .authorizeChannel(other.socketId, 'private-a');
    expect((await other.subscribe('private-a', forged)).event).toBe('pusher:error');
  });

  it('presence: channel_data as signed; members see member_added with user_info and member_removed', async () => {
    const ann = await join('presence-room', 'ann', { name: 'Ann' });
    expect(ann.answer.data.presence).toEqual({ ids: ['ann'], hash: { ann: { name: 'Ann' } }, count: 1 });
    const bob = await join('presence-room', 'bob', { name: 'Bob', emoji: 'é' });
    expect(bob.answer.data.presence.count).toBe(2);
    const added = await ann.socket.next('pusher_internal:member_added');
    expect(added).toMatchObject({
      channel: 'presence-room',
      data: { user_id: 'bob', user_info: { name: 'Bob', emoji: 'é' } },
    });
    bob.socket.unsubscribe('presence-room');
    const removed = await ann.socket.next('pusher_internal:member_removed');
    expect(removed.data).toEqual({ user_id: 'bob' });
  });

  it('encrypted: the subscription is signed like a private one; the shared_secret stays with the client', async () => {
    const socket = await box.connect();
    const { shared_secret, ...auth } = await server.authorizeChannel(socket.socketId, 'private-encrypted-x');
    expect(Buffer.from(shared_secret!, 'base64')).toHaveLength(32);
    expect((await socket.subscribe('private-encrypted-x', auth)).event).toBe(
      'pusher_internal:subscription_succeeded',
    );
  });

  it('signin: the emulator accepts authenticateUser; a forged one closes the socket with 4009', async () => {
    await signedIn('carol');
    const socket = await box.connect();
    const forged = await box
      .server({ secret: 'not-the-secret' })
      .authenticateUser(socket.socketId, { id: 'carol' });
    socket.send({ event: 'pusher:signin', data: forged });
    expect((await socket.closed).code).toBe(4009);
  });
});

describe('sendToUser and users.terminateConnections', () => {
  it('sendToUser reaches every connection the user signed in on, and nobody else', async () => {
    const [phone, laptop, stranger] = await Promise.all([
      signedIn('dave'),
      signedIn('dave'),
      signedIn('erin'),
    ]);
    await server.sendToUser('dave', 'notice', { unread: 3 });
    for (const socket of [phone, laptop]) {
      expect(await socket.next('notice')).toMatchObject({
        channel: '#server-to-user-dave',
        data: { unread: 3 },
      });
    }
    await server.sendToUser('erin', 'marker', 1);
    await stranger.next('marker');
    expect(stranger.events('notice')).toEqual([]);
  });

  it('terminateConnections closes the user’s sockets with 4009 and leaves the others open', async () => {
    const [a, b, other] = await Promise.all([signedIn('frank'), signedIn('frank'), signedIn('gina')]);
    await expect(server.users.terminateConnections('frank')).resolves.toEqual({});
    expect((await a.closed).code).toBe(4009);
    expect((await b.closed).code).toBe(4009);
    await server.sendToUser('gina', 'still-here', 1);
    await expect(other.next('still-here')).resolves.toMatchObject({ data: 1 });
  });
});

describe('channel queries', () => {
  it('list: occupied channels, by prefix, with user_count on presence channels', async () => {
    await join('presence-q-1', 'u1');
    await join('presence-q-1', 'u2');
    await join('presence-q-2', 'u1');
    const plain = await box.connect();
    await plain.subscribe('q-public');
    const presence = await server.channels.list({ prefix: 'presence-q-', info: 'user_count' });
    expect(presence).toEqual({
      channels: { 'presence-q-1': { user_count: 2 }, 'presence-q-2': { user_count: 1 } },
    });
    const all = await server.channels.list();
    expect(Object.keys(all.channels)).toEqual(expect.arrayContaining(['presence-q-1', 'q-public']));
    expect(all.channels['q-public']).toEqual({});
    expect(await server.channels.list({ prefix: 'nothing-' })).toEqual({ channels: {} });
  });

  it('get: occupied, user_count and subscription_count; a vacated channel reads unoccupied', async () => {
    await join('presence-g', 'u1');
    await join('presence-g', 'u1');
    await join('presence-g', 'u2');
    expect(await server.channels.get('presence-g', { info: ['user_count', 'subscription_count'] })).toEqual({
      occupied: true,
      user_count: 2,
      subscription_count: 3,
    });
    const lone = await box.connect();
    await lone.subscribe('g-public');
    expect(await server.channels.get('g-public', { info: 'subscription_count' })).toEqual({
      occupied: true,
      subscription_count: 1,
    });
    lone.unsubscribe('g-public');
    // Frames are handled in order: once the pong is back, the unsubscribe has been too.
    lone.send({ event: 'pusher:ping', data: {} });
    await lone.next('pusher:pong');
    expect(await server.channels.get('g-public')).toEqual({ occupied: false });
  });

  it('users: the ids present, one per user however many connections', async () => {
    await join('presence-u', 'zoe');
    await join('presence-u', 'yan');
    await join('presence-u', 'zoe');
    const { users } = await server.channels.users('presence-u');
    expect(users.map((u) => u.id).sort()).toEqual(['yan', 'zoe']);
    expect(await server.channels.users('presence-nobody')).toEqual({ users: [] });
  });

  it('names with the characters Pusher allows travel signed and unencoded', async () => {
    const socket = await box.connect();
    await socket.subscribe('odd-a=b@c,d;e.f');
    expect(await server.channels.get('odd-a=b@c,d;e.f', { info: 'subscription_count' })).toEqual({
      occupied: true,
      subscription_count: 1,
    });
    const signed = await signedIn('ann@example.com');
    await expect(server.users.terminateConnections('ann@example.com')).resolves.toEqual({});
    expect((await signed.closed).code).toBe(4009);
  });
});
