import { expect, it } from 'vitest';
import type { Channel } from '../../src/index.js';
import { leaseOf } from '../../src/react/lease.js';
import { waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

/**
 * The reference counting behind `useChannel` and the provider, in Node against the sandbox: each retain is
 * what one mounted component holds. Subscriptions are counted where they are true, at the sandbox.
 */
const { box, auth, fleet } = clientSandbox();

const subscribers = (name: string) => box.rt.channels().find((c) => c.name === name)?.subscriptionCount ?? 0;
/** One task: the lease's releases wait this long for a remount. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

it('keeps a channel while one of two holders remains and leaves it after the last', async () => {
  const client = await fleet.connected();
  const lease = leaseOf(client);
  const first = lease.retainChannel('private-shared');
  const second = lease.retainChannel('private-shared');
  await client.channel('private-shared')!.subscribed;
  expect(subscribers('private-shared')).toBe(1);
  first();
  first(); // a release is counted once, however often it is called
  await nextTask();
  // A publish and its delivery order the check after anything the client could have sent.
  const delivered = new Promise((resolve) =>
    (client.channel('private-shared') as Channel).bind('tick', resolve),
  );
  await box.server().trigger('private-shared', 'tick', {});
  await delivered;
  expect(lease.holders('private-shared')).toBe(1);
  expect(client.channel('private-shared')?.isSubscribed).toBe(true);
  expect(subscribers('private-shared')).toBe(1);
  second();
  await waitFor(() => subscribers('private-shared') === 0);
  expect(client.channel('private-shared')).toBeUndefined();
});

it('a release taken back within the task (a StrictMode remount) neither leaves nor authorizes again', async () => {
  const client = await fleet.connected();
  const lease = leaseOf(client);
  const requests = () => auth.requests.filter((form) => form.channel_name === 'private-remount').length;
  lease.retainChannel('private-remount')();
  const again = lease.retainChannel('private-remount');
  await client.channel('private-remount')!.subscribed;
  await nextTask();
  expect(requests()).toBe(1);
  expect(subscribers('private-remount')).toBe(1);
  again();
  await waitFor(() => subscribers('private-remount') === 0);
});

it('leaves alone a channel the app subscribed itself', async () => {
  const client = await fleet.connected();
  const channel = client.subscribe('private-own');
  await channel.subscribed;
  leaseOf(client).retainChannel('private-own')();
  await nextTask();
  expect(client.channel('private-own')).toBe(channel);
  expect(channel.isSubscribed).toBe(true);
});

it('connects with the first holder and disconnects a task after the last', async () => {
  const client = fleet.make('u-1', {}, false);
  const lease = leaseOf(client);
  const release = lease.retainConnection();
  await waitFor(() => client.connection.state === 'connected');
  release();
  lease.retainConnection()(); // mounted and unmounted again before the task: still one disconnect
  expect(client.connection.state).toBe('connected');
  await waitFor(() => client.connection.state === 'disconnected');
});

it('leaves open a connection the app opened itself, and still closes its own after a remount', async () => {
  const client = await fleet.connected();
  const lease = leaseOf(client);
  lease.retainConnection()();
  await nextTask();
  expect(client.connection.state).toBe('connected');
  client.disconnect();
  const release = lease.retainConnection();
  release();
  const again = lease.retainConnection(); // StrictMode's remount, within the task: still the lease's
  await waitFor(() => client.connection.state === 'connected');
  again();
  await waitFor(() => client.connection.state === 'disconnected');
});

it('a channel name the client refuses throws and leaves no holder behind', async () => {
  const client = fleet.make('u-1', {}, false);
  const lease = leaseOf(client);
  expect(() => lease.retainChannel('bad name')).toThrow(/name/);
  expect(lease.holders('bad name')).toBe(0);
  expect(() => lease.retainChannel('bad name')).toThrow(/name/);
  expect(lease.holders('bad name')).toBe(0);
});
