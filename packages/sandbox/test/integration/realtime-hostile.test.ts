/**
 * Frames from a hostile client that once ended the whole sandbox (user JSON nested thousands deep, serialised
 * again by the emulator), and keys that vanished into Object.prototype. Each frame must get the protocol's
 * answer (a `pusher:error` in shape, or a close with the protocol's code) while the session, every other
 * client, the store and the transcription emulator on the same server go on.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_DEV_APP, type Sandbox, startSandbox } from '../../src/index.js';
import { api, channelAuth, stillAlive, TestSocket } from '../helpers/realtime.js';

const NO_CLIENT_EVENTS = { appId: '100002', key: 'no_client_events_key', secret: 'no_client_events_secret' };

let box: Sandbox<true>;
let rt: NonNullable<Sandbox['realtime']>;
let control: TestSocket;
const sockets: TestSocket[] = [];

async function connect(key = rt.key): Promise<TestSocket> {
  const s = await TestSocket.connect(rt.wsUrl, key);
  sockets.push(s);
  return s;
}

const creds = () => ({ url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret });
const sign = (text: string) => createHmac('sha256', rt.secret).update(text).digest('hex');
/** `[[[...]]]`, `depth` arrays deep. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

beforeAll(async () => {
  box = await startSandbox({
    transcription: true,
    realtime: {
      apps: [
        { ...REALTIME_DEV_APP, subscriptionCounting: true },
        { ...NO_CLIENT_EVENTS, enableClientMessages: false },
      ],
    },
  });
  rt = box.realtime!;
  control = await connect();
  await control.subscribe('control');
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await box?.close();
});

/** Everything on the server still answers: the store, transcription, and a client connected before the frame. */
async function everyoneElseFine(): Promise<void> {
  expect((await fetch(`${box.url}/wp-json/`)).status).toBe(200);
  const transcripts = await fetch(`${box.url}/v2/transcript`, {
    headers: { authorization: box.transcription!.apiKey },
  });
  expect(transcripts.status).toBe(200);
  const before = control.frames.length;
  const sent = await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
    body: { name: 'still-here', channel: 'control', data: '1' },
  });
  expect(sent.status).toBe(200);
  await control.next((f) => f.event === 'still-here' && control.frames.indexOf(f) >= before);
}

async function refusedWith(s: TestSocket, before: number, code: number | null, message: RegExp) {
  const error = await s.next((f) => f.event === 'pusher:error' && s.frames.indexOf(f) >= before);
  expect(JSON.parse(error.raw).data).toEqual({ code, message: expect.stringMatching(message) });
}

describe('user JSON nested thousands deep', () => {
  const deepClientEvent = (channel: string) =>
    `{"event":"client-x","channel":"${channel}","data":${nested(6000)}}`;

  it('a client event on a channel the socket is not subscribed to: 4301, before the data is read', async () => {
    const s = await connect();
    s.send(deepClientEvent('private-nobody'));
    await refusedWith(s, 0, 4301, /not subscribed/);
    await stillAlive(s);
    await everyoneElseFine();
  });

  it('a client event with no channel at all (the frame of the report): 4301', async () => {
    const s = await connect();
    s.send(`{"event":"client-x","data":${nested(6000)}}`);
    await refusedWith(s, 0, 4301, /valid channel/);
    await stillAlive(s);
    await everyoneElseFine();
  });

  it('a client event on an app without client events: 4301, before the data is read', async () => {
    const s = await connect(NO_CLIENT_EVENTS.key);
    s.send(deepClientEvent('private-a'));
    await refusedWith(s, 0, 4301, /not enabled/);
    await stillAlive(s);
    await everyoneElseFine();
  });

  it('a client event on a subscribed channel: 4301 naming the depth; nobody receives it', async () => {
    const [sender, peer] = [await connect(), await connect()];
    for (const s of [sender, peer]) {
      const ok = await s.subscribe('private-deep', { key: rt.key, secret: rt.secret });
      expect(ok.event).toBe('pusher_internal:subscription_succeeded');
    }
    const before = sender.frames.length;
    sender.send(deepClientEvent('private-deep'));
    await refusedWith(sender, before, 4301, /nested deeper than \d+ levels/);
    await stillAlive(sender);
    // A shallow event afterwards arrives, and is the first client event the peer sees.
    sender.send({ event: 'client-ok', channel: 'private-deep', data: { a: [[1]] } });
    const first = await peer.next((f) => f.event.startsWith('client-'));
    expect(first.event).toBe('client-ok');
    await everyoneElseFine();
  });

  it('signed presence channel_data whose user_info is nested 5,000 deep: refused, the channel stays usable', async () => {
    const s = await connect();
    const channelData = `{"user_id":"deep","user_info":${nested(5000)}}`;
    s.send({
      event: 'pusher:subscribe',
      data: {
        channel: 'presence-deep',
        auth: `${rt.key}:${sign(`${s.socketId}:presence-deep:${channelData}`)}`,
        channel_data: channelData,
      },
    });
    await refusedWith(s, 0, null, /channel_data is nested deeper than \d+ levels/);
    await stillAlive(s);
    const other = await connect();
    const joined = await other.subscribe('presence-deep', {
      key: rt.key,
      secret: rt.secret,
      channelData: JSON.stringify({ user_id: 'fine' }),
    });
    expect(joined.data.presence.ids).toEqual(['fine']);
    await everyoneElseFine();
  });

  it('pusher:signin with user_info nested 5,000 deep: 4009, and the presence channel is not poisoned', async () => {
    const s = await connect();
    const userData = `{"id":"deep","user_info":${nested(5000)}}`;
    s.send({
      event: 'pusher:signin',
      data: { auth: `${rt.key}:${sign(`${s.socketId}::user::${userData}`)}`, user_data: userData },
    });
    // No channel_data: the member would be the signed-in user, whose info everyone else is sent.
    s.send({
      event: 'pusher:subscribe',
      data: {
        channel: 'presence-signed',
        auth: channelAuth(rt.key, rt.secret, s.socketId, 'presence-signed'),
      },
    });
    const closed = await s.closed;
    expect(closed.code).toBe(4009);
    expect(closed.reason).toMatch(/nested deeper than \d+ levels/);
    const other = await connect();
    const joined = await other.subscribe('presence-signed', {
      key: rt.key,
      secret: rt.secret,
      channelData: JSON.stringify({ user_id: 'fine' }),
    });
    expect(joined.data.presence.ids).toEqual(['fine']);
    await everyoneElseFine();
  });

  it("a signed-in user's user_info over the presence limit is refused when it would join, as channel_data is", async () => {
    const s = await connect();
    const userData = JSON.stringify({ id: 'big', user_info: { bio: 'x'.repeat(2000) } });
    s.send({
      event: 'pusher:signin',
      data: { auth: `${rt.key}:${sign(`${s.socketId}::user::${userData}`)}`, user_data: userData },
    });
    await s.next('pusher:signin_success');
    const refused = await s.subscribe('presence-big', { key: rt.key, secret: rt.secret });
    expect(refused.event).toBe('pusher:error');
    expect(refused.data.message).toMatch(/limit is 1024/);
    await stillAlive(s);
  });
});

