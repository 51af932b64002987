/**
 * Flows every real peer must pass the same way (the sandbox's emulator, soketi): written once, run by each
 * peer's test file with that peer's fleet and server SDK, so a flow cannot drift between the two.
 */
import { expect } from 'vitest';
import type { UserData } from '../../src/index.js';
import type { RealtimeServer } from '../../src/server.js';
import { type ClientFleet, type TestClient, waitFor } from './sandbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A trigger with `socketId` skips that connection; the others on the private channel get both events. */
export async function expectSocketIdExcludes(fleet: ClientFleet, server: RealtimeServer): Promise<void> {
  const ada = await fleet.connected('ada');
  const bob = await fleet.connected('bob');
  const adaGot: unknown[] = [];
  const bobGot: unknown[] = [];
  const adaChannel = ada.subscribe('private-feed').bind('post', (data) => adaGot.push(data));
  const bobChannel = bob.subscribe('private-feed').bind('post', (data) => bobGot.push(data));
  await Promise.all([adaChannel.subscribed, bobChannel.subscribed]);

  await server.trigger('private-feed', 'post', { n: 1 }, { socketId: ada.connection.socketId as string });
  await server.trigger('private-feed', 'post', { n: 2 });
  await waitFor(() => bobGot.length === 2 && adaGot.length === 1);
  expect(bobGot).toEqual([{ n: 1 }, { n: 2 }]);
  expect(adaGot).toEqual([{ n: 2 }]);
}

/**
 * Ada signs in on two connections and Bob on one; `sendToUser('ada')` reaches both of Ada's and not Bob's.
 * Returns Ada's first client and the user her signin resolved with, for a peer's own further checks.
 */
export async function expectSendToUser(
  fleet: ClientFleet,
  server: RealtimeServer,
): Promise<{ ada: TestClient; user: UserData }> {
  const ada = await fleet.connected('ada');
  const adaPhone = await fleet.connected('ada');
  const bob = await fleet.connected('bob');
  const got: unknown[] = [];
  const phoneGot: unknown[] = [];
  const bobGot: unknown[] = [];
  ada.user.bind('notice', (data) => got.push(data));
  adaPhone.user.bind('notice', (data) => phoneGot.push(data));
  bob.user.bind('notice', (data) => bobGot.push(data));
  const [user] = await Promise.all([ada.signin(), adaPhone.signin(), bob.signin()]);

  await server.sendToUser('ada', 'notice', { text: 'hello ada' });
  await waitFor(() => got.length === 1 && phoneGot.length === 1);
  expect(got).toEqual([{ text: 'hello ada' }]);
  expect(phoneGot).toEqual([{ text: 'hello ada' }]);
  // What Bob would have been sent arrives with Ada's, not later; the pause only lets a stray frame land.
  await sleep(50);
  expect(bobGot).toEqual([]);
  return { ada, user };
}
