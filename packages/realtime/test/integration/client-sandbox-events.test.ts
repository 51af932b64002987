/**
 * Events between parties, the client against the sandbox's realtime emulator over real sockets: socket
 * exclusion on server triggers, client events between two clients (never echoed, `user_id` on presence,
 * refused on public channels, paced so the emulator's 10/s limit never answers 4301, oversize refused
 * before sending), signin with `sendToUser`, and `users.terminateConnections` (4009: no reconnect).
 */
import { describe, expect, it } from 'vitest';
import { Channel, type EventMetadata, ValidationError } from '../../src/index.js';
import { expectSendToUser, expectSocketIdExcludes } from '../helpers/flows.js';
import { recordServerErrors, recordStates, waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { box, server, auth, fleet } = clientSandbox();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('server triggers', () => {
  it('socketId excludes that connection; the others still get the event', () =>
    expectSocketIdExcludes(fleet, server));
});

describe('client events', () => {
  it('reach the other subscriber of a private channel and are not echoed to the sender', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    const adaChannel = ada.subscribe('private-chat');
    const bobChannel = bob.subscribe('private-chat');
    await Promise.all([adaChannel.subscribed, bobChannel.subscribed]);
    const adaGot: unknown[] = [];
    const bobGot: [unknown, EventMetadata][] = [];
    adaChannel.bind('client-typing', (data) => adaGot.push(data));
    bobChannel.bind('client-typing', (data, metadata) => bobGot.push([data, metadata]));

    expect(adaChannel.trigger('client-typing', { who: 'ada' })).toBe(true);
    await waitFor(() => bobGot.length === 1);
    expect(bobGot).toEqual([[{ who: 'ada' }, {}]]);
    await sleep(50);
    expect(adaGot).toEqual([]);
  });

  it('carry user_id on presence channels', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    const adaRoom = ada.subscribe('presence-lobby');
    const bobRoom = bob.subscribe('presence-lobby');
    await Promise.all([adaRoom.subscribed, bobRoom.subscribed]);
    const got: [unknown, EventMetadata][] = [];
    bobRoom.bind('client-wave', (data, metadata) => got.push([data, metadata]));
    adaRoom.trigger('client-wave', 'hi');
    await waitFor(() => got.length === 1);
    expect(got).toEqual([['hi', { user_id: 'ada' }]]);
  });

  it('public channels have no trigger; the emulator refuses a raw one with 4301', async () => {
    const client = await fleet.connected();
    const news = client.subscribe('public-news');
    await news.subscribed;
    expect(news).toBeInstanceOf(Channel);
    expect('trigger' in news).toBe(false);

    const raw = await box.connect();
    await raw.subscribe('public-news');
    raw.send({ event: 'client-sneak', channel: 'public-news', data: {} });
    const refusal = await raw.next('pusher:error');
    expect(refusal.data).toMatchObject({ code: 4301 });
  });

  it('a burst of 50 is paced to 10 per second: all arrive, in order, and the emulator never answers 4301', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    const adaChannel = ada.subscribe('private-burst');
    const bobChannel = bob.subscribe('private-burst');
    await Promise.all([adaChannel.subscribed, bobChannel.subscribed]);
    const serverErrors = recordServerErrors(ada);
    const got: number[] = [];
    bobChannel.bind<{ i: number }>('client-tick', (data) => got.push(data.i));

    for (let i = 0; i < 50; i++) expect(adaChannel.trigger('client-tick', { i })).toBe(true);
    await waitFor(() => got.length === 50, 10_000);
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => i));
    await sleep(100);
    expect(serverErrors).toEqual([]);
  });

  it('data over 10 KB is refused locally: a ValidationError, nothing sent', async () => {
    const client = await fleet.connected();
    const channel = client.subscribe('private-big');
    await channel.subscribed;
    const serverErrors = recordServerErrors(client);
    const before = box.rt.stats().sockets.messagesIn;
    const big = { blob: 'x'.repeat(10 * 1024) };
    expect(() => channel.trigger('client-big', big)).toThrow(ValidationError);
    expect(() => channel.trigger('client-big', big)).toThrow(/10240/);
    await sleep(50);
    expect(box.rt.stats().sockets.messagesIn).toBe(before);
    expect(serverErrors).toEqual([]);
  });
});

describe('users', () => {
  it('signin, then sendToUser reaches client.user on every connection of that user', async () => {
    const { ada, user } = await expectSendToUser(fleet, server);
    expect(user).toEqual({ id: 'ada', user_info: { name: 'user ada' } });
    expect(auth.requests.some((r) => r.socket_id === ada.connection.socketId && !r.channel_name)).toBe(true);
    // #server-to-user-ada is the user's own, not a channel of the app's table.
    expect(ada.channel('#server-to-user-ada')).toBeUndefined();
  });

  it('terminateConnections closes with 4009: the client goes failed and does not reconnect', async () => {
    const ada = await fleet.connected('ada');
    const bob = await fleet.connected('bob');
    await Promise.all([ada.signin(), bob.signin()]);
    const states = recordStates(ada);
    const errors: { closeCode?: number }[] = [];
    ada.connection.bind('error', (error) => errors.push(error));
    const closes: number[] = [];
    ada.connection.bind('closed', ({ code }) => closes.push(code));

    await server.users.terminateConnections('ada');
    await waitFor(() => ada.connection.state === 'failed');
    expect(closes).toEqual([4009]);
    expect(errors).toEqual([expect.objectContaining({ closeCode: 4009 })]);
    const opened = box.rt.stats().sockets.opened;
    // Ten reconnect steps (50–200 ms) would have passed: none was taken.
    await sleep(500);
    expect(states).toEqual(['failed']);
    expect(box.rt.stats().sockets.opened).toBe(opened);
    expect(bob.connection.state).toBe('connected');

    // connect() is the app's explicit retry, and it works.
    ada.connect();
    await waitFor(() => ada.connection.state === 'connected');
  });

  it('disconnect() after a 4009 moves failed to disconnected; connect() then works', async () => {
    const ada = await fleet.connected('ada');
    await ada.signin();
    const states = recordStates(ada);
    await server.users.terminateConnections('ada');
    await waitFor(() => ada.connection.state === 'failed');
    ada.disconnect();
    expect(ada.connection.state).toBe('disconnected');
    ada.connect();
    await waitFor(() => ada.connection.state === 'connected');
    expect(states).toEqual(['failed', 'disconnected', 'connecting', 'connected']);
  });
});
