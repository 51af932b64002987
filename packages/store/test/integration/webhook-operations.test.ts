import { createRequire } from 'node:module';
import { RedisIdempotencyStore } from '@x/core/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../core/test/helpers/redis-server.js';
import { type ReceiveResult, ValidationError, WebhookReceiver } from '../../src/index.js';
import { type Arrival, DeliveryServer, until } from '../helpers/delivery-server.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

/**
 * The webhook loop of issue 23 against the store emulator over real sockets: a receiver that fails until the
 * store disables the webhook (WooCommerce's rule: a failure when more than 5 are counted disables, so the 7th
 * in a row), health() finds it, reenable() resumes deliveries, catchUp() lists what changed meanwhile, and a
 * delivery sent twice is handled once: by one receiver, and by two receivers sharing one real redis-server.
 */
const box = sandboxForFile();
const secret = 'whsec-ops-0123456789';
const ids = (records: { id: number }[]) => records.map((r) => r.id).sort((a, b) => a - b);

describe('webhook operations', () => {
  const endpoint = new DeliveryServer();
  let url: string;
  beforeAll(async () => {
    url = await endpoint.listen();
  });
  afterAll(() => endpoint.close());

  it('fails until disabled, is detected, re-enabled, caught up; a replayed delivery is dropped', async () => {
    const store = clientFor(box);
    endpoint.receiver = new WebhookReceiver({ secret });
    endpoint.mode = 'receive';
    const hook = await store.webhooks.create({
      name: 'ops',
      topic: 'order.created',
      delivery_url: url,
      secret,
    });
    await endpoint.answered(1);
    expect(endpoint.arrivals[0]!.result).toEqual({ status: 'ping', httpStatus: 200, webhookId: hook.id });

    const before = await store.orders.create({});
    await endpoint.answered(2);
    expect(endpoint.arrivals[1]!.result).toMatchObject({
      status: 'processed',
      event: { payload: { id: before.id } },
    });
    expect(await store.webhooks.health()).toMatchObject({ ok: true, checked: 1, disabled: [], paused: [] });

    endpoint.mode = 'fail';
    const failed = [];
    for (let i = 1; i <= 7; i++) {
      failed.push(await store.orders.create({}));
      await endpoint.answered(2 + i);
    }
    // The 7th arrival itself shows the webhook was still active after 6 failures: only active ones deliver.
    await until(async () => (await store.webhooks.get(hook.id)).status === 'disabled');

    const health = await store.webhooks.health();
    expect(health).toMatchObject({
      ok: false,
      checked: 1,
      paused: [],
      failing: [],
      failure_count_exposed: false,
    });
    expect(health.disabled).toEqual([
      {
        id: hook.id,
        name: 'ops',
        topic: 'order.created',
        delivery_url: url,
        status: 'disabled',
        reason: 'disabled',
        failure_count: undefined,
        date_modified_gmt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      },
    ]);

    const whileDown = [await store.orders.create({}), await store.orders.create({})];
    endpoint.mode = 'receive';
    expect(await store.webhooks.reenable(hook.id)).toMatchObject({ id: hook.id, status: 'active' });
    expect((await store.webhooks.health()).ok).toBe(true);

    // From the second of the last order handled, inclusive (modified_after is strict): at least once.
    const since = new Date(Date.parse(`${before.date_modified_gmt}Z`) - 1000);
    const caughtUp = [];
    for await (const order of store.webhooks.catchUp(health.disabled[0]!, { modified_after: since })) {
      caughtUp.push(order);
    }
    expect(ids(caughtUp)).toEqual(ids([before, ...failed, ...whileDown]));

    const after = await store.orders.create({});
    await endpoint.answered(10);
    // The next delivery is this order's: nothing was queued for the orders made while it was disabled.
    const fresh = endpoint.arrivals[9]!;
    expect(fresh.result).toMatchObject({ status: 'processed', event: { payload: { id: after.id } } });
    expect(endpoint.handled.map((e) => (e as { payload: { id: number } }).payload.id)).toEqual([
      before.id,
      after.id,
    ]);

    const again = await endpoint.replay(fresh, url);
    expect(again.result).toEqual({
      status: 'duplicate',
      httpStatus: 200,
      deliveryId: fresh.headers['x-wc-webhook-delivery-id'],
      state: 'done',
    });
    expect(endpoint.handled).toHaveLength(2);
    // A delivery the broken receiver answered 500 never reached the handler, so it is not a duplicate.
    expect((await endpoint.replay(endpoint.arrivals[2]!, url)).result).toMatchObject({ status: 'processed' });
    await store.webhooks.delete(hook.id);
  });

  it('checks its inputs before any request', async () => {
    const store = clientFor(box);
    const sent = box.store.stats().requests;
    expect(sent).toBeGreaterThan(0);
    for (const bad of [0, -1, 1.5, '3' as unknown as number]) {
      const error = await rejection(Promise.resolve().then(() => store.webhooks.reenable(bad)));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toMatch(/\bid\b/);
    }
    for (const topic of ['coupon.created', 'order.deleted', 'action.woocommerce_add_to_cart', 'order']) {
      const error = await rejection(
        Promise.resolve().then(() => store.webhooks.catchUp(topic, { modified_after: new Date() })),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.message).toMatch(/topic/);
    }
    const noSince = await rejection(
      Promise.resolve().then(() => store.webhooks.catchUp('order.updated', {})),
    );
    expect(noSince).toBeInstanceOf(ValidationError);
    expect(noSince.message).toMatch(/modified_after/);
    expect(() => new WebhookReceiver({ secret: '' })).toThrow(/secret/);
    expect(() => new WebhookReceiver({ secret, ttlMs: 0 })).toThrow(/ttlMs/);
    expect(box.store.stats().requests).toBe(sent);
  });
});

