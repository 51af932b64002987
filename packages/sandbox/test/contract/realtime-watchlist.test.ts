/**
 * Watchlist events judged by the official client: pusher-js 8.6.0 (Node build, real WebSocket) signs in with a
 * `watchlist` in its user data and must hear `online` / `offline` on `pusher.user.watchlist` as watched users
 * connect and disconnect: online at a user's first signed-in connection, offline when its last one closes, and
 * at signin the state of the whole list (who is online, who is not). Raw sockets check the frames and the app switch.
 */
import PusherServer from 'pusher';
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { type Frame, stillAlive, TestSocket, waitFor } from '../helpers/realtime.js';

const WATCHING = { appId: '801', key: 'watch-key', secret: 'watch-secret', watchlistEvents: true };
const PLAIN = { appId: '802', key: 'plain-key', secret: 'plain-secret' };

let box: Sandbox<false>;
let server: PusherServer;
const clients: PusherClient[] = [];

interface Heard {
  name: 'online' | 'offline';
  user_ids: string[];
}

/** A signed-in pusher-js client whose user data carries `watchlist`; resolves once signin succeeded. */
async function signedIn(id: string, watchlist: string[] = [], heard: Heard[] = []): Promise<PusherClient> {
  const rt = box.realtime!;
  const c = new PusherClient(WATCHING.key, {
    cluster: 'sandbox',
    wsHost: '127.0.0.1',
    wsPort: Number(new URL(rt.url).port),
    forceTLS: false,
    enabledTransports: ['ws'],
    userAuthentication: {
      endpoint: '/unused',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => {
        callback(null, server.authenticateUser(socketId, { id, watchlist }));
      },
    },
  } as ConstructorParameters<typeof PusherClient>[1]);
  clients.push(c);
  c.user.watchlist.bind('online', (e: Heard) => heard.push({ name: 'online', user_ids: e.user_ids }));
  c.user.watchlist.bind('offline', (e: Heard) => heard.push({ name: 'offline', user_ids: e.user_ids }));
  c.signin();
  await c.user.signinDonePromise;
  return c;
}

/** A raw socket signed in as `id` with `userData` fields beside the id, signed with the app secret. */
async function rawSignin(app: typeof PLAIN, id: string, extra: Record<string, unknown>): Promise<TestSocket> {
  const s = await TestSocket.connect(box.realtime!.wsUrl, app.key);
  const signer = new PusherServer({ appId: app.appId, key: app.key, secret: app.secret, host: '127.0.0.1' });
  const { auth, user_data } = signer.authenticateUser(s.socketId, { id, ...extra });
  s.send({ event: 'pusher:signin', data: { auth, user_data } });
  await s.next('pusher:signin_success');
  return s;
}

/**
 * A round trip to a pusher-js client on its own socket: the server SDK sends it a user event and it arrives.
 * Frames on one socket keep their order, so every watchlist event sent before it has been heard by then.
 */
async function roundTrip(c: PusherClient, userId: string): Promise<void> {
  const got = new Promise<void>((resolve) => c.user.bind('sync', () => resolve()));
  await server.sendToUser(userId, 'sync', {});
  await got;
}

const watchlistFrames = (s: TestSocket): Frame[] =>
  s.frames.filter((f) => f.event === 'pusher_internal:watchlist_events');

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: { apps: [WATCHING, PLAIN] } });
  const rt = box.realtime!;
  server = new PusherServer({
    appId: WATCHING.appId,
    key: WATCHING.key,
    secret: WATCHING.secret,
    host: '127.0.0.1',
    port: new URL(rt.url).port,
    useTLS: false,
  });
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await box?.close();
});

