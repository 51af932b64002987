import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  InternalServerError,
  RealtimeServer,
  type RealtimeServerOptions,
} from '../../src/server.js';
import { type FakePusher, startFakePusher } from '../helpers/pusher-api.js';

const app = { appId: '77', key: 'int-key', secret: 'int-secret' };
let api: FakePusher;

function server(options: Partial<RealtimeServerOptions> = {}) {
  return new RealtimeServer({
    ...app,
    host: '127.0.0.1',
    port: api.port,
    useTLS: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

beforeAll(async () => {
  api = await startFakePusher(app);
});
afterAll(() => api.close());

describe('RealtimeServer against an HTTP API on a real socket', () => {
  it('publishes; the server verifies every signature independently', async () => {
    api.requests.length = 0;
    const realtime = server();
    await realtime.trigger(['a', 'b'], 'greet', { hi: 'é' });
    const results = await Promise.all(
      Array.from({ length: 11 }, (_, i) => realtime.trigger(`c${i}`, 'e', i)),
    );
    expect(results).toEqual(Array(11).fill({}));
    expect(api.requests.map((r) => r.path)).toEqual([
      '/apps/77/events',
      '/apps/77/batch_events',
      '/apps/77/events',
    ]);
    expect(api.requests[0]!.json).toEqual({ name: 'greet', data: '{"hi":"é"}', channels: ['a', 'b'] });
    expect(api.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('returns info attributes, channel lists, channel state and presence users', async () => {
    api.channels.set('presence-room', { users: ['u1', 'u2'], subscriptions: 3 });
    api.channels.set('public-a', { users: [], subscriptions: 1 });
    const realtime = server();
    expect(
      await realtime.trigger('presence-room', 'e', 1, { info: ['user_count', 'subscription_count'] }),
    ).toEqual({
      channels: { 'presence-room': { user_count: 2, subscription_count: 3 } },
    });
    expect(await realtime.channels.list({ prefix: 'presence-', info: 'user_count' })).toEqual({
      channels: { 'presence-room': { user_count: 2 } },
    });
    expect(await realtime.channels.get('public-a', { info: 'subscription_count' })).toEqual({
      occupied: true,
      subscription_count: 1,
    });
    expect(await realtime.channels.users('presence-room')).toEqual({ users: [{ id: 'u1' }, { id: 'u2' }] });
    await expect(realtime.channels.users('public-a')).rejects.toThrow(/presence- channel/);
    await expect(realtime.channels.list({ info: 'user_count' })).rejects.toThrow(/presence- prefix/);
    expect(await realtime.users.terminateConnections('u 1')).toEqual({});
    expect(api.requests.at(-1)!.path).toBe('/apps/77/users/u%201/terminate_connections');
    await realtime.users.terminateConnections('ann@example.com/x');
    expect(api.requests.at(-1)!.path).toBe('/apps/77/users/ann@example.com%2Fx/terminate_connections');
    expect(await realtime.channels.get('private-a=b@c,d;e')).toMatchObject({ occupied: false });
    expect(api.requests.at(-1)!.path).toBe('/apps/77/channels/private-a=b@c,d;e');
    const sent = await realtime.triggerBatch(
      Array.from({ length: 11 }, (_, i) => ({
        channel: 'presence-room',
        name: 'e',
        data: i,
        info: 'user_count',
      })),
    );
    expect(sent.batch).toHaveLength(11);
  });

  it('explains a 401 from a wrong secret and a 413', async () => {
    const wrong = server({ secret: 'not-the-secret' });
    const error = await wrong.channels.get('a').catch((e: unknown) => e as APIError);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(/^401 Invalid signature/);
    expect(error.message).toMatch(/600 s/);
    expect(error.message).not.toContain('not-the-secret');
    // The SDK's own check is off here (maxPayloadBytes raised), so the service's 413 comes through.
    const big = await server({ maxPayloadBytes: 50_000 })
      .trigger('a', 'e', 'x'.repeat(20_000))
      .catch((e: unknown) => e as APIError);
    expect(big).toBeInstanceOf(APIError);
    expect(big.status).toBe(413);
    expect(big.code).toBe('payload_too_large');
  });

  it('retries a GET after a 503 but not a POST /events, which may have been published', async () => {
    const realtime = server();
    api.requests.length = 0;
    api.faults.push({ status: 503, body: 'busy' });
    expect(await realtime.channels.get('a')).toMatchObject({ occupied: false });
    expect(api.requests).toHaveLength(2);

    api.requests.length = 0;
    api.faults.push({ status: 500, body: 'Internal error' });
    await expect(realtime.trigger('a', 'e', 1)).rejects.toBeInstanceOf(InternalServerError);
    expect(api.requests).toHaveLength(1);

    // A 429 is a refusal before any work, so even the POST is repeated, after Retry-After.
    api.requests.length = 0;
    api.faults.push({ status: 429, body: 'Too many requests', headers: { 'retry-after': '0' } });
    await expect(realtime.trigger('a', 'e', 1)).resolves.toEqual({});
    expect(api.requests).toHaveLength(2);
    // Each attempt is signed afresh (the server checked both).
    expect(api.requests[1]!.query.auth_signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('retries terminate_connections, which is safe to repeat', async () => {
    const realtime = server();
    api.requests.length = 0;
    api.faults.push({ status: 502, body: 'Bad gateway' });
    await expect(realtime.users.terminateConnections('u1')).resolves.toEqual({});
    expect(api.requests).toHaveLength(2);
  });
});
