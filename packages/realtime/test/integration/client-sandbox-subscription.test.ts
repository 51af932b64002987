/**
 * Subscriptions the server refuses or never answers, against the sandbox's realtime emulator. Pusher answers
 * a bad signature with `pusher:error` (code null), not with `pusher:subscription_error`, so a client that only
 * listens for the latter waits forever on `subscribed`. The client attributes that error to the channel it
 * refuses, and gives up on any subscription left unanswered for `subscriptionTimeout`.
 */
import { describe, expect, it } from 'vitest';
import type { SubscriptionErrorData } from '../../src/index.js';
import { waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { box, server, fleet } = clientSandbox();

/** Settles within `ms`, or says it did not: a `subscribed` that hangs must fail the test, not time it out. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still unsettled after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe('a forged signature', () => {
  it('the emulator refuses it with pusher:error (code null); subscribed rejects at once, typed', async () => {
    let forge = true;
    const client = await fleet.connected('ada', {
      // The app's handler signs with the wrong secret (a stale deploy, say): the server refuses the signature.
      channelAuthorization: {
        customHandler: async ({ socketId, channelName }) =>
          forge
            ? { auth: `${box.rt.key}:${'0'.repeat(64)}` }
            : server.authorizeChannel(socketId, channelName),
      },
      // Far longer than the test waits: the refusal itself must settle it.
      subscriptionTimeout: 60_000,
    });
    const channel = client.subscribe('private-forged');
    const errors: SubscriptionErrorData[] = [];
    const appEvents: string[] = [];
    channel.bind('pusher:subscription_error', (error) => errors.push(error));
    channel.bindGlobal((event) => appEvents.push(event));

    await expect(within(channel.subscribed, 2000)).rejects.toThrow(
      /private-forged failed: Invalid signature/,
    );
    expect(errors).toEqual([{ type: 'AuthError', error: expect.stringMatching(/^Invalid signature/) }]);
    // The refusal is the subscription's answer, not an app event called "pusher:error".
    expect(appEvents).toEqual(['pusher:subscription_error']);
    expect(channel.isSubscribed).toBe(false);
    expect(client.connection.state).toBe('connected');

    // Subscribing again is the retry; with a correct signature it succeeds.
    forge = false;
    expect(client.subscribe('private-forged')).toBe(channel);
    await within(channel.subscribed, 2000);
    const got: unknown[] = [];
    channel.bind('ok', (data) => got.push(data));
    await server.trigger('private-forged', 'ok', 1);
    await waitFor(() => got.length === 1);
  });

  it('a forged presence signature is refused the same way; other channels are not affected', async () => {
    const client = await fleet.connected('ada', {
      channelAuthorization: {
        customHandler: async ({ socketId, channelName }) =>
          channelName.startsWith('presence-')
            ? {
                auth: `${box.rt.key}:${'f'.repeat(64)}`,
                channel_data: JSON.stringify({ user_id: 'ada' }),
              }
            : server.authorizeChannel(socketId, channelName),
      },
    });
    const room = client.subscribe('presence-forged');
    const fine = client.subscribe('private-fine');
    await expect(within(room.subscribed, 2000)).rejects.toThrow(/Invalid signature/);
    await expect(within(fine.subscribed, 2000)).resolves.toBe(fine);
    expect(room.members.count).toBe(0);
  });
});

describe('subscriptionTimeout', () => {
  it('a server that never answers: subscription_error SubscriptionTimeout, subscribed rejects', async () => {
    const client = await fleet.connected('ada', { subscriptionTimeout: 300 });
    const speak = box.rt.goSilent();
    let channel: ReturnType<typeof client.subscribe<'private-unanswered'>>;
    const errors: SubscriptionErrorData[] = [];
    try {
      channel = client.subscribe('private-unanswered');
      channel.bind('pusher:subscription_error', (error) => errors.push(error));
      await expect(within(channel.subscribed, 3000)).rejects.toThrow(/no answer in 300 ms/);
      expect(errors).toEqual([{ type: 'SubscriptionTimeout', error: expect.stringContaining('300 ms') }]);
      expect(channel.isSubscribed).toBe(false);
    } finally {
      speak();
    }
    // The server reads the subscribe once it speaks again: a late success still subscribes the channel.
    await waitFor(() => channel.isSubscribed);
    await expect(channel.subscribed).resolves.toBe(channel);
    expect(errors).toHaveLength(1);
  });

  it('an answered subscription never times out, nor does one lost to a reconnect', async () => {
    const client = await fleet.connected('ada', { subscriptionTimeout: 200 });
    const errors: SubscriptionErrorData[] = [];
    const channel = client.subscribe('private-answered');
    channel.bind('pusher:subscription_error', (error) => errors.push(error));
    await channel.subscribed;
    // The drop is seen through state_change: a reconnect can be back to `connected` before a poll of
    // `connection.state` would notice it ever left (a CI run on Node 20 saw that).
    let left = false;
    client.connection.bind('state_change', ({ current }) => {
      if (current !== 'connected') left = true;
    });
    box.rt.dropConnections();
    await waitFor(() => left);
    await waitFor(() => client.connection.state === 'connected' && channel.isSubscribed);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(errors).toEqual([]);
  });
});
