/**
 * "Authorized connections" (https://pusher.com/docs/channels/using_channels/authorized-connections): with the
 * app switch on, a connection that neither signs in nor subscribes to a private or presence channel within the
 * window is closed with 4009; pusher-js (Node build, real WebSocket) reports that code and stays disconnected.
 * The window is configured short here and nothing is timed: each check is an order of events (a connection
 * opened earlier has had its window end earlier) or a close code.
 */
import PusherServer from 'pusher';
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createRealtimeEmulator, type Sandbox, startSandbox } from '../../src/index.js';
import { channelAuth, stillAlive, TestSocket, waitFor } from '../helpers/realtime.js';

const GUARDED = { appId: '901', key: 'guarded-key', secret: 'guarded-secret', authorizedConnections: true };
const OPEN = { appId: '902', key: 'open-key', secret: 'open-secret' };

let box: Sandbox<false>;
let signer: PusherServer;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    realtime: { apps: [GUARDED, OPEN], authorizedConnectionTimeoutMs: 150 },
  });
  signer = new PusherServer({ ...GUARDED, host: '127.0.0.1' });
});

afterAll(async () => {
  await box?.close();
});

const connect = (key: string) => TestSocket.connect(box.realtime!.wsUrl, key);

describe('authorized connections', () => {
  it('closes a connection that does nothing with 4009, and keeps one that subscribed to a private channel', async () => {
    const authorized = await connect(GUARDED.key);
    const answer = await authorized.subscribe('private-ok', GUARDED);
    expect(answer.event).toBe('pusher_internal:subscription_succeeded');
    const publicOnly = await connect(GUARDED.key);
    expect((await publicOnly.subscribe('just-public')).event).toBe('pusher_internal:subscription_succeeded');
    // Opened after `authorized`: by the time its window ends, the authorized one's has too.
    const { code, reason } = await publicOnly.closed;
    expect(code).toBe(4009);
    expect(reason).toMatch(/not authorized/);
    await stillAlive(authorized);
    authorized.close();
  });

  it('a signin authorizes the connection too', async () => {
    const s = await connect(GUARDED.key);
    const { auth, user_data } = signer.authenticateUser(s.socketId, { id: 'guarded-user' });
    s.send({ event: 'pusher:signin', data: { auth, user_data } });
    await s.next('pusher:signin_success');
    const idle = await connect(GUARDED.key);
    expect((await idle.closed).code).toBe(4009);
    await stillAlive(s);
    s.close();
  });

  it('presence subscriptions authorize; a refused private subscription does not', async () => {
    const member = await connect(GUARDED.key);
    const channelData = JSON.stringify({ user_id: 'm1' });
    const ok = await member.subscribe('presence-guarded', { ...GUARDED, channelData });
    expect(ok.event).toBe('pusher_internal:subscription_succeeded');
    const forger = await connect(GUARDED.key);
    const refused = await forger.subscribe('private-guarded', { ...GUARDED, secret: 'wrong' });
    expect(refused.event).toBe('pusher:error');
    expect((await forger.closed).code).toBe(4009);
    await stillAlive(member);
    member.close();
  });

  it('is off by default: an app without the switch keeps idle connections', async () => {
    const idleOpen = await connect(OPEN.key);
    const idleGuarded = await connect(GUARDED.key);
    expect((await idleGuarded.closed).code).toBe(4009);
    await stillAlive(idleOpen);
    idleOpen.close();
  });

  it('pusher-js sees 4009 and stays disconnected (4000-4099: no reconnect)', async () => {
    const rt = box.realtime!;
    const c = new PusherClient(GUARDED.key, {
      cluster: 'sandbox',
      wsHost: '127.0.0.1',
      wsPort: Number(new URL(rt.url).port),
      forceTLS: false,
      enabledTransports: ['ws'],
    });
    const opened = rt.stats().sockets.opened;
    const error = new Promise<{ data?: { code?: number } }>((resolve) => c.connection.bind('error', resolve));
    const disconnected = new Promise<void>((resolve) => c.connection.bind('disconnected', () => resolve()));
    expect((await error).data?.code).toBe(4009);
    await disconnected;
    // A later connection's window ends after any retry pusher-js would have made straight away.
    const probe = await connect(GUARDED.key);
    expect((await probe.closed).code).toBe(4009);
    expect(c.connection.state).toBe('disconnected');
    expect(rt.stats().sockets.opened).toBe(opened + 2);
    c.disconnect();
  });
});

