/**
 * The realtime emulator's WebSocket side over real sockets (`ws` as the client): handshake and close codes,
 * ping/pong and the activity check, public/private/presence/cache channels, client events, signin and
 * terminate_connections. The HTTP API publishes where a test needs a server-side event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, TestSocket, waitFor } from '../helpers/realtime.js';

let box: Sandbox<false>;
let rt: NonNullable<Sandbox<false>['realtime']>;
/** activity_timeout 1 s, pong timeout 300 ms, 2 connections per app, client events off on app 2. */
let quick: Sandbox<false>;
const sockets: TestSocket[] = [];

async function connect(target: Sandbox<false> = box, key?: string): Promise<TestSocket> {
  const s = await TestSocket.connect(target.realtime!.wsUrl, key ?? target.realtime!.key);
  sockets.push(s);
  return s;
}

function open(url: string): TestSocket {
  const s = new TestSocket(url);
  sockets.push(s);
  return s;
}

const creds = () => ({ url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret });
const auth = (channelData?: string) => ({ key: rt.key, secret: rt.secret, channelData });
const trigger = (channel: string, name: string, data: string, extra: Record<string, unknown> = {}) =>
  api(creds(), 'POST', `/apps/${rt.appId}/events`, { body: { name, channel, data, ...extra } });

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: { clientEventsPerSecond: 3 } });
  rt = box.realtime!;
  quick = await startSandbox({
    store: false,
    realtime: {
      activityTimeout: 1,
      pongTimeoutMs: 300,
      apps: [
        { appId: '1', key: 'quick-key', secret: 'quick-secret', maxConnections: 2 },
        { appId: '2', key: 'quiet-key', secret: 'quiet-secret', enableClientMessages: false },
      ],
    },
  });
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await box?.close();
  await quick?.close();
});

