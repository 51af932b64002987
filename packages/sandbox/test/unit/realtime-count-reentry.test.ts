/**
 * A subscription count whose own broadcast closes a slow reader: that reader leaves in the middle of the send
 * loop (a send can close it, and the close runs `leave` at once), which changes the count again. Every other
 * subscriber and the webhook receiver must end on the count that is true, not on the stale one the interrupted
 * loop goes on sending. Model-level: the subscriber here closes on the frame of our choosing, as
 * `Connection.send` does on a full buffer, which no real socket can be made to do on one chosen frame.
 */
import { describe, expect, it } from 'vitest';
import type { RealtimeApp } from '../../src/index.js';
import { AppChannels } from '../../src/realtime/model/channels.js';
import type { WebhookEvent } from '../../src/realtime/model/webhooks.js';

const app: RealtimeApp = {
  appId: '1',
  key: 'k',
  secret: 's',
  enableClientMessages: true,
  subscriptionCounting: true,
  webhooks: { url: 'http://127.0.0.1:9/unused', batch: false },
  maxConnections: Number.POSITIVE_INFINITY,
  authorizedConnections: false,
  watchlistEvents: false,
};

describe('subscription_count when its broadcast closes a subscriber', () => {
  it('the others and the webhooks end on the true count, in order', () => {
    const hooks: WebhookEvent[] = [];
    const channels = new AppChannels(app, {
      maxPresenceMembers: 100,
      cacheTtlMs: 60_000,
      leaveWebhookDelayMs: 0,
      countThrottle: { largeChannelSubscribers: 100, intervalMs: 5000 },
      emitWebhook: (e) => hooks.push(e),
    });
    const heard = new Map<string, number[]>();
    let slowArmed = false;
    const subscriber = (id: string) => ({
      socketId: id,
      send(text: string) {
        const frame = JSON.parse(text);
        if (frame.event !== 'pusher_internal:subscription_count') return;
        if (id.startsWith('slow') && slowArmed) {
          // Closed as a slow reader by this very frame: it leaves before the loop moves on.
          channels.leave(id, 'c');
          return;
        }
        heard.set(id, [...(heard.get(id) ?? []), JSON.parse(frame.data).subscription_count]);
      },
    });
    const join = (id: string) => {
      const joined = channels.join(subscriber(id), 'c');
      if (joined.ok) channels.announceCount(joined.channel);
    };
    for (const id of ['slow1', 'slow2', 'a', 'b']) join(id);
    slowArmed = true;
    join('c');
    const size = channels.get('c')!.subscribers.size;
    expect(size).toBe(3);
    for (const id of ['a', 'b', 'c']) expect(heard.get(id)!.at(-1)).toBe(size);
    const counts = hooks.filter((h) => h.name === 'subscription_count').map((h) => h.subscription_count);
    expect(counts.at(-1)).toBe(size);
    // Each webhook's count is one the channel had, in the order it had them (the two leaves announced as one).
    expect(counts).toEqual([1, 2, 3, 4, 5, 3]);
  });
});
