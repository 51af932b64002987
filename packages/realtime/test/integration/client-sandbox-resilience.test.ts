/**
 * The acceptance, against the sandbox's realtime emulator over real sockets: the WebSocket side is
 * killed mid-session (every socket dropped, a restart that forgets every channel and refuses for a while, the
 * whole sandbox closed and a new one started on the same port), or goes silent. Each time the client leaves
 * `connected`, comes back, resubscribes every channel, says `pusher:resubscribed` per channel, and receives
 * the next event triggered after the fault. Timings are not asserted, only states and deliveries.
 */
import { type Sandbox, startSandbox } from '@x/sandbox';
import { describe, expect, it } from 'vitest';
import type { ConnectionState, ResubscribedData } from '../../src/index.js';
import type { RealtimeServer } from '../../src/server.js';
import { ClientFleet, recordStates, startAuthApp, type TestClient, waitFor } from '../helpers/sandbox.js';
import { clientSandbox } from '../helpers/sandbox-hooks.js';

const { box, server, fleet } = clientSandbox();

/** One channel of each kind that survives a reconnect. */
const CHANNELS = ['news', 'private-orders', 'presence-room', 'private-encrypted-vault', 'cache-status'];

interface Session {
  client: TestClient;
  states: ConnectionState[];
  closes: number[];
  resubscribed: Map<string, ResubscribedData[]>;
  received: Map<string, unknown[]>;
}

/** A connected client subscribed to every channel of `CHANNELS`, recording what happens from then on. */
async function session(make: () => TestClient): Promise<Session> {
  const client = make();
  const resubscribed = new Map<string, ResubscribedData[]>();
  const received = new Map<string, unknown[]>();
  for (const name of CHANNELS) {
    const channel = client.subscribe(name);
    resubscribed.set(name, []);
    received.set(name, []);
    channel.bind('pusher:resubscribed', (data) => resubscribed.get(name)?.push(data));
    channel.bind('after', (data) => received.get(name)?.push(data));
  }
  await Promise.all(CHANNELS.map((name) => client.channel(name)?.subscribed));
  const closes: number[] = [];
  client.connection.bind('closed', ({ code }) => closes.push(code));
  return { client, states: recordStates(client), closes, resubscribed, received };
}

/** Back, resubscribed to every channel once, and the next event on each channel arrives. */
async function expectRecovered(s: Session, via: RealtimeServer, timeoutMs = 10_000): Promise<void> {
  await waitFor(() => s.client.connection.state === 'connected', timeoutMs);
  await waitFor(() => CHANNELS.every((name) => s.resubscribed.get(name)?.length === 1), timeoutMs);
  for (const name of CHANNELS) {
    expect(s.client.channel(name)?.isSubscribed).toBe(true);
    expect(s.resubscribed.get(name)?.[0]?.gapMs).toBeGreaterThanOrEqual(0);
  }
  // Tagged: a cache channel also replays its last event on resubscribing, and other sessions trigger too.
  const nonce = `${Date.now()}-${Math.random()}`;
  const mine = (name: string) => (s.received.get(name) ?? []).filter((data) => isTagged(data, nonce));
  await Promise.all(CHANNELS.map((name) => via.trigger(name, 'after', { name, nonce })));
  await waitFor(() => CHANNELS.every((name) => mine(name).length === 1), timeoutMs);
  for (const name of CHANNELS) expect(mine(name)).toEqual([{ name, nonce }]);
}

function isTagged(data: unknown, nonce: string): boolean {
  return (data as { nonce?: unknown } | null)?.nonce === nonce;
}

/** `connected` → (`unavailable` and/or `connecting`, nothing else) → `connected`. */
function expectRoundTrip(states: ConnectionState[]): void {
  expect(states[0]).toMatch(/^(unavailable|connecting)$/);
  expect(states.at(-1)).toBe('connected');
  expect(states.slice(0, -1).every((state) => state === 'unavailable' || state === 'connecting')).toBe(true);
}

