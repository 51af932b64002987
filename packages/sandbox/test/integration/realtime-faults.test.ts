/**
 * The realtime emulator's injectable faults, seen from real `ws` clients: a dropped socket (1006), a silent
 * server (no pongs at either level, no events), refused connections (4100), a restart that forgets presence,
 * and reset (4200).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, TestSocket, waitFor } from '../helpers/realtime.js';

let box: Sandbox<false>;
let rt: NonNullable<Sandbox<false>['realtime']>;
const sockets: TestSocket[] = [];

async function connect(): Promise<TestSocket> {
  const s = await TestSocket.connect(rt.wsUrl, rt.key);
  sockets.push(s);
  return s;
}

const creds = () => ({ url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret });
const trigger = (channel: string, name: string) =>
  api(creds(), 'POST', `/apps/${rt.appId}/events`, { body: { name, channel, data: '{}' } });

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: true });
  rt = box.realtime!;
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await box?.close();
});

describe('faults', () => {
  it('dropConnections destroys every socket: clients see 1006', async () => {
    const a = await connect();
    const b = await connect();
    expect(rt.dropConnections()).toBeGreaterThanOrEqual(2);
    expect((await a.closed).code).toBe(1006);
    expect((await b.closed).code).toBe(1006);
    await waitFor(() => rt.connections() === 0);
  });

  it('goSilent answers no pusher:ping, no protocol ping and delivers no events, then recovers', async () => {
    const s = await connect();
    await s.subscribe('quiet');
    const speak = rt.goSilent();
    s.send({ event: 'pusher:ping', data: {} });
    let pongs = 0;
    s.ws.on('pong', () => pongs++);
    s.ws.ping();
    await trigger('quiet', 'lost');
    expect(await s.collect((f) => f.event === 'pusher:pong' || f.event === 'lost', 300)).toEqual([]);
    expect(pongs).toBe(0);
    speak();
    // What the client sent meanwhile is read once the server speaks again.
    await expect(s.next('pusher:pong')).resolves.toBeTruthy();
    await waitFor(() => pongs === 1);
    await trigger('quiet', 'heard');
    await expect(s.next('heard')).resolves.toBeTruthy();
  });

  it('a socket opened while silent gets connection_established only afterwards', async () => {
    rt.goSilent(300);
    const s = new TestSocket(`${rt.wsUrl}/app/${rt.key}?protocol=7`);
    sockets.push(s);
    await s.opened;
    expect(await s.collect(() => true, 150)).toEqual([]);
    await expect(s.next('pusher:connection_established', 2000)).resolves.toBeTruthy();
  });

  it('refuseConnections closes new sockets with 4100 for a while', async () => {
    rt.refuseConnections(300);
    const refused = new TestSocket(`${rt.wsUrl}/app/${rt.key}?protocol=7`);
    expect((await refused.closed).code).toBe(4100);
    await new Promise((r) => setTimeout(r, 350));
    await expect(connect()).resolves.toBeTruthy();
  });

  it('restart drops sockets, forgets presence, keeps apps and cached events', async () => {
    const s = await connect();
    const { channelAuth } = await import('../helpers/realtime.js');
    const member = JSON.stringify({ user_id: 'r1' });
    s.send({
      event: 'pusher:subscribe',
      data: {
        channel: 'presence-r',
        auth: channelAuth(rt.key, rt.secret, s.socketId, 'presence-r', member),
        channel_data: member,
      },
    });
    await s.next('pusher_internal:subscription_succeeded');
    await trigger('cache-kept', 'last');
    rt.restart({ refuseMs: 200 });
    expect((await s.closed).code).toBe(1006);
    expect(rt.channels()).toEqual([]);
    const early = new TestSocket(`${rt.wsUrl}/app/${rt.key}?protocol=7`);
    expect((await early.closed).code).toBe(4100);
    await new Promise((r) => setTimeout(r, 250));
    const again = await connect();
    await again.subscribe('cache-kept');
    await expect(again.next('last')).resolves.toBeTruthy();
  });

  it('reset closes every connection with 4200 and forgets channels', async () => {
    const s = await connect();
    await s.subscribe('before-reset');
    await rt.reset();
    expect((await s.closed).code).toBe(4200);
    expect(rt.channels()).toEqual([]);
    expect(rt.connections()).toBe(0);
  });
});
