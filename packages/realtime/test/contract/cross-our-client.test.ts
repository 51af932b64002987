/**
 * Contract (b): OUR client against the sandbox with the official `pusher` server SDK on the other side. Our
 * client authorizes by a real form POST to a node:http endpoint that answers with `pusher.authorizeChannel`
 * / `pusher.authenticateUser`, so the official signatures (and its presence `channel_data` and encrypted
 * `shared_secret`) must satisfy our client's flow; `pusher.trigger` publishes, encrypting with its master
 * key; client events cross between our client and pusher-js.
 */
import { describe, expect, it } from 'vitest';
import type { Member } from '../../src/index.js';
import { ourRecord, pjRecord, pjSubscribed } from '../helpers/cross.js';
import { waitFor } from '../helpers/sandbox.js';
import { crossSandbox } from '../helpers/sandbox-hooks.js';

const cross = crossSandbox();

describe('@x/realtime client, events from the official pusher', () => {
  it('public channel: JSON and plain-string data arrive as sent', async () => {
    const c = cross.ourClient();
    await c.subscribe('cross-public-b').subscribed;
    const got = ourRecord(c, 'cross-public-b');
    await cross.official.trigger('cross-public-b', 'greeting', { hello: 'world', n: [1, 2] });
    await cross.official.trigger('cross-public-b', 'note', 'just a string');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([
      { event: 'greeting', channel: 'cross-public-b', data: { hello: 'world', n: [1, 2] } },
      { event: 'note', channel: 'cross-public-b', data: 'just a string' },
    ]);
  });

  it("private channel: authorized by the official server's signature via a form POST", async () => {
    const c = cross.ourClient({ id: 'u-priv' });
    await c.subscribe('private-cross-b').subscribed;
    expect(cross.authRequests.find((r) => r.channel_name === 'private-cross-b')).toEqual({
      socket_id: c.connection.socketId,
      channel_name: 'private-cross-b',
      user_id: 'u-priv',
    });
    const got = ourRecord(c, 'private-cross-b');
    await cross.official.trigger('private-cross-b', 'order-shipped', { id: 'o-1' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ event: 'order-shipped', channel: 'private-cross-b', data: { id: 'o-1' } }]);
  });

  it("presence channel: the official channel_data makes us a member; pusher-js's arrival is seen", async () => {
    const ada = cross.ourClient({ id: 'ada', info: { name: 'Ada' } });
    const room = ada.subscribe('presence-cross-b');
    const added: Member[] = [];
    const removed: Member[] = [];
    room.onMemberAdded((m) => added.push(m));
    room.onMemberRemoved((m) => removed.push(m));
    await room.subscribed;
    expect(room.members.me).toEqual({ id: 'ada', info: { name: 'Ada' } });
    expect(room.members.count).toBe(1);

    const bob = cross.pusherJs({ id: 'bob', info: { name: 'Bob' } }, 'official');
    const bobView = await pjSubscribed(bob, 'presence-cross-b');
    expect(bobView.get('ada')).toEqual({ id: 'ada', info: { name: 'Ada' } });
    await waitFor(() => added.length === 1);
    expect(added).toEqual([{ id: 'bob', info: { name: 'Bob' } }]);
    expect(room.members.count).toBe(2);

    const got = ourRecord(ada, 'presence-cross-b');
    await cross.official.trigger('presence-cross-b', 'announcement', { text: 'hi all' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ event: 'announcement', channel: 'presence-cross-b', data: { text: 'hi all' } }]);

    bob.disconnect();
    await waitFor(() => removed.length === 1);
    expect(removed).toEqual([{ id: 'bob', info: { name: 'Bob' } }]);
    expect(room.members.count).toBe(1);
  });

  it('encrypted channel: we decrypt what the official server encrypted with its master key', async () => {
    const c = cross.ourClient();
    const channel = c.subscribe('private-encrypted-cross-b');
    const failures: unknown[] = [];
    channel.bind('pusher:decryption_error', (e) => failures.push(e));
    await channel.subscribed;
    const got = ourRecord(c, 'private-encrypted-cross-b');
    await cross.official.trigger('private-encrypted-cross-b', 'secret', { code: 42, note: 'é ✓' });
    await cross.official.trigger('private-encrypted-cross-b', 'secret-text', 'plain words');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([
      { event: 'secret', channel: 'private-encrypted-cross-b', data: { code: 42, note: 'é ✓' } },
      { event: 'secret-text', channel: 'private-encrypted-cross-b', data: 'plain words' },
    ]);
    expect(failures).toEqual([]);
  });

  it('client events cross between our client and pusher-js on a private channel, never echoed', async () => {
    const ours = cross.ourClient({ id: 'ours' });
    const theirs = cross.pusherJs({ id: 'theirs' }, 'official');
    const ourChannel = ours.subscribe('private-cross-chat');
    await Promise.all([ourChannel.subscribed, pjSubscribed(theirs, 'private-cross-chat')]);
    const ourGot = ourRecord(ours, 'private-cross-chat');
    const theirGot = pjRecord(theirs, 'private-cross-chat');

    expect(ourChannel.trigger('client-ping', { from: 'ours', n: 1 })).toBe(true);
    await waitFor(() => theirGot.length === 1);
    expect(theirs.channel('private-cross-chat')!.trigger('client-pong', { from: 'theirs', n: 2 })).toBe(true);
    await waitFor(() => ourGot.length === 1);

    // A trigger from the server afterwards: once each side has it, any echo would have come before it.
    await cross.official.trigger('private-cross-chat', 'fence', {});
    await waitFor(() => ourGot.length === 2 && theirGot.length === 2);
    expect(theirGot).toEqual([
      { event: 'client-ping', channel: 'private-cross-chat', data: { from: 'ours', n: 1 } },
      { event: 'fence', channel: 'private-cross-chat', data: {} },
    ]);
    expect(ourGot).toEqual([
      { event: 'client-pong', channel: 'private-cross-chat', data: { from: 'theirs', n: 2 } },
      { event: 'fence', channel: 'private-cross-chat', data: {} },
    ]);
  });

  it("pusher.trigger with our client's socket_id leaves that socket out, and only it", async () => {
    const sender = cross.ourClient({ id: 'sender' });
    const other = cross.ourClient({ id: 'other' });
    await Promise.all([
      sender.subscribe('private-cross-excl').subscribed,
      other.subscribe('private-cross-excl').subscribed,
    ]);
    const senderGot = ourRecord(sender, 'private-cross-excl');
    const otherGot = ourRecord(other, 'private-cross-excl');
    const socketId = sender.connection.socketId!;
    expect(socketId).toMatch(/^\d+\.\d+$/);

    await cross.official.trigger('private-cross-excl', 'update', { n: 1 }, { socket_id: socketId });
    await cross.official.trigger('private-cross-excl', 'update', { n: 2 });
    await waitFor(() => senderGot.length >= 1 && otherGot.length === 2);
    expect(otherGot.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(senderGot).toEqual([{ event: 'update', channel: 'private-cross-excl', data: { n: 2 } }]);
  });

  it('signin through the official authenticateUser; pusher.sendToUser reaches our user', async () => {
    const c = cross.ourClient({ id: 'dora', info: { name: 'Dora' } });
    const direct: unknown[] = [];
    c.user.bind('direct', (data) => direct.push(data));
    await expect(c.signin()).resolves.toEqual({ id: 'dora', user_info: { name: 'Dora' } });
    // The emulator routes #server-to-user-dora by the signed-in user, so signin_success is enough to wait for.
    await cross.official.sendToUser('dora', 'direct', { hi: 1 });
    await waitFor(() => direct.length === 1);
    expect(direct).toEqual([{ hi: 1 }]);
  });
});
