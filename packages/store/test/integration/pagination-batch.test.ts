import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
const CATALOG = 1050;
let batchRequests = 0;

beforeAll(async () => {
  box = await sandbox();
});
afterAll(() => box.close());

describe('batch and pagination', () => {
  it('one batch of 1,050 creates is split into 100-item requests, results in order', async () => {
    const store = clientFor(box, {
      hooks: { beforeRequest: (e) => void (e.url.includes('/products/batch') && batchRequests++) },
    });
    const create = Array.from({ length: CATALOG }, (_, i) => ({
      name: `Item ${i}`,
      sku: `SKU-${i}`,
      regular_price: '1.00',
    }));
    const result = await store.products.batch({ create });
    expect(batchRequests).toBe(11);
    expect(result.failures).toEqual([]);
    expect(result.create).toHaveLength(CATALOG);
    expect(result.create.map((product) => (product as { sku: string }).sku)).toEqual(
      create.map((item) => item.sku),
    );
  });

  it('walks the 1,050-product catalog completely: no duplicates, no gaps', async () => {
    const store = clientFor(box);
    const first = await store.products.list({ per_page: 100 });
    expect(first.total).toBe(CATALOG);
    expect(first.totalPages).toBe(11);
    const skus: string[] = [];
    for await (const product of store.products.list({ per_page: 100, orderby: 'id', order: 'asc' }))
      skus.push(product.sku);
    expect(skus).toHaveLength(CATALOG);
    expect(new Set(skus).size).toBe(CATALOG);
    expect(skus).toEqual(Array.from({ length: CATALOG }, (_, i) => `SKU-${i}`));
  });

  it('walks it with concurrent page fetches too, in the same order', async () => {
    const store = clientFor(box);
    const all = await store.products
      .list({ per_page: 100, orderby: 'id', order: 'asc' }, { concurrency: 4 })
      .toArray();
    expect(all.map((p) => p.sku)).toEqual(Array.from({ length: CATALOG }, (_, i) => `SKU-${i}`));
  });

  it('reports per-item failures: BatchError by default, or in the result on request', async () => {
    const store = clientFor(box);
    const [a, b] = (await store.products.list({ per_page: 2, orderby: 'id', order: 'asc' })).data;
    const input = {
      create: [{ name: 'Fresh' }, { name: 'Clash', sku: 'SKU-0' }],
      update: [
        { id: a!.id, name: 'Renamed' },
        { id: 999_999, name: 'Ghost' },
      ],
      delete: [b!.id],
    };
    const error = await store.products.batch(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchError);
    expect((error as BatchError).failures).toHaveLength(2);

    const result = await store.products.batch(
      {
        update: [
          { id: a!.id, name: 'Renamed again' },
          { id: 888_888, name: 'Ghost' },
        ],
        create: [{ name: 'X', sku: 'SKU-2' }],
      },
      { throwOnItemError: false },
    );
    expect(result.failures.map((f) => [f.action, f.index, f.error.code])).toEqual([
      ['create', 0, 'product_invalid_sku'],
      ['update', 1, 'woocommerce_rest_product_invalid_id'],
    ]);
    expect((result.update[0] as { name: string }).name).toBe('Renamed again');
  });
});
