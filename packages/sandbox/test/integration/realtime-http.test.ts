/**
 * The realtime emulator's HTTP API (signed with a hand-written signer) and webhooks (received by a node:http
 * server on port 0, signatures checked by hand): statuses and bodies as Pusher answers them, plain-text errors.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, TestSocket, waitFor } from '../helpers/realtime.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { time_ms: number; events: { name: string; channel: string; [k: string]: unknown }[] };
}

let box: Sandbox<false>;
let rt: NonNullable<Sandbox<false>['realtime']>;
let receiver: http.Server;
const received: Received[] = [];
/** Per path, how many requests to answer with 500 before accepting. */
const failFirst = new Map<string, number>();
const sockets: TestSocket[] = [];
const APP = { appId: '42', key: 'http-key', secret: 'http-secret' };
const BATCHED = { appId: '43', key: 'batched-key', secret: 'batched-secret' };
const LIMITED = { appId: '44', key: 'limited-key', secret: 'limited-secret' };

const creds = (app = APP) => ({ url: rt.url, ...app });

async function connect(key = APP.key): Promise<TestSocket> {
  const s = await TestSocket.connect(rt.wsUrl, key);
  sockets.push(s);
  return s;
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const left = failFirst.get(path) ?? 0;
      if (left > 0) {
        failFirst.set(path, left - 1);
        res.writeHead(500).end();
        return;
      }
      received.push({ path, headers: req.headers, body, json: JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  box = await startSandbox({
    store: false,
    realtime: {
      apps: [
        { ...APP, webhooks: { url: `${hook}/single` }, subscriptionCounting: true },
        { ...BATCHED, webhooks: { url: `${hook}/batched`, batch: true } },
        LIMITED,
      ],
      httpRateLimit: { limit: 200, intervalMs: 60_000 },
      webhooks: { retryDelayMs: 20, batchWindowMs: 100 },
    },
  });
  rt = box.realtime!;
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await box?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('POST /events and /batch_events', () => {
  it('publishes to up to 100 channels and reports info per channel', async () => {
    const s = await connect();
    const member = JSON.stringify({ user_id: 'm1' });
    const sig = createHmac('sha256', APP.secret)
      .update(`${s.socketId}:presence-info:${member}`)
      .digest('hex');
    s.send({
      event: 'pusher:subscribe',
      data: { channel: 'presence-info', auth: `${APP.key}:${sig}`, channel_data: member },
    });
    await s.next('pusher_internal:subscription_succeeded');
    const res = await api(creds(), 'POST', `/apps/${APP.appId}/events`, {
      body: {
        name: 'e',
        data: '{}',
        channels: ['presence-info', 'plain'],
        info: 'user_count,subscription_count',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      channels: {
        'presence-info': { user_count: 1, subscription_count: 1 },
        plain: { subscription_count: 0 },
      },
    });
    await expect(s.next('e')).resolves.toMatchObject({ channel: 'presence-info' });
  });

  it('answers {} without info', async () => {
    const res = await api(creds(), 'POST', `/apps/${APP.appId}/events`, {
      body: { name: 'e', data: 'x', channel: 'c' },
    });
    expect(res.json).toEqual({});
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it.each([
    [
      '101 channels',
      { name: 'e', data: 'x', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) },
      400,
      /limit is 100/,
    ],
    ['data not a string', { name: 'e', data: { a: 1 }, channel: 'c' }, 400, /data must be a string/],
    ['no channel', { name: 'e', data: 'x' }, 400, /channels or channel/],
    ['a bad channel name', { name: 'e', data: 'x', channel: 'bad name' }, 400, /invalid channel name/],
    ['a 201-character event name', { name: 'e'.repeat(201), data: 'x', channel: 'c' }, 400, /limit is 200/],
    ['a malformed socket_id', { name: 'e', data: 'x', channel: 'c', socket_id: 'abc' }, 400, /socket_id/],
    ['data over 10 KB', { name: 'e', data: 'x'.repeat(10_241), channel: 'c' }, 413, /10240/],
  ])('refuses %s', async (_what, body, status, message) => {
    const res = await api(creds(), 'POST', `/apps/${APP.appId}/events`, { body });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(res.text).toMatch(message);
  });

  it('publishes a batch of up to 10, checking all before publishing any', async () => {
    const s = await connect();
    await s.subscribe('batch-a');
    const ok = await api(creds(), 'POST', `/apps/${APP.appId}/batch_events`, {
      body: {
        batch: [
          { channel: 'batch-a', name: 'one', data: '1', info: 'subscription_count' },
          { channel: 'batch-a', name: 'two', data: '2' },
        ],
      },
    });
    expect(ok.json).toEqual({ batch: [{ subscription_count: 1 }, {}] });
    await s.next('two');
    const tooMany = await api(creds(), 'POST', `/apps/${APP.appId}/batch_events`, {
      body: { batch: Array.from({ length: 11 }, () => ({ channel: 'batch-a', name: 'x', data: '' })) },
    });
    expect(tooMany.status).toBe(400);
    const oneBad = await api(creds(), 'POST', `/apps/${APP.appId}/batch_events`, {
      body: {
        batch: [
          { channel: 'batch-a', name: 'never', data: '' },
          { channel: 'batch-a', name: 'x', data: 5 },
        ],
      },
    });
    expect(oneBad.status).toBe(400);
    expect(oneBad.text).toMatch(/^batch\[1\]/);
    expect(await s.collect((f) => f.event === 'never', 100)).toEqual([]);
  });
});

describe('channel queries', () => {
  it('lists occupied channels by prefix; user_count only with presence-', async () => {
    const s = await connect();
    await s.subscribe('list-a');
    await s.subscribe('list-b');
    const all = await api(creds(), 'GET', `/apps/${APP.appId}/channels`, {
      params: { filter_by_prefix: 'list-', info: 'subscription_count' },
    });
    expect(all.json).toEqual({
      channels: { 'list-a': { subscription_count: 1 }, 'list-b': { subscription_count: 1 } },
    });
    const refused = await api(creds(), 'GET', `/apps/${APP.appId}/channels`, {
      params: { info: 'user_count' },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/presence/);
  });

  it('describes one channel and its users', async () => {
    const s = await connect();
    const member = JSON.stringify({ user_id: 'u9' });
    const sig = createHmac('sha256', APP.secret).update(`${s.socketId}:presence-q:${member}`).digest('hex');
    s.send({
      event: 'pusher:subscribe',
      data: { channel: 'presence-q', auth: `${APP.key}:${sig}`, channel_data: member },
    });
    await s.next('pusher_internal:subscription_succeeded');
    const one = await api(creds(), 'GET', `/apps/${APP.appId}/channels/presence-q`, {
      params: { info: 'user_count,subscription_count' },
    });
    expect(one.json).toEqual({ occupied: true, user_count: 1, subscription_count: 1 });
    const users = await api(creds(), 'GET', `/apps/${APP.appId}/channels/presence-q/users`);
    expect(users.json).toEqual({ users: [{ id: 'u9' }] });
    const notPresence = await api(creds(), 'GET', `/apps/${APP.appId}/channels/public-q/users`);
    expect(notPresence.status).toBe(400);
    const empty = await api(creds(), 'GET', `/apps/${APP.appId}/channels/nobody-here`);
    expect(empty.json).toEqual({ occupied: false });
  });

  it("reports a cache channel's cached event", async () => {
    await api(creds(), 'POST', `/apps/${APP.appId}/events`, {
      body: { name: 'e', data: 'kept', channel: 'cache-q' },
    });
    const res = await api(creds(), 'GET', `/apps/${APP.appId}/channels/cache-q`, {
      params: { info: 'cache' },
    });
    expect(res.json.occupied).toBe(false);
    expect(res.json.cache.data).toBe('kept');
    expect(res.json.cache.ttl).toBeGreaterThan(0);
  });
});

describe('authentication and limits', () => {
  const path = `/apps/${APP.appId}/channels`;

  it.each([
    ['a wrong secret', { secret: 'wrong' }, /^Invalid signature: you should have sent HmacSHA256Hex/],
    ['an unknown key', { key: 'other' }, /Unknown auth_key/],
    ['a timestamp 601 s old', { timestamp: Math.floor(Date.now() / 1000) - 601 }, /Timestamp expired/],
    ['a timestamp 660 s ahead', { timestamp: Math.floor(Date.now() / 1000) + 660 }, /Timestamp expired/],
  ])('answers 401 for %s', async (_what, options, message) => {
    const res = await api(creds(), 'GET', path, options);
    expect(res.status).toBe(401);
    expect(res.text).toMatch(message);
    expect(res.text).not.toContain(APP.secret);
  });

  it('refuses subscription_count for an app without subscription counting', async () => {
    const res = await api(creds(LIMITED), 'GET', `/apps/${LIMITED.appId}/channels`, {
      params: { info: 'subscription_count' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/subscription counting/);
  });

  it('answers 401 for a body that does not match body_md5', async () => {
    const res = await api(creds(), 'POST', `/apps/${APP.appId}/events`, {
      body: { name: 'e', data: 'x', channel: 'c' },
      bodyMd5: '0'.repeat(32),
    });
    expect(res.status).toBe(401);
    expect(res.text).toMatch(/body_md5/);
  });

  it('answers 404 for an unknown app and an unknown route', async () => {
    expect((await api(creds(), 'GET', '/apps/999/channels')).status).toBe(404);
    expect((await api(creds(), 'GET', `/apps/${APP.appId}/nothing`)).status).toBe(404);
    expect((await api(creds(), 'DELETE', `/apps/${APP.appId}/channels`)).status).toBe(405);
  });

  it('rate limits per app with 429 and Retry-After', async () => {
    const limited = await startSandbox({
      store: false,
      realtime: { apps: [LIMITED], httpRateLimit: { limit: 2, intervalMs: 5000 } },
    });
    try {
      const c = { url: limited.realtime!.url, ...LIMITED };
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await api(c, 'GET', `/apps/${LIMITED.appId}/channels`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const last = await api(c, 'GET', `/apps/${LIMITED.appId}/channels`);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.realtime!.stats().http.rateLimited).toBe(2);
    } finally {
      await limited.close();
    }
  });

  it('answers an injected fault once', async () => {
    rt.injectFault({ status: 503, path });
    expect((await api(creds(), 'GET', path)).status).toBe(503);
    expect((await api(creds(), 'GET', path)).status).toBe(200);
  });
});

describe('webhooks', () => {
  const verify = (r: Received, secret: string) =>
    createHmac('sha256', secret).update(r.body).digest('hex') === r.headers['x-pusher-signature'];

  it('sends signed, one-event POSTs for occupied, member, client, cache_miss, count and vacated', async () => {
    received.length = 0;
    const a = await connect();
    const b = await connect();
    const member = (s: TestSocket, id: string) => {
      const data = JSON.stringify({ user_id: id });
      const sig = createHmac('sha256', APP.secret)
        .update(`${s.socketId}:presence-hook:${data}`)
        .digest('hex');
      s.send({
        event: 'pusher:subscribe',
        data: { channel: 'presence-hook', auth: `${APP.key}:${sig}`, channel_data: data },
      });
    };
    member(a, 'ha');
    member(b, 'hb');
    await b.next('pusher_internal:subscription_succeeded');
    a.send({ event: 'client-hi', channel: 'presence-hook', data: { x: 1 } });
    await b.next('client-hi');
    a.send({ event: 'pusher:subscribe', data: { channel: 'cache-hook' } });
    await a.next('pusher:cache_miss');
    a.close();
    b.close();
    // member_removed and channel_vacated wait webhooks.leaveDelayMs; idle() sends them once both have left.
    await waitFor(() => rt.channels().every((c) => c.name !== 'presence-hook'));
    await rt.idle();
    const single = received.filter((r) => r.path === '/single');
    for (const r of single) {
      expect(r.json.events).toHaveLength(1);
      expect(r.headers['x-pusher-key']).toBe(APP.key);
      expect(r.headers['content-type']).toBe('application/json');
      expect(verify(r, APP.secret)).toBe(true);
    }
    const names = single
      .map((r) => r.json.events[0]!)
      .filter((e) => e.channel === 'presence-hook')
      .map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'channel_occupied',
        'member_added',
        'client_event',
        'member_removed',
        'channel_vacated',
      ]),
    );
    const clientEvent = single.map((r) => r.json.events[0]!).find((e) => e.name === 'client_event')!;
    expect(clientEvent).toMatchObject({
      channel: 'presence-hook',
      event: 'client-hi',
      data: '{"x":1}',
      user_id: 'ha',
    });
    expect(single.some((r) => r.json.events[0]!.name === 'cache_miss')).toBe(true);
  });

  it('sends subscription_count when the app counts subscriptions', async () => {
    received.length = 0;
    const s = await connect();
    await s.subscribe('counted');
    await expect(s.next('pusher_internal:subscription_count')).resolves.toMatchObject({
      data: { subscription_count: 1 },
    });
    await rt.idle();
    expect(received.some((r) => r.json.events[0]!.name === 'subscription_count')).toBe(true);
  });

  it('batches events for an app that asks, and retries a failing receiver', async () => {
    received.length = 0;
    failFirst.set('/batched', 2);
    const s = await connect(BATCHED.key);
    s.send({ event: 'pusher:subscribe', data: { channel: 'b1' } });
    s.send({ event: 'pusher:subscribe', data: { channel: 'b2' } });
    await s.next((f) => f.channel === 'b2');
    await rt.idle();
    const batched = received.filter((r) => r.path === '/batched');
    expect(batched).toHaveLength(1);
    expect(batched[0]!.json.events.map((e) => e.channel)).toEqual(['b1', 'b2']);
    expect(verify(batched[0]!, BATCHED.secret)).toBe(true);
    expect(rt.stats().webhooks.failedAttempts).toBeGreaterThanOrEqual(2);
  });
});
