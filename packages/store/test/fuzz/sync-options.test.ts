import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type StoreClient, ValidationError, XError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

/**
 * The input surface of `orders/products/customers.sync()`: its options, a checkpoint passed back (parsed
 * from a file anyone could have edited), and whatever a checkpoint store returns. Each input either throws
 * `ValidationError` before any request reaches the store, or runs to its end against a real store (the
 * sandbox) yielding no id twice (nothing changes meanwhile), or rejects with an `XError`. Never a crash,
 * never a promise left hanging (vitest's timeout would say so).
 */
const resources = ['orders', 'products', 'customers'] as const;
type Resource = (typeof resources)[number];

let box: Sandbox;
let client: StoreClient;
beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box, { maxRetries: 0 });
  await client.orders.batch({ create: Array.from({ length: 9 }, () => ({})) });
  await client.products.batch({
    create: Array.from({ length: 9 }, (_, i) => ({ name: `f${i}`, regular_price: '1.00' })),
  });
  await client.customers.batch({
    create: Array.from({ length: 9 }, (_, i) => ({ email: `fuzz${i}@example.com` })),
  });
});
afterAll(() => box.close());

const validSecond = fc
  .date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19));
const second = fc.oneof(
  validSecond,
  fc.constantFrom(
    '2026-02-30T00:00:00',
    '1969-12-31T23:59:59',
    '9999-12-31T23:59:59',
    '2026-11-27 05:00:00',
    '',
  ),
  fc.string({ maxLength: 24 }),
);
const bad = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  second,
  fc.constantFrom(-1, 0, 1.5, 2 ** 53, Number.NaN, null, [], {}),
);
const smallId = fc.integer({ min: 1, max: 80 });
const valid = (resource: Resource) =>
  resource === 'customers'
    ? fc.record({
        v: fc.constant(1),
        resource: fc.constant(resource),
        modified_after: fc.option(validSecond),
        after_id: fc.nat(80),
        offset: fc.nat(80),
        started: fc.option(validSecond),
        skip: fc.array(fc.tuple(smallId, validSecond), { maxLength: 4 }),
        seen: fc.array(fc.tuple(smallId, validSecond), { maxLength: 4 }),
      })
    : fc.record({
        v: fc.constant(1),
        resource: fc.constant(resource),
        modified_gmt: fc.option(validSecond),
        ids: fc.array(smallId, { maxLength: 12 }),
        ahead: fc.array(fc.tuple(smallId, validSecond), { maxLength: 4 }),
        offset: fc.integer({ min: -172_800, max: 172_800 }),
        lower_from: validSecond,
      });

/** A valid value with one field replaced by something odd, or dropped. */
function mutated(base: fc.Arbitrary<Record<string, unknown>>) {
  return fc.tuple(base, fc.nat(), bad, fc.boolean()).map(([value, pick, replacement, drop]) => {
    const keys = Object.keys(value);
    const key = keys[pick % keys.length]!;
    const copy = { ...value };
    if (drop) delete copy[key];
    else copy[key] = replacement;
    return copy;
  });
}

const checkpoint = (resource: Resource) =>
  fc.oneof(
    { weight: 3, arbitrary: valid(resource) },
    { weight: 3, arbitrary: mutated(valid(resource)) },
    { weight: 1, arbitrary: valid(resource === 'orders' ? 'customers' : 'orders') },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );
const options = (resource: Resource) => {
  const good = fc.record(
    {
      // After 1970-01-01T00:00:00 (the first second is refused: nothing can be modified before it).
      modified_after: fc.oneof(
        validSecond.filter((s) => s > '1970-01-01T00:00:00').map((s) => `${s}Z`),
        fc.date({ min: new Date(1000), max: new Date('2100-01-01'), noInvalidDate: true }),
      ),
      checkpoint: valid(resource),
      per_page: fc.integer({ min: 1, max: 100 }),
      key: fc.string({ minLength: 1, maxLength: 8 }),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 3, arbitrary: good },
    { weight: 3, arbitrary: mutated(good.filter((o) => Object.keys(o).length > 0)) },
    {
      weight: 1,
      arbitrary: fc.record({ checkpoint: checkpoint(resource), per_page: fc.oneof(fc.integer(), bad) }),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );
};

function expectUnique(ids: number[]) {
  expect(new Set(ids).size).toBe(ids.length);
}

async function drain(run: AsyncIterable<{ id: number }>): Promise<void> {
  const ids: number[] = [];
  try {
    for await (const record of run) ids.push(record.id);
  } catch (error) {
    expect(error).toBeInstanceOf(XError);
    return;
  }
  expectUnique(ids);
}

describe.each(resources)('%s.sync', (resource: Resource) => {
  for (const run of fuzzRuns(40)) {
    it(`options and checkpoints ${run.label}`, async () => {
      let n = 0;
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(options(resource), async (input) => {
          n++;
          box.store.resetStats();
          let started: AsyncIterable<{ id: number }>;
          try {
            started = client[resource].sync(input as never);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            expect(box.store.stats().requests).toBe(0);
            return;
          }
          accepted++;
          await drain(started);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(`store ${resource}.sync options`, run, n);
      // The generators are biased towards valid options, so the runs are exercised too, not only the refusals.
      expect(accepted).toBeGreaterThan(0);
    }, 120_000);

    it(`whatever a checkpoint store returns ${run.label}`, async () => {
      let n = 0;
      let ran = 0;
      await fc.assert(
        fc.asyncProperty(checkpoint(resource), async (stored) => {
          n++;
          box.store.resetStats();
          const checkpointStore = { get: () => structuredClone(stored) as never, set: () => {} };
          const ids: number[] = [];
          try {
            for await (const record of client[resource].sync({ checkpointStore })) ids.push(record.id);
          } catch (error) {
            expect(error).toBeInstanceOf(XError);
            if (error instanceof ValidationError) expect(box.store.stats().requests).toBe(0);
            return;
          }
          ran++;
          expectUnique(ids);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(`store ${resource}.sync checkpointStore`, run, n);
      expect(ran).toBeGreaterThan(0);
    }, 120_000);
  }
});