describe('watchlist events (pusher-js as the judge)', () => {
  it("online on a watched user's first connection, offline only when its last one closes", async () => {
    const heard: Heard[] = [];
    const alice = await signedIn('wl-alice', ['wl-bob'], heard);
    await roundTrip(alice, 'wl-alice');
    // At signin: the state of the whole list, bob offline.
    expect(heard).toEqual([{ name: 'offline', user_ids: ['wl-bob'] }]);
    const bob1 = await signedIn('wl-bob');
    await waitFor(() => heard.length === 2);
    const bob2 = await signedIn('wl-bob');
    bob1.disconnect();
    // bob is still online through his second connection: nothing is heard until it closes too.
    await waitFor(() => box.realtime!.connections(WATCHING.appId) === 2);
    await roundTrip(alice, 'wl-alice');
    expect(heard).toEqual([
      { name: 'offline', user_ids: ['wl-bob'] },
      { name: 'online', user_ids: ['wl-bob'] },
    ]);
    bob2.disconnect();
    await waitFor(() => heard.length === 3);
    await roundTrip(alice, 'wl-alice');
    expect(heard).toEqual([
      { name: 'offline', user_ids: ['wl-bob'] },
      { name: 'online', user_ids: ['wl-bob'] },
      { name: 'offline', user_ids: ['wl-bob'] },
    ]);
  });

  it('tells a new signin the state of its whole list: one online and one offline event', async () => {
    await signedIn('wl-carol');
    await signedIn('wl-dave');
    const heard: Heard[] = [];
    const erin = await signedIn('wl-erin', ['wl-carol', 'wl-dave', 'wl-nobody'], heard);
    await roundTrip(erin, 'wl-erin');
    expect(heard).toHaveLength(2);
    expect(heard[0]!.name).toBe('online');
    expect([...heard[0]!.user_ids].sort()).toEqual(['wl-carol', 'wl-dave']);
    expect(heard[1]).toEqual({ name: 'offline', user_ids: ['wl-nobody'] });
  });

  it('sends nothing to users who do not watch, and only the changed id to those who do', async () => {
    const watcher = await rawSignin(WATCHING, 'wl-frank', { watchlist: ['wl-gina', 'wl-gina', 'wl-hal'] });
    const bystander = await rawSignin(WATCHING, 'wl-ivan', {});
    // The envelope pusher-js reads: no channel, data.events[{name, user_ids}]; duplicates count once.
    const initial = await watcher.next('pusher_internal:watchlist_events');
    expect(initial.channel).toBeUndefined();
    expect(initial.data).toEqual({ events: [{ name: 'offline', user_ids: ['wl-gina', 'wl-hal'] }] });
    const gina = await rawSignin(WATCHING, 'wl-gina', {});
    const online = await watcher.next(
      (f) => f.event === 'pusher_internal:watchlist_events' && f.data.events[0].name === 'online',
    );
    expect(online.data).toEqual({ events: [{ name: 'online', user_ids: ['wl-gina'] }] });
    gina.close();
    await watcher.next(
      (f) =>
        f.event === 'pusher_internal:watchlist_events' &&
        f !== initial &&
        f.data.events[0].name === 'offline',
    );
    await stillAlive(bystander);
    expect(watchlistFrames(bystander)).toEqual([]);
    expect(watchlistFrames(watcher).map((f) => f.data.events)).toEqual([
      [{ name: 'offline', user_ids: ['wl-gina', 'wl-hal'] }],
      [{ name: 'online', user_ids: ['wl-gina'] }],
      [{ name: 'offline', user_ids: ['wl-gina'] }],
    ]);
    watcher.close();
    bystander.close();
  });

  it('is off unless the app enables it, as the dashboard toggle is in Pusher', async () => {
    const watcher = await rawSignin(PLAIN, 'plain-a', { watchlist: ['plain-b'] });
    const watched = await rawSignin(PLAIN, 'plain-b', {});
    watched.close();
    await waitFor(() => box.realtime!.connections(PLAIN.appId) === 1);
    await stillAlive(watcher);
    expect(watchlistFrames(watcher)).toEqual([]);
    watcher.close();
  });

  it('refuses a signin whose watchlist is not a list of user ids (4009), and keeps other sessions', async () => {
    const other = await rawSignin(WATCHING, 'wl-ok', { watchlist: ['wl-x'] });
    for (const watchlist of [
      'wl-x',
      [Number.POSITIVE_INFINITY],
      [{}],
      Array.from({ length: 101 }, (_, i) => `u${i}`),
    ]) {
      const s = await TestSocket.connect(box.realtime!.wsUrl, WATCHING.key);
      const signer = new PusherServer({ ...WATCHING, host: '127.0.0.1' });
      const { auth, user_data } = signer.authenticateUser(s.socketId, { id: 'wl-bad', watchlist } as never);
      s.send({ event: 'pusher:signin', data: { auth, user_data } });
      const closed = await s.closed;
      expect(closed.code).toBe(4009);
      expect(closed.reason).toMatch(/watchlist/);
    }
    await stillAlive(other);
    other.close();
  });
});