describe('handshake', () => {
  it('sends connection_established with a socket id and the activity timeout', async () => {
    const s = await connect();
    const established = s.frames[0]!;
    expect(established.event).toBe('pusher:connection_established');
    expect(established.data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(established.data.activity_timeout).toBe(120);
    // The data is a string holding JSON on the wire.
    expect(typeof JSON.parse(established.raw).data).toBe('string');
  });

  it.each([
    ['an unknown key', '/app/nope?protocol=7', 4001],
    ['no protocol', `/app/sandbox_dev_realtime_key`, 4008],
    ['an unsupported protocol', `/app/sandbox_dev_realtime_key?protocol=4`, 4007],
    ['a malformed protocol', `/app/sandbox_dev_realtime_key?protocol=seven`, 4006],
    ['a path below the key', `/app/sandbox_dev_realtime_key/extra?protocol=7`, 4005],
  ])('closes for %s with %i', async (_what, path, code) => {
    const s = open(`${rt.wsUrl}${path}`);
    const closed = await s.closed;
    expect(closed.code).toBe(code);
    expect(closed.reason.length).toBeGreaterThan(0);
    expect(s.frames).toEqual([]);
  });

  it('closes connections over the app quota with 4004', async () => {
    const a = await connect(quick, 'quick-key');
    const b = await connect(quick, 'quick-key');
    const c = open(`${quick.realtime!.wsUrl}/app/quick-key?protocol=7`);
    expect((await c.closed).code).toBe(4004);
    a.close();
    b.close();
    await waitFor(() => quick.realtime!.connections('1') === 0);
  });
});

describe('liveness', () => {
  it('answers pusher:ping with pusher:pong', async () => {
    const s = await connect();
    s.send({ event: 'pusher:ping', data: {} });
    await expect(s.next('pusher:pong')).resolves.toMatchObject({ event: 'pusher:pong' });
  });

  it('pings an idle client and closes with 4201 when no pong comes', async () => {
    const s = await connect(quick, 'quiet-key');
    const ping = await s.next('pusher:ping', 3000);
    expect(ping.event).toBe('pusher:ping');
    expect((await s.closed).code).toBe(4201);
  });

  it('keeps a client that answers the ping', async () => {
    const s = await connect(quick, 'quiet-key');
    const first = await s.next('pusher:ping', 3000);
    s.send({ event: 'pusher:pong', data: {} });
    // The answered ping is followed by the next activity check, not by the 4201 close that would have come
    // first (after the pong timeout) had the pong not counted: the order says it, no clock needed.
    await s.next((f) => f.event === 'pusher:ping' && f !== first, 10_000);
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    s.close();
  });
});

describe('channels', () => {
  it('delivers HTTP API events on public channels, data as sent', async () => {
    const s = await connect();
    expect((await s.subscribe('news')).event).toBe('pusher_internal:subscription_succeeded');
    expect((await trigger('news', 'headline', '{"title":"hi"}')).status).toBe(200);
    const got = await s.next('headline');
    expect(got).toMatchObject({ channel: 'news', data: { title: 'hi' } });
    await trigger('news', 'plain', 'not json');
    expect((await s.next('plain')).data).toBe('not json');
  });

  it('accepts subscribe data as a JSON string too', async () => {
    const s = await connect();
    s.send({ event: 'pusher:subscribe', data: JSON.stringify({ channel: 'stringly' }) });
    await expect(s.next('pusher_internal:subscription_succeeded')).resolves.toMatchObject({
      channel: 'stringly',
    });
  });

  it('excludes the socket_id given to the HTTP API', async () => {
    const a = await connect();
    const b = await connect();
    await a.subscribe('excl');
    await b.subscribe('excl');
    await trigger('excl', 'ping', '1', { socket_id: a.socketId });
    await b.next('ping');
    expect(await a.collect((f) => f.event === 'ping', 150)).toEqual([]);
  });

  it('subscribes to private channels with a valid signature and refuses a forged one', async () => {
    const s = await connect();
    expect((await s.subscribe('private-ok', auth())).event).toBe('pusher_internal:subscription_succeeded');
    const refused = await s.subscribe('private-forged', { key: rt.key, secret: 'not-the-secret' });
    expect(refused.event).toBe('pusher:error');
    expect(refused.data.code).toBeNull();
    expect(refused.data.message).toMatch(
      /^Invalid signature: Expected HMAC SHA256 hex digest of \d+\.\d+:private-forged/,
    );
    expect(refused.data.message).not.toContain(rt.secret);
    const noAuth = await s.subscribe('private-none');
    expect(noAuth.data.message).toMatch(/Auth info required/);
    expect(rt.channels().some((c) => c.name === 'private-forged')).toBe(false);
  });

  it('tracks presence members per user, not per connection', async () => {
    const alice1 = await connect();
    const alice2 = await connect();
    const bob = await connect();
    const aliceData = JSON.stringify({ user_id: 'alice', user_info: { name: 'Alice' } });
    const first = await alice1.subscribe('presence-room', auth(aliceData));
    expect(first.data.presence).toEqual({ ids: ['alice'], hash: { alice: { name: 'Alice' } }, count: 1 });
    await bob.subscribe('presence-room', auth(JSON.stringify({ user_id: 7 })));
    await expect(alice1.next('pusher_internal:member_added')).resolves.toMatchObject({
      data: { user_id: '7' },
    });
    await alice2.subscribe('presence-room', auth(aliceData));
    // Alice's second connection is not a new member.
    expect(await bob.collect((f) => f.event === 'pusher_internal:member_added', 150)).toEqual([]);
    alice1.close();
    expect(await bob.collect((f) => f.event === 'pusher_internal:member_removed', 200)).toEqual([]);
    alice2.close();
    await expect(bob.next('pusher_internal:member_removed')).resolves.toMatchObject({
      data: { user_id: 'alice' },
    });
  });

  it('replays the last event of a cache channel, or says cache_miss', async () => {
    const s = await connect();
    await s.subscribe('cache-weather');
    await expect(
      s.next((f) => f.event === 'pusher:cache_miss' && f.channel === 'cache-weather'),
    ).resolves.toBeTruthy();
    await trigger('cache-weather', 'forecast', '"sunny"');
    const late = await connect();
    await late.subscribe('cache-weather');
    await expect(late.next('forecast')).resolves.toMatchObject({ data: 'sunny' });
  });

  it('stops delivering after pusher:unsubscribe', async () => {
    const s = await connect();
    await s.subscribe('leaving');
    s.send({ event: 'pusher:unsubscribe', data: { channel: 'leaving' } });
    await waitFor(() => !rt.channels().some((c) => c.name === 'leaving'));
    await trigger('leaving', 'after', '1');
    expect(await s.collect((f) => f.event === 'after', 150)).toEqual([]);
  });
});

describe('client events', () => {
  it('relays to the others, never echoes, and adds user_id on presence channels', async () => {
    const a = await connect();
    const b = await connect();
    const data = (id: string) => JSON.stringify({ user_id: id });
    await a.subscribe('presence-chat', auth(data('a')));
    await b.subscribe('presence-chat', auth(data('b')));
    a.send({ event: 'client-typing', channel: 'presence-chat', data: { on: true } });
    await expect(b.next('client-typing')).resolves.toMatchObject({ data: { on: true }, user_id: 'a' });
    expect(await a.collect((f) => f.event === 'client-typing', 150)).toEqual([]);
  });

  it('refuses them on public channels and when not subscribed, with 4301', async () => {
    const s = await connect();
    await s.subscribe('public-room');
    s.send({ event: 'client-x', channel: 'public-room', data: {} });
    await expect(s.next('pusher:error')).resolves.toMatchObject({ data: { code: 4301 } });
    s.send({ event: 'client-x', channel: 'private-elsewhere', data: {} });
    const errors = await s.collect((f) => f.event === 'pusher:error', 150);
    expect(errors[0]?.data.message).toMatch(/not subscribed/);
  });

  it('rate limits each connection (here 3 per second) with 4301', async () => {
    const a = await connect();
    const b = await connect();
    await a.subscribe('private-burst', auth());
    await b.subscribe('private-burst', auth());
    for (let i = 0; i < 5; i++) a.send({ event: 'client-n', channel: 'private-burst', data: { i } });
    const received = await b.collect((f) => f.event === 'client-n', 300);
    expect(received.map((f) => f.data.i)).toEqual([0, 1, 2]);
    const limited = a.frames.filter((f) => f.event === 'pusher:error' && f.data.code === 4301);
    expect(limited).toHaveLength(2);
    expect(limited[0]!.data.message).toMatch(/rate limit/);
  });

  it('refuses them when the app has client events off', async () => {
    const s = await connect(quick, 'quiet-key');
    s.send({ event: 'client-x', channel: 'private-a', data: {} });
    await expect(s.next('pusher:error')).resolves.toMatchObject({
      data: { code: 4301, message: 'Client events are not enabled for this app' },
    });
    s.close();
  });
});

describe('users', () => {
  it('signs in, receives #server-to-user events, and is terminated with 4009', async () => {
    const { createHmac } = await import('node:crypto');
    const s = await connect();
    const userData = JSON.stringify({ id: 'u-1', user_info: { name: 'U' } });
    const signature = createHmac('sha256', rt.secret)
      .update(`${s.socketId}::user::${userData}`)
      .digest('hex');
    s.send({ event: 'pusher:signin', data: { auth: `${rt.key}:${signature}`, user_data: userData } });
    await expect(s.next('pusher:signin_success')).resolves.toMatchObject({ data: { user_data: userData } });
    await trigger('#server-to-user-u-1', 'direct', '"hi"');
    await expect(s.next('direct')).resolves.toMatchObject({ channel: '#server-to-user-u-1', data: 'hi' });
    const res = await api(creds(), 'POST', `/apps/${rt.appId}/users/u-1/terminate_connections`, { body: {} });
    expect(res.status).toBe(200);
    expect((await s.closed).code).toBe(4009);
  });

  it('closes a forged signin with 4009', async () => {
    const s = await connect();
    s.send({
      event: 'pusher:signin',
      data: { auth: `${rt.key}:${'0'.repeat(64)}`, user_data: '{"id":"x"}' },
    });
    expect((await s.closed).code).toBe(4009);
  });

  it('lets a signed-in user join a presence channel without channel_data', async () => {
    const { createHmac } = await import('node:crypto');
    const s = await connect();
    const userData = JSON.stringify({ id: 'solo' });
    const signature = createHmac('sha256', rt.secret)
      .update(`${s.socketId}::user::${userData}`)
      .digest('hex');
    s.send({ event: 'pusher:signin', data: { auth: `${rt.key}:${signature}`, user_data: userData } });
    await s.next('pusher:signin_success');
    const joined = await s.subscribe('presence-solo', auth());
    expect(joined.data.presence.ids).toEqual(['solo']);
  });
});
