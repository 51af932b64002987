/**
 * Malformed and hostile input against the realtime emulator over real sockets. What the protocol forbids
 * outright closes the connection with the RFC 6455 code for it (1003 binary, 1009 too big) or 4009 (forged
 * signin); what it can read but not use is answered with `pusher:error` and the connection stays (checked with a
 * ping that must still be answered); unknown events are ignored. A healthy client, connected before the
 * barrage, must still receive an event after it: the server stays up and others are unaffected.
 */
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import {
  api,
  channelAuth,
  type Frame,
  maskedText,
  stillAlive,
  TestSocket,
  waitFor,
} from '../helpers/realtime.js';

let box: Sandbox<false>;
let rt: NonNullable<Sandbox<false>['realtime']>;
let healthy: TestSocket;
const sockets: TestSocket[] = [];

async function connect(target = box): Promise<TestSocket> {
  const s = await TestSocket.connect(target.realtime!.wsUrl, target.realtime!.key);
  sockets.push(s);
  return s;
}

const creds = () => ({ url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret });
const sign = (text: string) => createHmac('sha256', rt.secret).update(text).digest('hex');

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: { maxPresenceMembers: 3 } });
  rt = box.realtime!;
  healthy = await connect();
  await healthy.subscribe('healthy');
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await box?.close();
});

type Case = [what: string, frame: (s: TestSocket) => unknown, error: RegExp | null];

const PRESENCE = 'presence-bad';
const presenceSub = (s: TestSocket, channelData: unknown, signed = String(channelData)) => ({
  event: 'pusher:subscribe',
  data: {
    channel: PRESENCE,
    auth: `${rt.key}:${sign(`${s.socketId}:${PRESENCE}:${signed}`)}`,
    channel_data: channelData,
  },
});

