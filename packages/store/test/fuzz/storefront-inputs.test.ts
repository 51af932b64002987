import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { withinMs } from '../../../core/test/fuzz/answers.js';
import { StorefrontClient, ValidationError, XError } from '../../src/storefront/index.js';

/**
 * The storefront client's inputs (constructor options, every method's arguments) given anything: a call
 * either is refused with a ValidationError before a byte is sent, or is sent; nothing throws anything but an
 * XError, and nothing hangs. The server answers every request with an empty cart-shaped error so a sent call
 * settles fast.
 */
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"code":"fuzz","message":"refused","data":{"status":400}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const any = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
});
/** Near-misses: the fields each method reads, with values of any kind, so some calls pass and are sent. */
const value = fc.oneof(any, fc.integer(), fc.string({ maxLength: 40 }), fc.constant('ada@example.com'));
const key = fc.oneof(value, fc.stringMatching(/^[0-9a-f]{32}$/));
const record = (shape: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(any, fc.record(shape, { requiredKeys: [] }));
const address = record({ email: value, country: value, city: value });
const shop = () => new StorefrontClient({ url, rateLimit: false, maxRetries: 0, logLevel: 'off' });

type Call = (s: StorefrontClient, a: unknown, b: unknown) => PromiseLike<unknown>;
const calls: Array<[string, Call, fc.Arbitrary<unknown>, fc.Arbitrary<unknown>]> = [
  [
    'products.list',
    (s, a) => s.products.list(a as never),
    record({ per_page: value, page: value, orderby: value, search: value, min_price: value }),
    any,
  ],
  ['products.get', (s, a) => s.products.get(a as never), value, any],
  ['cart.addItem', (s, a) => s.cart.addItem(a as never), record({ id: value, quantity: value }), any],
  ['cart.updateItem', (s, a, b) => s.cart.updateItem(a as never, b as never), key, value],
  ['cart.applyCoupon', (s, a) => s.cart.applyCoupon(a as never), value, any],
  [
    'cart.updateCustomer',
    (s, a) => s.cart.updateCustomer(a as never),
    record({ billing_address: address, shipping_address: address }),
    any,
  ],
  [
    'cart.selectShippingRate',
    (s, a) => s.cart.selectShippingRate(a as never),
    record({ rate_id: value, package_id: value }),
    any,
  ],
  [
    'cart.items.update',
    (s, a, b) => s.cart.items.update(a as never, b as never),
    key,
    record({ quantity: value }),
  ],
  [
    'checkout.place',
    (s, a) => s.checkout.place(a as never),
    record({ billing_address: address, payment_method: value, customer_note: value }),
    any,
  ],
  [
    'checkout.pay',
    (s, a, b) => s.checkout.pay(a as never, b as never),
    value,
    record({ key: value, billing_email: value, billing_address: address, payment_method: value }),
  ],
  [
    'order.get',
    (s, a, b) => s.order.get(a as never, b as never),
    value,
    record({ key: value, billing_email: value }),
  ],
  [
    'batch',
    (s, a) => s.batch(a as never),
    fc.oneof(any, fc.array(record({ method: fc.oneof(value, fc.constant('POST')), path: value, body: any }))),
    any,
  ],
];

describe.each(calls)('storefront %s arguments', (surface, call, argA, argB) => {
  for (const run of fuzzRuns(150)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      let sent = 0;
      const client = shop();
      await fc.assert(
        fc.asyncProperty(argA, argB, async (a, b) => {
          n++;
          const before = requests;
          try {
            await withinMs(Promise.resolve(call(client, a, b)), 10_000);
          } catch (error) {
            if (requests > before) sent++;
            expect(error).toBeInstanceOf(XError);
            if (error instanceof ValidationError) {
              expect(requests).toBe(before);
              expect(error.issues.length).toBeGreaterThan(0);
            }
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(`storefront ${surface} (${sent} sent)`, run, n);
    }, 120_000);
  }
});

describe('storefront constructor options', () => {
  for (const run of fuzzRuns(300)) {
    it(`new StorefrontClient(anything) ${run.label}`, () => {
      let n = 0;
      const options = fc.oneof(
        any,
        fc.record(
          {
            url: fc.oneof(fc.constant(url), any),
            cartTokenStore: any,
            session: any,
            credentials: any,
            apiPrefix: any,
            timeout: any,
            logger: any,
            hooks: any,
            fetch: any,
          },
          { requiredKeys: [] },
        ),
      );
      fc.assert(
        fc.property(options, (value) => {
          n++;
          try {
            new StorefrontClient(value as never);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            expect((error as ValidationError).issues.length).toBeGreaterThan(0);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('storefront constructor options', run, n);
    });
  }
});
