/**
 * The timing rules of the leave-webhook delay and the subscription-count lock, on an injected clock (vitest's
 * fake timers): counts in every window of `intervalMs` (at most one on a large channel, the latest one after a
 * lock), the webhooks a return within the delay calls off, and no timer left once the model is cleared.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeApp } from '../../src/index.js';
import { AppChannels } from '../../src/realtime/model/channels.js';
import type { WebhookEvent } from '../../src/realtime/model/webhooks.js';

const app = (subscriptionCounting: boolean): RealtimeApp => ({
  appId: '1',
  key: 'k',
  secret: 's',
  enableClientMessages: true,
  subscriptionCounting,
  webhooks: { url: 'http://127.0.0.1:9/unused', batch: false },
  maxConnections: Number.POSITIVE_INFINITY,
  authorizedConnections: false,
  watchlistEvents: false,
});

function setup(options: { leaveDelayMs?: number; largeChannelSubscribers?: number; intervalMs?: number }) {
  const hooks: WebhookEvent[] = [];
  const channels = new AppChannels(app(true), {
    maxPresenceMembers: 100,
    cacheTtlMs: 60_000,
    leaveWebhookDelayMs: options.leaveDelayMs ?? 3000,
    countThrottle: {
      largeChannelSubscribers: options.largeChannelSubscribers ?? 100,
      intervalMs: options.intervalMs ?? 5000,
    },
    emitWebhook: (e) => hooks.push(e),
  });
  const heard: { at: number; count: number }[] = [];
  const subscriber = (id: string) => ({
    socketId: id,
    send(text: string) {
      const frame = JSON.parse(text);
      if (id === 'watcher' && frame.event === 'pusher_internal:subscription_count') {
        heard.push({ at: Date.now(), count: JSON.parse(frame.data).subscription_count });
      }
    },
  });
  const join = (id: string, name = 'c') => {
    const joined = channels.join(subscriber(id), name);
    if (joined.ok) channels.announceCount(joined.channel);
  };
  return { channels, hooks, heard, join };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('subscription_count lock, on a fake clock', () => {
  it('at most one count per interval on a large channel, and the latest one after each lock', () => {
    const { channels, heard, join } = setup({ largeChannelSubscribers: 5, intervalMs: 1000 });
    join('watcher');
    // 200 joins and leaves, one every 7 ms, over 1.4 s of fake time.
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      vi.advanceTimersByTime(7);
      if (i % 3 === 2 && ids.length > 0) channels.leave(ids.pop()!, 'c');
      else {
        ids.push(`s${i}`);
        join(`s${i}`);
      }
    }
    vi.advanceTimersByTime(5000);
    const large = heard.filter((h) => h.count >= 5);
    for (const h of large) {
      expect(large.filter((o) => o.at >= h.at && o.at < h.at + 1000)).toHaveLength(1);
    }
    expect(heard.at(-1)!.count).toBe(channels.get('c')!.subscribers.size);
    // Below the threshold every change is heard: the watcher, two joins, a leave, ...
    expect(heard.slice(0, 5).map((h) => h.count)).toEqual([1, 2, 3, 2, 3]);
    channels.clear();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('leave webhooks, on a fake clock', () => {
  it('a return within the delay calls both off; after it, exactly one of each', () => {
    const { channels, hooks } = setup({ leaveDelayMs: 3000 });
    const member = { userId: 'u', info: {} };
    const sub = { socketId: 'a', send() {} };
    channels.join(sub, 'presence-x', member);
    channels.leave('a', 'presence-x');
    vi.advanceTimersByTime(2999);
    channels.join({ socketId: 'b', send() {} }, 'presence-x', member);
    vi.advanceTimersByTime(10_000);
    expect(hooks.map((h) => h.name)).toEqual(['channel_occupied', 'member_added']);
    channels.leave('b', 'presence-x');
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(3000);
    expect(hooks.map((h) => h.name)).toEqual([
      'channel_occupied',
      'member_added',
      'member_removed',
      'channel_vacated',
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clear() drops pending webhooks and their timers; keepLeaveWebhooks keeps them', () => {
    const { channels, hooks } = setup({ leaveDelayMs: 3000 });
    channels.join({ socketId: 'a', send() {} }, 'c1');
    channels.leave('a', 'c1');
    channels.clear({ keepLeaveWebhooks: true });
    expect(vi.getTimerCount()).toBe(1);
    channels.clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(hooks.map((h) => h.name)).toEqual(['channel_occupied']);
  });
});