const SOFT: Case[] = [
  ['text that is not JSON', () => 'nope', /not valid JSON/],
  ['truncated JSON', () => '{"event":"pusher:subscribe"', /not valid JSON/],
  ['a JSON array', () => '[]', /JSON object/],
  ['a JSON number', () => '42', /JSON object/],
  ['a JSON string', () => '"pusher:ping"', /JSON object/],
  ['JSON null', () => 'null', /JSON object/],
  ['an object without event', () => ({ data: {} }), /string "event"/],
  ['a numeric event', () => ({ event: 7 }), /string "event"/],
  ['an empty event', () => ({ event: '' }), /string "event"/],
  ['a numeric channel', () => ({ event: 'client-x', channel: 5 }), /"channel" must be a string/],
  ['subscribe with null data', () => ({ event: 'pusher:subscribe', data: null }), /data.channel/],
  ['subscribe with numeric data', () => ({ event: 'pusher:subscribe', data: 3 }), /data.channel/],
  [
    'subscribe with a non-JSON data string',
    () => ({ event: 'pusher:subscribe', data: '{channel' }),
    /data.channel/,
  ],
  ['subscribe without a channel', () => ({ event: 'pusher:subscribe', data: {} }), /data.channel/],
  [
    'subscribe with a numeric channel',
    () => ({ event: 'pusher:subscribe', data: { channel: 1 } }),
    /data.channel/,
  ],
  [
    'a 165-character channel',
    () => ({ event: 'pusher:subscribe', data: { channel: 'c'.repeat(165) } }),
    /164/,
  ],
  [
    'a channel with a space',
    () => ({ event: 'pusher:subscribe', data: { channel: 'a b' } }),
    /Invalid channel name/,
  ],
  [
    'a channel with unicode',
    () => ({ event: 'pusher:subscribe', data: { channel: 'café' } }),
    /Invalid channel name/,
  ],
  [
    'the reserved user channel',
    () => ({ event: 'pusher:subscribe', data: { channel: '#server-to-user-1' } }),
    /reserved/,
  ],
  [
    'private without auth',
    () => ({ event: 'pusher:subscribe', data: { channel: 'private-a' } }),
    /Auth info required/,
  ],
  [
    'private with numeric auth',
    () => ({ event: 'pusher:subscribe', data: { channel: 'private-a', auth: 12 } }),
    /Auth info required/,
  ],
  [
    'private with another key',
    (s) => ({
      event: 'pusher:subscribe',
      data: { channel: 'private-a', auth: `other:${sign(`${s.socketId}:private-a`)}` },
    }),
    /Invalid key/,
  ],
  [
    'private auth without a colon',
    () => ({ event: 'pusher:subscribe', data: { channel: 'private-a', auth: rt.key } }),
    /Invalid signature/,
  ],
  [
    'a signature for another channel',
    (s) => ({
      event: 'pusher:subscribe',
      data: { channel: 'private-a', auth: channelAuth(rt.key, rt.secret, s.socketId, 'private-b') },
    }),
    /Invalid signature/,
  ],
  [
    'a signature for another socket',
    () => ({
      event: 'pusher:subscribe',
      data: { channel: 'private-a', auth: channelAuth(rt.key, rt.secret, '1.1', 'private-a') },
    }),
    /Invalid signature/,
  ],
  [
    'a forged encrypted subscription',
    (s) => ({
      event: 'pusher:subscribe',
      data: {
        channel: 'private-encrypted-a',
        auth: channelAuth(rt.key, 'guess', s.socketId, 'private-encrypted-a'),
      },
    }),
    /Invalid signature/,
  ],
  [
    'presence without channel_data',
    (s) => ({
      event: 'pusher:subscribe',
      data: { channel: PRESENCE, auth: channelAuth(rt.key, rt.secret, s.socketId, PRESENCE) },
    }),
    /channel_data/,
  ],
  ['presence channel_data that is not JSON', (s) => presenceSub(s, 'user 1'), /not valid JSON/],
  [
    'presence channel_data as an object',
    (s) => presenceSub(s, { user_id: '1' }, '[object Object]'),
    /must be a string/,
  ],
  ['presence channel_data without user_id', (s) => presenceSub(s, '{"user_info":{}}'), /user_id/],
  [
    'presence user_info over 1 KB',
    (s) => presenceSub(s, JSON.stringify({ user_id: 'big', user_info: 'x'.repeat(1100) })),
    /limit is 1024/,
  ],
  ['unsubscribe without a channel', () => ({ event: 'pusher:unsubscribe', data: {} }), /data.channel/],
  [
    'a client event with 11 KB of data',
    () => ({ event: 'client-big', channel: 'private-c', data: 'x'.repeat(11_000) }),
    /not subscribed|exceeds/,
  ],
  [
    'a client event with a 201-character name',
    () => ({ event: `client-${'e'.repeat(195)}`, channel: 'private-c', data: {} }),
    /not subscribed|limit is 200/,
  ],
  ['a client event without a channel', () => ({ event: 'client-x', data: {} }), /valid channel/],
  [
    'a client event on an encrypted channel',
    () => ({ event: 'client-x', channel: 'private-encrypted-c', data: {} }),
    /only supported on private and presence/,
  ],
  [
    'a client event on a public channel',
    () => ({ event: 'client-x', channel: 'news', data: {} }),
    /only supported on private and presence/,
  ],
];

const IGNORED: Case[] = [
  ['an unknown pusher: event', () => ({ event: 'pusher:teleport', data: {} }), null],
  ['an unknown plain event', () => ({ event: 'hello', data: {} }), null],
  [
    'a pusher_internal event from the client',
    () => ({ event: 'pusher_internal:member_added', channel: 'presence-x', data: { user_id: 'evil' } }),
    null,
  ],
  [
    'unsubscribe from a channel never joined',
    () => ({ event: 'pusher:unsubscribe', data: { channel: 'never' } }),
    null,
  ],
  ['a pusher:pong nobody asked for', () => ({ event: 'pusher:pong', data: {} }), null],
];

