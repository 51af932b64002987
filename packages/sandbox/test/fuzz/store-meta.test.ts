/**
 * `meta_data` writes: the indexed applyMeta() against the plain scans it replaced (the reference model here),
 * on random existing rows and random writes (ids that exist or not, repeated and renamed keys, null and
 * missing values, entries that are not objects), and a write of 260,000 entries answered over a real socket.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { applyMeta } from '../../src/store/data/meta.js';
import type { Meta } from '../../src/store/data/rows.js';
import { Store } from '../../src/store/data/store.js';
import { nextId } from '../../src/store/data/tables.js';
import { storeApi } from '../helpers/http.js';

/** The semantics as first written: find by id, else the first row with the key; null deletes; else append. */
function reference(store: Store, existing: Meta[], incoming: unknown): Meta[] {
  if (!Array.isArray(incoming)) return existing;
  const out = [...existing];
  for (const m of incoming) {
    if (typeof m !== 'object' || m === null || Array.isArray(m) || typeof m.key !== 'string') continue;
    const byId = typeof m.id === 'number' ? out.findIndex((x) => x.id === m.id) : -1;
    const idx = byId >= 0 ? byId : out.findIndex((x) => x.key === m.key);
    if (m.value === null || m.value === undefined) {
      if (idx >= 0 && m.value === null) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = { ...out[idx]!, key: m.key, value: m.value };
    else out.push({ id: nextId(store.state, 'meta'), key: m.key, value: m.value });
  }
  return out;
}

const key = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', '');
const id = fc.integer({ min: 0, max: 12 });
const existingRows = fc
  .array(fc.record({ key, value: fc.nat(9) }), { maxLength: 8 })
  .map((rows) => rows.map((r, i): Meta => ({ id: i + 1, ...r })));
const write = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        id: fc.oneof(id, fc.constant('3')),
        key: fc.oneof(key, fc.nat(3)),
        value: fc.oneof(fc.nat(9), fc.constant(null)),
      },
      { requiredKeys: ['key'] },
    ),
  },
  fc.constantFrom(null, 7, 'x', [], [{ key: 'a', value: 1 }]),
);

const storeAt = (seq: number) => {
  const store = new Store({} as never, []);
  store.state.seq.meta = seq;
  return store;
};

describe('applyMeta against its reference model', () => {
  for (const run of fuzzRuns(1_000)) {
    it(`store meta_data writes ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(existingRows, fc.array(write, { maxLength: 12 }), async (rows, incoming) => {
          n++;
          const a = storeAt(rows.length);
          const b = storeAt(rows.length);
          expect(applyMeta(a, rows, incoming)).toEqual(reference(b, rows, incoming));
          expect(a.state.seq.meta).toBe(b.state.seq.meta);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('store meta_data writes', run, n);
    });
  }
});

describe('a large meta_data write', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
  });
  afterAll(() => sandbox.close());

  // The scans took over a minute for this one request (past the test's timeout), and the event loop, so every
  // other client of the sandbox, waited for them.
  it('of 260,000 entries (6 MB) is answered', async () => {
    const meta_data = Array.from({ length: 260_000 }, (_, i) => ({
      key: (i % 250_000).toString(36),
      value: i % 9,
    }));
    const created = await storeApi(sandbox, 'POST', '/products', { name: 'Many', meta_data });
    expect(created.status).toBe(201);
    expect(created.json.meta_data).toHaveLength(250_000);
    expect(created.json.meta_data[0]).toMatchObject({ key: '0', value: 250_000 % 9 });
  });
});