describe('the WebSocket side is killed mid-session', () => {
  it('every socket dropped (1006): unavailable, reconnected, every channel resubscribed', async () => {
    const s = await session(() => fleet.make('ada'));
    expect(box.rt.dropConnections()).toBe(1);
    await expectRecovered(s, server);
    expect(s.closes).toEqual([1006]);
    expectRoundTrip(s.states);
    expect(s.states).toContain('unavailable');
    const room = s.client.channel('presence-room');
    expect(room && 'members' in room ? room.members.me?.id : null).toBe('ada');
  });

  it('a restart that forgets every channel and refuses new sockets (4100) for 300 ms', async () => {
    const s = await session(() => fleet.make('ada'));
    const bob = await session(() => fleet.make('bob'));
    box.rt.restart({ refuseMs: 300 });
    expect(box.rt.channels()).toEqual([]);
    await Promise.all([expectRecovered(s, server), expectRecovered(bob, server)]);
    expectRoundTrip(s.states);
    expect(s.closes[0]).toBe(1006);
    // The channels the restart forgot exist again because the clients resubscribed, presence included.
    expect(box.rt.channels()).toContainEqual(
      expect.objectContaining({ name: 'presence-room', userCount: 2 }),
    );
    // Whoever came back inside the 300 ms was refused (4100) and backed off; nothing else closed them.
    for (const code of [...s.closes, ...bob.closes]) expect([1006, 4100]).toContain(code);
  });

  it('the whole sandbox closed, then a new one on the same port with the same app', async () => {
    const first = await startSandbox({ store: false, realtime: true });
    const port = Number(new URL(first.url).port);
    const rt = first.realtime as NonNullable<typeof first.realtime>;
    const firstServer = box.server({ host: '127.0.0.1', port });
    const firstAuth = await startAuthApp(firstServer);
    const local = new ClientFleet(rt, firstAuth);
    let second: Sandbox<false> | undefined;
    try {
      const s = await session(() => local.make('ada'));
      await first.close();
      await waitFor(() => s.states.includes('unavailable'));
      // A few attempts meet a closed port (connection refused) before the new sandbox listens.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(s.client.connection.state).not.toBe('connected');
      second = await startSandbox({ store: false, realtime: true, port });
      expect(second.realtime?.key).toBe(rt.key);
      await expectRecovered(s, firstServer);
      expectRoundTrip(s.states);
      expect(s.states.filter((state) => state === 'connecting').length).toBeGreaterThan(1);
      expect(second.realtime?.connections()).toBe(1);
    } finally {
      local.disconnectAll();
      await firstAuth.close();
      await first.close();
      await second?.close();
    }
  });
});

describe('a silent server', () => {
  it('is detected by ping/pong within activityTimeout + pongTimeout (300 + 300 ms), then reconnected', async () => {
    const s = await session(() =>
      fleet.make('ada', { activityTimeout: 300, pongTimeout: 300, connectTimeout: 500 }),
    );
    const speak = box.rt.goSilent();
    try {
      await waitFor(() => s.client.connection.state !== 'connected', 5000);
      // The client's own verdict: no pong, so it closed the link itself with 4201 and is trying again.
      expect(s.closes[0]).toBe(4201);
      expect(s.states[0]).toMatch(/^(connecting|unavailable)$/);
      // While the server stays silent, new sockets get no handshake and the attempts time out.
      await waitFor(() => s.closes.length >= 2, 5000);
      expect(s.client.connection.state).not.toBe('connected');
    } finally {
      speak();
    }
    await expectRecovered(s, server);
    expectRoundTrip(s.states);
  });

  it('a silence the pong outlasts costs nothing: the late pong keeps the connection', async () => {
    const s = await session(() => fleet.make('ada', { activityTimeout: 300, pongTimeout: 1000 }));
    const read = box.rt.stats().sockets.messagesIn;
    // The client pings about 300 ms in, during the silence; the pong comes when the server speaks at 450 ms.
    box.rt.goSilent(450);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(s.states).toEqual([]);
    expect(box.rt.stats().sockets.messagesIn).toBeGreaterThan(read);
    await server.trigger('news', 'after', { name: 'news', nonce: 'quiet' });
    await waitFor(() => s.received.get('news')?.some((data) => isTagged(data, 'quiet')) === true);
  });
});