describe('frames answered with pusher:error, connection kept', () => {
  it.each(SOFT)('%s', async (_what, frame, message) => {
    const s = await connect();
    s.send(frame(s));
    const error = await s.next('pusher:error');
    expect(error.data.message).toMatch(message!);
    expect(JSON.parse(error.raw).data).toBeTypeOf('object');
    await stillAlive(s);
    s.close();
  });
});

describe('frames ignored, connection kept', () => {
  it.each(IGNORED)('%s', async (_what, frame) => {
    const s = await connect();
    s.send(frame(s));
    await stillAlive(s);
    expect(s.frames.filter((f: Frame) => f.event === 'pusher:error')).toEqual([]);
    s.close();
  });
});

describe('frames that close the connection', () => {
  it('a binary frame: 1003', async () => {
    const s = await connect();
    s.ws.send(Buffer.from('{"event":"pusher:ping"}'), { binary: true });
    expect((await s.closed).code).toBe(1003);
  });

  it('a 1 MB frame: 1009', async () => {
    const s = await connect();
    s.send(JSON.stringify({ event: 'client-x', channel: 'private-a', data: 'x'.repeat(1_000_000) }));
    expect((await s.closed).code).toBe(1009);
  });

  it('a 5 MB frame is cut off by the shared server before it is buffered whole: 1009', async () => {
    const s = await connect();
    s.send('x'.repeat(5 * 1024 * 1024));
    expect((await s.closed).code).toBe(1009);
  });

  it('signin without fields, with a bad signature, and with user_data lacking an id: 4009', async () => {
    const a = await connect();
    a.send({ event: 'pusher:signin', data: {} });
    expect((await a.closed).code).toBe(4009);
    const b = await connect();
    b.send({ event: 'pusher:signin', data: { auth: `${rt.key}:abc`, user_data: '{"id":"1"}' } });
    expect((await b.closed).code).toBe(4009);
    const c = await connect();
    const userData = '{"name":"no id"}';
    c.send({
      event: 'pusher:signin',
      data: { auth: `${rt.key}:${sign(`${c.socketId}::user::${userData}`)}`, user_data: userData },
    });
    expect((await c.closed).code).toBe(4009);
  });

  it('handshakes with a garbage key or a percent-encoding error', async () => {
    const a = new TestSocket(`${rt.wsUrl}/app/%E0%A4%A?protocol=7`);
    expect((await a.closed).code).toBe(4005);
    const b = new TestSocket(`${rt.wsUrl}/app/${'k'.repeat(2000)}?protocol=7`);
    expect((await b.closed).code).toBe(4001);
  });
});

