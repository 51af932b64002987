import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { MemoryDeliveryStore, ValidationError, WebhookReceiver } from '../../src/index.js';

/**
 * The input surface of `WebhookReceiver.receive()`: any body (bytes or text) under any headers, signed with
 * the secret or not. Each input resolves to one of the typed results (a rejection carries a ValidationError
 * naming a field), never throws, and the handler runs at most once per delivery: the same input sent again
 * is never processed twice.
 */
const secret = 'whsec-fuzz';
const sign = (body: Uint8Array | string) => createHmac('sha256', secret).update(body).digest('base64');

const topics = fc.constantFrom(
  'order.created',
  'product.updated',
  'customer.deleted',
  'coupon.updated',
  'action.woocommerce_add_to_cart',
  'order',
  '.',
  '',
);
const jsonBodies = fc.oneof(
  fc.json(),
  fc.record({ id: fc.oneof(fc.integer(), fc.string()), status: fc.string() }).map((o) => JSON.stringify(o)),
  fc.constantFrom('webhook_id=7', 'webhook_id=', '{"id":1}', '{"action":"a","arg":null}'),
);
const body = fc.oneof(jsonBodies, fc.string(), fc.uint8Array({ maxLength: 256 }));
const headerValue = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
);
const input = fc.record({
  body,
  signed: fc.boolean(),
  topic: fc.option(topics, { nil: undefined }),
  deliveryId: fc.option(fc.oneof(headerValue, fc.constant('')), { nil: undefined }),
  webhookId: fc.option(fc.oneof(fc.nat().map(String), fc.string()), { nil: undefined }),
  extra: fc.dictionary(
    fc.constantFrom('x-wc-webhook-signature', 'X-WC-Webhook-Topic', 'content-type'),
    headerValue,
  ),
  asHeaders: fc.boolean(),
});
// The creation ping: unsigned, no X-WC-Webhook-* headers.
const ping = fc.nat().map((id) => ({
  body: `webhook_id=${id}`,
  signed: false,
  topic: undefined,
  deliveryId: undefined,
  webhookId: undefined,
  extra: {},
  asHeaders: false,
}));
// Well-formed deliveries (signed, a topic whose payload is {id}, a hex delivery id), a few ids repeating.
const delivery = fc
  .record({ id: fc.nat({ max: 20 }), delivery: fc.nat({ max: 5 }), asHeaders: fc.boolean() })
  .map(({ id, delivery, asHeaders }) => ({
    body: JSON.stringify({ id }),
    signed: true,
    topic: 'customer.deleted',
    deliveryId: `${delivery}`.padStart(32, 'a'),
    webhookId: '1',
    extra: {},
    asHeaders,
  }));

describe('fuzz: WebhookReceiver.receive', () => {
  for (const run of fuzzRuns(300)) {
    it(`any body and headers give a typed result, each delivery handled at most once (${run.label})`, async () => {
      let inputs = 0;
      const seen = new Set<string>();
      const receiver = new WebhookReceiver({ secret, store: new MemoryDeliveryStore({ maxEntries: 1000 }) });
      await fc.assert(
        fc.asyncProperty(fc.oneof(input, delivery, ping), async (i) => {
          inputs++;
          const headers: Record<string, string> = { ...i.extra };
          if (i.topic !== undefined) headers['x-wc-webhook-topic'] = i.topic;
          if (i.deliveryId !== undefined) headers['x-wc-webhook-delivery-id'] = i.deliveryId;
          if (i.webhookId !== undefined) headers['x-wc-webhook-id'] = i.webhookId;
          if (i.signed) headers['x-wc-webhook-signature'] = sign(i.body);
          let runs = 0;
          const handler = () => {
            runs++;
          };
          const send = () => {
            let source: Headers | Record<string, string> = headers;
            if (i.asHeaders) {
              try {
                source = new Headers(headers);
              } catch {
                // A value Headers refuses (control characters) is sent as a plain record instead.
              }
            }
            return receiver.receive(i.body, source, handler);
          };
          const first = await send();
          const second = await send();
          for (const result of [first, second]) {
            expect(['processed', 'duplicate', 'ping', 'rejected']).toContain(result.status);
            if (result.status === 'rejected') {
              expect(result.error).toBeInstanceOf(ValidationError);
              expect(result.error.issues.length).toBeGreaterThan(0);
              expect([400, 401]).toContain(result.httpStatus);
            } else expect(result.httpStatus).toBe(200);
          }
          expect(second.status === 'processed').toBe(false);
          seen.add(first.status);
          expect(runs).toBe(first.status === 'processed' ? 1 : 0);
          if (first.status === 'processed')
            expect(second).toMatchObject({ status: 'duplicate', state: 'done' });
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      // The inputs reach every branch: handled, dropped as seen, the ping, refused.
      expect([...seen].sort()).toEqual(['duplicate', 'ping', 'processed', 'rejected']);
      reportFuzz('WebhookReceiver.receive', run, inputs);
    });
  }
});

it('refuses what is not a body or headers with a typed result, as a caller without types might pass', async () => {
  const receiver = new WebhookReceiver({ secret });
  for (const [body, headers, field] of [
    ['{}', null, 'headers'],
    ['{}', 'x-wc-webhook-topic: order.created', 'headers'],
    [42, {}, 'body'],
    [undefined, new Headers(), 'body'],
  ] as const) {
    const result = await receiver.receive(body as never, headers as never, () => {});
    expect(result).toMatchObject({ status: 'rejected', httpStatus: 400 });
    if (result.status === 'rejected') expect(result.error.issues[0]?.path).toBe(field);
  }
});

describe('MemoryDeliveryStore', () => {
  const request = (owner: string) => ({ owner, fingerprint: 'f', sent: 's', leaseMs: 1000, ttlMs: 5000 });

  it('keeps at most maxEntries, dropping the oldest, and forgets a record ttlMs after its last change', async () => {
    let now = 0;
    const store = new MemoryDeliveryStore({ maxEntries: 2, now: () => now });
    for (const key of ['a', 'b', 'c'])
      expect((await store.reserve(key, request(key))).outcome).toBe('reserved');
    expect(store.size).toBe(2);
    expect(await store.get('a')).toBeUndefined();
    expect((await store.reserve('b', request('x'))).outcome).toBe('pending');
    expect(await store.complete('c', 'c', '1', 5000)).toBe(true);
    expect((await store.reserve('c', request('y'))).outcome).toBe('done');
    now = 5000;
    expect((await store.reserve('c', request('z'))).outcome).toBe('reserved');
    expect(() => new MemoryDeliveryStore({ maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
