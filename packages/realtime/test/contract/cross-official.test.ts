/**
 * Contract (a): the official SDKs end to end on the sandbox, with OUR server SDK as pusher-js's auth
 * backend. pusher-js's channelAuthorization/userAuthentication customHandlers call `RealtimeServer`'s
 * `authorizeChannel`/`authenticateUser`; the official `pusher` triggers. What pusher-js receives (event,
 * channel, decoded data, members) must be exactly what was sent.
 */
import { describe, expect, it } from 'vitest';
import { pjConnected, pjRecord, pjSignedIn, pjSubscribed } from '../helpers/cross.js';
import { waitFor } from '../helpers/sandbox.js';
import { crossSandbox } from '../helpers/sandbox-hooks.js';

const cross = crossSandbox();

describe('pusher-js authorised by @x/realtime/server, events from the official pusher', () => {
  it('public channel: JSON and plain-string data arrive as sent', async () => {
    const c = cross.pusherJs();
    await pjSubscribed(c, 'cross-public');
    const got = pjRecord(c, 'cross-public');
    await cross.official.trigger('cross-public', 'greeting', { hello: 'world', n: [1, 2] });
    await cross.official.trigger('cross-public', 'note', 'just a string');
    await waitFor(() => got.length === 2);
    expect(got).toEqual([
      { event: 'greeting', channel: 'cross-public', data: { hello: 'world', n: [1, 2] } },
      { event: 'note', channel: 'cross-public', data: 'just a string' },
    ]);
  });

  it('private channel: our signature is accepted, the event arrives', async () => {
    const c = cross.pusherJs();
    await pjSubscribed(c, 'private-cross-a');
    const got = pjRecord(c, 'private-cross-a');
    await cross.official.trigger('private-cross-a', 'order-shipped', { id: 'o-1' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ event: 'order-shipped', channel: 'private-cross-a', data: { id: 'o-1' } }]);
  });

  it('presence channel: pusher-js sees itself, members joining and leaving, and the events', async () => {
    const alice = cross.pusherJs({ id: 'alice', info: { name: 'Alice' } });
    const bob = cross.pusherJs({ id: 'bob', info: { name: 'Bob' } });
    const members = await pjSubscribed(alice, 'presence-cross-a');
    expect(members.count).toBe(1);
    expect(members.me).toEqual({ id: 'alice', info: { name: 'Alice' } });

    const added: unknown[] = [];
    const removed: unknown[] = [];
    const room = alice.channel('presence-cross-a')!;
    room.bind('pusher:member_added', (m: unknown) => added.push(m));
    room.bind('pusher:member_removed', (m: unknown) => removed.push(m));
    const bobMembers = await pjSubscribed(bob, 'presence-cross-a');
    expect(bobMembers.count).toBe(2);
    expect(bobMembers.get('alice')).toEqual({ id: 'alice', info: { name: 'Alice' } });
    await waitFor(() => added.length === 1);
    expect(added).toEqual([{ id: 'bob', info: { name: 'Bob' } }]);
    expect(members.count).toBe(2);

    const got = pjRecord(alice, 'presence-cross-a');
    await cross.official.trigger('presence-cross-a', 'announcement', { text: 'hi all' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([{ event: 'announcement', channel: 'presence-cross-a', data: { text: 'hi all' } }]);

    bob.disconnect();
    await waitFor(() => removed.length === 1);
    expect(removed).toEqual([{ id: 'bob', info: { name: 'Bob' } }]);
    expect(members.count).toBe(1);
  });

  it('encrypted channel: our shared_secret decrypts what the official server encrypted', async () => {
    const c = cross.pusherJs();
    await pjConnected(c);
    const socketId = c.connection.socket_id;
    // Both servers derive the channel key from the same master key: SHA-256(channel name + master key).
    const ourAuth = await cross.ours.authorizeChannel(socketId, 'private-encrypted-cross-a');
    const theirAuth = cross.official.authorizeChannel(socketId, 'private-encrypted-cross-a');
    expect(ourAuth).toEqual(theirAuth);

    await pjSubscribed(c, 'private-encrypted-cross-a');
    const got = pjRecord(c, 'private-encrypted-cross-a');
    const failures: unknown[] = [];
    c.channel('private-encrypted-cross-a')!.bind('pusher:decryption_error', (e: unknown) => failures.push(e));
    await cross.official.trigger('private-encrypted-cross-a', 'secret', { code: 42, note: 'é ✓' });
    await waitFor(() => got.length === 1);
    expect(got).toEqual([
      { event: 'secret', channel: 'private-encrypted-cross-a', data: { code: 42, note: 'é ✓' } },
    ]);
    expect(failures).toEqual([]);
  });

  it('signin through our authenticateUser, then the official sendToUser reaches the user', async () => {
    const c = cross.pusherJs({ id: 'carol', info: { name: 'Carol' } });
    await pjSignedIn(c);
    expect(c.user.user_data).toEqual({ id: 'carol', user_info: { name: 'Carol' } });
    const direct: unknown[] = [];
    c.user.bind('direct', (data: unknown) => direct.push(data));
    await cross.official.sendToUser('carol', 'direct', { hi: 1 });
    await waitFor(() => direct.length === 1);
    expect(direct).toEqual([{ hi: 1 }]);
  });
});