describe('authorized connections and a silent sandbox', () => {
  it('a window that ends while the sandbox is silent closes the connection only when it speaks again', async () => {
    const quiet = await startSandbox({
      store: false,
      realtime: { apps: [GUARDED], authorizedConnectionTimeoutMs: 150 },
    });
    try {
      const s = await TestSocket.connect(quiet.realtime!.wsUrl, GUARDED.key);
      const speak = quiet.realtime!.goSilent();
      // Same window on the other sandbox, opened later: when it is closed, the silent one's window has ended.
      const probe = await connect(GUARDED.key);
      expect((await probe.closed).code).toBe(4009);
      // A silent server sends nothing, no close frame either (one received would make the socket CLOSING).
      expect(s.ws.readyState).toBe(WebSocket.OPEN);
      expect(s.frames.map((f) => f.event)).toEqual(['pusher:connection_established']);
      speak();
      const { code, reason } = await s.closed;
      expect(code).toBe(4009);
      expect(reason).toMatch(/not authorized/);
    } finally {
      await quiet.close();
    }
  });
});

describe('authorized connection settings', () => {
  it('refuses a bad timeout or switch, naming it', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '30' as unknown as number]) {
      expect(() => createRealtimeEmulator({ authorizedConnectionTimeoutMs: bad })).toThrow(
        /authorizedConnectionTimeoutMs/,
      );
    }
    expect(() =>
      createRealtimeEmulator({ apps: [{ ...OPEN, authorizedConnections: 'yes' as unknown as boolean }] }),
    ).toThrow(/authorizedConnections must be true or false/);
  });
});

describe('authorized connections and the connection quota', () => {
  // Pusher: "an attacker can't connect to your Channels app to exhaust your connection limit, as we do not count
  // unauthorized connections towards your quota" (https://pusher.com/docs/channels/using_channels/authorized-connections).
  it('unauthorized connections do not use up maxConnections; the authorization past the quota gets 4004', async () => {
    const QUOTA = { appId: '903', key: 'quota-key', secret: 'quota-secret', authorizedConnections: true };
    const quota = await startSandbox({
      store: false,
      realtime: {
        apps: [{ ...QUOTA, maxConnections: 2 }],
        // Longer than the test: no connection is closed for its window here.
        authorizedConnectionTimeoutMs: 600_000,
      },
    });
    try {
      const rt = quota.realtime!;
      // Three idle (unauthorized) connections are past a quota of 2, yet all are accepted.
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => TestSocket.connect(rt.wsUrl, QUOTA.key)));
      expect((await a!.subscribe('private-a', QUOTA)).event).toBe('pusher_internal:subscription_succeeded');
      expect((await b!.subscribe('private-b', QUOTA)).event).toBe('pusher_internal:subscription_succeeded');
      // The quota is full of authorized connections: the third to authorize is over it.
      c!.send({
        event: 'pusher:subscribe',
        data: { channel: 'private-c', auth: channelAuth(QUOTA.key, QUOTA.secret, c!.socketId, 'private-c') },
      });
      const closed = await c!.closed;
      expect(closed.code).toBe(4004);
      expect(c!.frames.some((f) => f.event === 'pusher_internal:subscription_succeeded')).toBe(false);
      expect(
        rt
          .channels()
          .map((ch) => ch.name)
          .sort(),
      ).toEqual(['private-a', 'private-b']);
      // A new connection is still accepted (it does not count until it authorizes); one that leaves frees a place.
      const d = await TestSocket.connect(rt.wsUrl, QUOTA.key);
      a!.close();
      await waitFor(() => rt.connections() === 2);
      expect((await d.subscribe('private-d', QUOTA)).event).toBe('pusher_internal:subscription_succeeded');
      await stillAlive(b!);
      for (const s of [b!, d]) s.close();
    } finally {
      await quota.close();
    }
  });

  it('without the switch every open connection counts, as before', async () => {
    const PLAIN = { appId: '904', key: 'plain-quota-key', secret: 'plain-quota-secret', maxConnections: 1 };
    const plain = await startSandbox({ store: false, realtime: { apps: [PLAIN] } });
    try {
      const first = await TestSocket.connect(plain.realtime!.wsUrl, PLAIN.key);
      const second = new TestSocket(`${plain.realtime!.wsUrl}/app/${PLAIN.key}?protocol=7`);
      expect((await second.closed).code).toBe(4004);
      await stillAlive(first);
      first.close();
    } finally {
      await plain.close();
    }
  });
});