describe('keys that are also Object.prototype names', () => {
  it('a channel named __proto__ is listed by GET /apps/{id}/channels and counted by a trigger', async () => {
    const s = await connect();
    await s.subscribe('__proto__');
    const list = await api(creds(), 'GET', `/apps/${rt.appId}/channels`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.json.channels)).toContain('__proto__');
    expect(list.text).toContain('"__proto__":{}');
    const sent = await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
      body: { name: 'e', channel: '__proto__', data: '1', info: 'subscription_count' },
    });
    expect(sent.text).toBe('{"channels":{"__proto__":{"subscription_count":1}}}');
    const batch = await api(creds(), 'POST', `/apps/${rt.appId}/batch_events`, {
      body: { batch: [{ name: 'e', channel: '__proto__', data: '1', info: 'subscription_count' }] },
    });
    expect(batch.text).toBe('{"batch":[{"subscription_count":1}]}');
  });

  it('a presence member with user_id __proto__ is in the hash every joiner gets', async () => {
    const auth = (user: string) => ({
      key: rt.key,
      secret: rt.secret,
      channelData: JSON.stringify({ user_id: user, user_info: { name: user } }),
    });
    const a = await connect();
    await a.subscribe('presence-proto', auth('__proto__'));
    const b = await connect();
    const joined = await b.subscribe('presence-proto', auth('constructor'));
    expect(joined.data.presence.ids).toEqual(['__proto__', 'constructor']);
    expect(Object.keys(joined.data.presence.hash)).toEqual(['__proto__', 'constructor']);
    const hash = JSON.parse(JSON.parse(joined.raw).data).presence.hash;
    expect(Object.getOwnPropertyDescriptor(hash, '__proto__')?.value).toEqual({ name: '__proto__' });
    const users = await api(creds(), 'GET', `/apps/${rt.appId}/channels/presence-proto/users`);
    expect(users.json.users).toEqual([{ id: '__proto__' }, { id: 'constructor' }]);
  });

  it('a query parameter named __proto__ is signed and checked like any other', async () => {
    const answer = await api(creds(), 'GET', `/apps/${rt.appId}/channels`, {
      params: Object.fromEntries([['__proto__', '1']]),
    });
    expect(answer.status).toBe(200);
  });
});

describe("the HTTP API refuses event names in Pusher's own namespace", () => {
  // Pusher answers 400 with this text (pusher-http-ruby#142: `Bad request: The 'pusher' namespace is reserved
  // for internal usage`, for an event named pusher-notification).
  const RESERVED = "The 'pusher' namespace is reserved for internal usage";

  it.each(['pusher:subscription_succeeded', 'pusher_internal:member_added', 'pusher-notification'])(
    '%s: 400 on /events and /batch_events, and nothing is delivered',
    async (name) => {
      const s = await connect();
      await s.subscribe('reserved-names');
      const single = await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
        body: { name, channel: 'reserved-names', data: '{}' },
      });
      expect([single.status, single.text]).toEqual([400, RESERVED]);
      const batch = await api(creds(), 'POST', `/apps/${rt.appId}/batch_events`, {
        body: {
          batch: [
            { name: 'fine', channel: 'reserved-names', data: '{}' },
            { name, channel: 'reserved-names', data: '{}' },
          ],
        },
      });
      expect([batch.status, batch.text]).toEqual([400, `batch[1]: ${RESERVED}`]);
      await stillAlive(s);
      const delivered = s.frames.filter((f) => f.event === name || f.event === 'fine');
      expect(delivered).toEqual([]);
      s.close();
    },
  );

  it('names that only resemble it are delivered', async () => {
    const s = await connect();
    await s.subscribe('lookalikes');
    for (const name of ['pushers', 'my-pusher:x', 'Pusher-upper']) {
      const sent = await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
        body: { name, channel: 'lookalikes', data: '{}' },
      });
      expect(sent.status).toBe(200);
      await s.next(name);
    }
  });
});
