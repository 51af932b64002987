import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealtimeServer, ValidationError } from '../../src/server.js';
import { type FakePusher, startFakePusher } from '../helpers/pusher-api.js';

/**
 * Data that `JSON.stringify` cannot encode (nested thousands deep, circular, BigInt) is refused with a
 * `ValidationError` naming the field, before anything goes on the wire: the fake HTTP API on a real socket
 * counts every request it gets.
 */
const app = { appId: '78', key: 'depth-key', secret: 'depth-secret' };
let api: FakePusher;

beforeAll(async () => {
  api = await startFakePusher(app);
});
afterAll(() => api.close());

const server = (options: { coalesce?: boolean } = {}) =>
  new RealtimeServer({ ...app, host: '127.0.0.1', port: api.port, useTLS: false, ...options });

/** `{ a: { a: … } }`, built in a loop. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('data JSON cannot encode is refused before sending', () => {
  const deep = nested(6_000);

  it('trigger (coalesced and not), sendToUser and triggerBatch name the field', async () => {
    api.requests.length = 0;
    const coalescing = server();
    const direct = server({ coalesce: false });
    for (const [promise, path] of [
      [coalescing.trigger('orders', 'e', deep), 'data'],
      [direct.trigger('orders', 'e', deep), 'data'],
      [coalescing.trigger(['a', 'b'], 'e', deep), 'data'],
      [coalescing.trigger('orders', 'e', { list: [deep] }, { info: 'subscription_count' }), 'data'],
      [coalescing.sendToUser('u1', 'e', deep), 'data'],
      [
        coalescing.triggerBatch([
          { channel: 'a', name: 'e', data: 1 },
          { channel: 'b', name: 'e', data: deep },
        ]),
        '1.data',
      ],
    ] as const) {
      const error = await refusal(promise);
      expect(error.issues).toEqual([
        { path, message: expect.stringMatching(/^nests deeper than 100 levels/) },
      ]);
    }
    // 100 levels is allowed, and sent.
    await expect(direct.trigger('orders', 'e', nested(99))).resolves.toEqual({});
    expect(api.requests).toHaveLength(1);
  });

  it('a circular value or a BigInt says so, instead of a TypeError', async () => {
    api.requests.length = 0;
    const circular: Record<string, unknown> = { a: [1] };
    (circular.a as unknown[]).push(circular);
    const shared = { x: 1 };
    const realtime = server();
    expect((await refusal(realtime.trigger('orders', 'e', circular))).issues[0]?.message).toMatch(
      /contains itself/,
    );
    expect((await refusal(realtime.trigger('orders', 'e', { n: 1n }))).issues[0]?.message).toMatch(/BigInt/);
    // The same object twice is not a cycle.
    await expect(realtime.trigger('orders', 'e', { one: shared, two: shared })).resolves.toEqual({});
    expect(api.requests).toHaveLength(1);
  });

  it('authorizeChannel and authenticateUser name presenceData and user', async () => {
    const realtime = server();
    const presence = await refusal(
      realtime.authorizeChannel('1.2', 'presence-room', { user_id: 'u1', user_info: { deep } }),
    );
    expect(presence.issues.map((i) => i.path)).toEqual(['presenceData']);
    expect(presence.message).toMatch(/nests deeper than 100 levels/);
    const user = await refusal(realtime.authenticateUser('1.2', { id: 'u1', user_info: { deep } }));
    expect(user.issues.map((i) => i.path)).toEqual(['user']);
    await expect(
      realtime.authenticateUser('1.2', { id: 'u1', user_info: nested(90) as Record<string, unknown> }),
    ).resolves.toMatchObject({ auth: expect.stringMatching(/^depth-key:/) });
  });
});