describe('two receivers sharing one redis-server', () => {
  const endpoint = new DeliveryServer();
  let redisServer: RedisServer;
  const clients: { disconnect(): void }[] = [];
  let url: string;
  beforeAll(async () => {
    url = await endpoint.listen();
    redisServer = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await endpoint.close();
    await redisServer?.close();
  });

  function receiverOnRedis(): WebhookReceiver {
    // ioredis is @x/core's dependency (an optional peer), not this package's.
    const { Redis } = createRequire(new URL('../../../core/package.json', import.meta.url))('ioredis');
    const redis = new Redis(redisServer.url);
    clients.push(redis);
    return new WebhookReceiver({
      secret,
      store: new RedisIdempotencyStore({ redis, prefix: 'test:wc-delivery:' }),
    });
  }

  it('handles each delivery once across both, gives a failed claim back, keeps same-id deliveries apart', async () => {
    const store = clientFor(box);
    endpoint.mode = 'capture';
    const hook = await store.webhooks.create({
      name: 'two',
      topic: 'order.created',
      delivery_url: url,
      secret,
    });
    for (let i = 0; i < 3; i++) await store.orders.create({});
    await endpoint.answered(4);
    const [d1, d2, d3] = endpoint.arrivals.slice(1) as [Arrival, Arrival, Arrival];
    const a = receiverOnRedis();
    const b = receiverOnRedis();
    const handled: number[] = [];
    const handler = (event: { payload: { id: number } }) => {
      handled.push(event.payload.id);
    };
    const receive = (r: WebhookReceiver, d: Arrival, h: typeof handler = handler) =>
      r.receive(d.body, d.headers, h as never);

    const both = await Promise.all([receive(a, d1), receive(b, d1)]);
    expect(both.map((r) => r.status).sort()).toEqual(['duplicate', 'processed']);
    expect(handled).toHaveLength(1);
    const later: ReceiveResult[] = [await receive(a, d1), await receive(b, d1)];
    expect(later.map((r) => r.status === 'duplicate' && r.state)).toEqual(['done', 'done']);

    const boom = new Error('handler failed');
    await expect(
      receive(a, d2, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await receive(b, d2)).toMatchObject({ status: 'processed' });
    expect(await receive(a, d2)).toMatchObject({ status: 'duplicate', state: 'done' });

    // WooCommerce's delivery id is wp_hash(webhook id . second): another delivery may carry it.
    const sameId = {
      ...d3,
      headers: { ...d3.headers, 'x-wc-webhook-delivery-id': d1.headers['x-wc-webhook-delivery-id'] },
    };
    expect(await receive(b, sameId)).toMatchObject({ status: 'processed' });
    expect(handled).toHaveLength(3);
    expect(new Set(handled).size).toBe(3);
    await store.webhooks.delete(hook.id);
  });
});
