/**
 * `pusher_internal:subscription_count` throttled as Pusher describes it
 * (https://pusher.com/blog/how-pusher-team-built-subscription-counting-at-scale/): every change at once on a
 * small channel; on a large one a broadcast lock, so at most one count per lock and the latest count once it
 * ends. pusher-js (Node build, real WebSocket) is the observer, binding `pusher:subscription_count`. The
 * threshold is set low and nothing is timed: with a lock of a minute the counts heard are exactly known; with a
 * short one the latest count must arrive in the end.
 */
import PusherServer from 'pusher';
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRealtimeEmulator, type Sandbox, startSandbox } from '../../src/index.js';
import { TestSocket, waitFor } from '../helpers/realtime.js';

const APP = { appId: '960', key: 'count-key', secret: 'count-secret', subscriptionCounting: true };
const boxes: Sandbox<false>[] = [];
const clients: PusherClient[] = [];
const sockets: TestSocket[] = [];

async function sandbox(intervalMs: number): Promise<Sandbox<false>> {
  const box = await startSandbox({
    store: false,
    realtime: { apps: [APP], subscriptionCountThrottle: { largeChannelSubscribers: 3, intervalMs } },
  });
  boxes.push(box);
  return box;
}

/** A pusher-js client on `channel` that records every count it hears. */
async function observer(box: Sandbox<false>, channel: string, counts: number[]): Promise<PusherClient> {
  const c = new PusherClient(APP.key, {
    cluster: 'sandbox',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(box.realtime!.url).port),
    forceTLS: false,
    enabledTransports: ['ws'],
  });
  clients.push(c);
  const ch = c.subscribe(channel);
  ch.bind('pusher:subscription_count', (d: { subscription_count: number }) =>
    counts.push(d.subscription_count),
  );
  await new Promise<void>((resolve) => ch.bind('pusher:subscription_succeeded', () => resolve()));
  return c;
}

/** An event through the observer's own socket: every count sent before it has been heard once it arrives. */
async function roundTrip(box: Sandbox<false>, c: PusherClient, channel: string): Promise<void> {
  const rt = box.realtime!;
  const server = new PusherServer({ ...APP, host: '127.0.0.1', port: new URL(rt.url).port, useTLS: false });
  const got = new Promise<void>((resolve) => c.channel(channel)!.bind('sync', () => resolve()));
  await server.trigger(channel, 'sync', {});
  await got;
}

async function joiners(box: Sandbox<false>, channel: string, n: number): Promise<TestSocket[]> {
  const out: TestSocket[] = [];
  for (let i = 0; i < n; i++) {
    const s = await TestSocket.connect(box.realtime!.wsUrl, APP.key);
    expect((await s.subscribe(channel)).event).toBe('pusher_internal:subscription_succeeded');
    out.push(s);
  }
  sockets.push(...out);
  return out;
}

afterAll(async () => {
  for (const c of clients) c.disconnect();
  for (const s of sockets) s.close();
  for (const box of boxes) await box.close();
});

describe('subscription_count throttling', () => {
  let locked: Sandbox<false>;
  beforeAll(async () => {
    locked = await sandbox(60_000);
  });

  it('small channels hear every change; from the threshold on, one count per lock', async () => {
    const counts: number[] = [];
    const c = await observer(locked, 'counted', counts);
    await joiners(locked, 'counted', 7);
    await roundTrip(locked, c, 'counted');
    // 1 and 2 at once (small); 3 opens the lock; 4..8 wait under it.
    expect(counts).toEqual([1, 2, 3]);
  });

  it('each channel has its own lock', async () => {
    const counts: number[] = [];
    const c = await observer(locked, 'counted-too', counts);
    await joiners(locked, 'counted-too', 2);
    await roundTrip(locked, c, 'counted-too');
    expect(counts).toEqual([1, 2, 3]);
  });

  it('a vacated channel forgets its lock: the next occupant hears its count', async () => {
    const [a, b, c] = await joiners(locked, 'refilled', 3);
    for (const s of [a!, b!, c!]) s.close();
    await waitFor(() => locked.realtime!.channels().every((ch) => ch.name !== 'refilled'));
    const counts: number[] = [];
    const o = await observer(locked, 'refilled', counts);
    await roundTrip(locked, o, 'refilled');
    expect(counts).toEqual([1]);
  });
});

describe('subscription_count after the lock', () => {
  it('the latest count arrives once the lock ends, as joins and leaves settle', async () => {
    const box = await sandbox(20);
    const counts: number[] = [];
    const c = await observer(box, 'settles', counts);
    const joined = await joiners(box, 'settles', 7);
    await waitFor(() => counts.at(-1) === 8);
    for (const s of joined.slice(2)) s.close();
    await waitFor(() => counts.at(-1) === 3);
    await roundTrip(box, c, 'settles');
    expect(counts.at(-1)).toBe(3);
    // Under the lock changes merge: never more counts than changes.
    expect(counts.length).toBeLessThanOrEqual(8 + 5);
  });
});

describe('throttle settings', () => {
  it('refuses non-positive or fractional values, naming them', () => {
    for (const bad of [0, -3, 2.5, Number.NaN]) {
      expect(() =>
        createRealtimeEmulator({ subscriptionCountThrottle: { largeChannelSubscribers: bad } }),
      ).toThrow(/subscriptionCountThrottle\.largeChannelSubscribers/);
      expect(() => createRealtimeEmulator({ subscriptionCountThrottle: { intervalMs: bad } })).toThrow(
        /subscriptionCountThrottle\.intervalMs/,
      );
    }
  });
});