describe('floods and limits', () => {
  it("caps a presence channel (here 3 members) but not a member's extra connections", async () => {
    const joined: Frame[] = [];
    for (const id of ['1', '2', '3', '4']) {
      const s = await connect();
      joined.push(
        await s.subscribe('presence-full', {
          key: rt.key,
          secret: rt.secret,
          channelData: JSON.stringify({ user_id: id }),
        }),
      );
    }
    expect(joined.map((f) => f.event)).toEqual([
      'pusher_internal:subscription_succeeded',
      'pusher_internal:subscription_succeeded',
      'pusher_internal:subscription_succeeded',
      'pusher:error',
    ]);
    expect(joined[3]!.data.message).toMatch(/limited to 3 members/);
    const again = await connect();
    const second = await again.subscribe('presence-full', {
      key: rt.key,
      secret: rt.secret,
      channelData: JSON.stringify({ user_id: '1' }),
    });
    expect(second.event).toBe('pusher_internal:subscription_succeeded');
  });

  it('subscribing twice keeps one subscription', async () => {
    const s = await connect();
    await s.subscribe('twice');
    await s.subscribe('twice');
    expect(rt.channels().find((c) => c.name === 'twice')?.subscriptionCount).toBe(1);
  });

  it('10,000 channels on one socket: the first 1,000 succeed, the rest are refused, the socket stays', async () => {
    const s = await connect();
    for (let i = 0; i < 10_000; i++) s.send({ event: 'pusher:subscribe', data: { channel: `storm-${i}` } });
    await waitFor(() => s.frames.length >= 10_001, 20_000);
    const succeeded = s.frames.filter((f) => f.event === 'pusher_internal:subscription_succeeded');
    const refused = s.frames.filter((f) => f.event === 'pusher:error');
    expect(succeeded).toHaveLength(1000);
    expect(refused).toHaveLength(9000);
    expect(refused[0]!.data.message).toMatch(/may hold 1000 subscriptions/);
    await stillAlive(s);
    s.close();
    await waitFor(() => !rt.channels().some((c) => c.name.startsWith('storm-')), 5000);
  });

  it('a subscribe storm from 50 sockets at once', async () => {
    const storm = await Promise.all(Array.from({ length: 50 }, () => connect()));
    for (const s of storm)
      for (let i = 0; i < 20; i++) s.send({ event: 'pusher:subscribe', data: { channel: `swarm-${i}` } });
    await waitFor(
      () =>
        rt
          .channels()
          .filter((c) => c.name.startsWith('swarm-'))
          .every((c) => c.subscriptionCount === 50) &&
        rt.channels().filter((c) => c.name.startsWith('swarm-')).length === 20,
      10_000,
    );
    for (const s of storm) s.close();
  });

  it('a reader that never drains is closed once its buffer passes the cap; memory stays bounded', async () => {
    const slow = await startSandbox({
      store: false,
      realtime: { maxBufferedBytes: 256 * 1024, maxPayloadBytes: 1024 * 1024, httpRateLimit: false },
    });
    const srt = slow.realtime!;
    try {
      const port = Number(new URL(srt.url).port);
      // A hand-made handshake on a raw socket that is then paused: nothing it is sent is ever read.
      const raw = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => raw.once('connect', resolve));
      raw.write(
        `GET /app/${srt.key}?protocol=7 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      // A masked subscribe frame for channel "slow".
      raw.write(maskedText('{"event":"pusher:subscribe","data":{"channel":"slow"}}'));
      raw.pause();
      await waitFor(() => srt.channels().some((c) => c.name === 'slow'));
      const c = { url: srt.url, appId: srt.appId, key: srt.key, secret: srt.secret };
      const data = 'x'.repeat(1000 * 1024);
      for (let i = 0; i < 200 && srt.stats().sockets.slowClosed === 0; i++) {
        await api(c, 'POST', `/apps/${srt.appId}/events`, { body: { name: 'flood', channel: 'slow', data } });
      }
      expect(srt.stats().sockets.slowClosed).toBe(1);
      expect(srt.channels()).toEqual([]);
      raw.destroy();
    } finally {
      await slow.close();
    }
  });

  it('HTTP: invalid JSON, an oversized body, missing auth, bad percent-encoding', async () => {
    const path = `/apps/${rt.appId}/events`;
    expect((await api(creds(), 'POST', path, { rawBody: '{nope' })).status).toBe(400);
    expect((await api(creds(), 'POST', path, { rawBody: 'x'.repeat(200_000) })).status).toBe(413);
    const unsigned = await fetch(`${rt.url}${path}`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.text()).toMatch(/auth_key/);
    expect((await fetch(`${rt.url}/apps/%E0%A4%A/events`)).status).toBe(404);
  });
});

describe('afterwards', () => {
  it('the healthy client still receives events and the server still accepts connections', async () => {
    await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
      body: { name: 'still-here', channel: 'healthy', data: '1' },
    });
    await expect(healthy.next('still-here')).resolves.toBeTruthy();
    const fresh = await connect();
    await stillAlive(fresh);
  });
});
