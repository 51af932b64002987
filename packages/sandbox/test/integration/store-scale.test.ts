import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { hostEmulators } from '../../src/server/host.js';
import { WriteJournal } from '../../src/store/data/journal.js';
import { nextId } from '../../src/store/data/tables.js';
import { createStoreEmulator, type StoreEmulator } from '../../src/store/emulator.js';
import { blankOrder, writeOrder } from '../../src/store/orders/orders.js';
import { storeApi } from '../helpers/http.js';

let sb: Sandbox;

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  storeApi(sb, method, path, body, headers);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
});
afterAll(async () => {
  await sb.close();
});

describe('failed order writes roll back', () => {
  it('a failing create or update leaves stock, id sequences and the order unchanged', async () => {
    const product = (
      await api('POST', '/products', {
        name: 'Stocked',
        regular_price: '4',
        manage_stock: true,
        stock_quantity: 50,
      })
    ).json;
    const other = (
      await api('POST', '/products', {
        name: 'Other',
        regular_price: '6',
        manage_stock: true,
        stock_quantity: 9,
      })
    ).json;
    const customer = (await api('POST', '/customers', { email: 'rollback@example.com', first_name: 'R' }))
      .json;
    const first = await api('POST', '/orders', {
      status: 'processing',
      customer_id: customer.id,
      meta_data: [{ key: 'k', value: 'v' }],
      line_items: [{ product_id: product.id, quantity: 2 }],
      shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
    });
    expect(first.status).toBe(201);
    const order = first.json;
    const snapshot = async () => ({
      product: (await api('GET', `/products/${product.id}`)).json,
      other: (await api('GET', `/products/${other.id}`)).json,
      customer: (await api('GET', `/customers/${customer.id}`)).json,
      order: (await api('GET', `/orders/${order.id}`)).json,
      count: (await api('GET', '/orders?per_page=100')).json.length,
    });
    const before = await snapshot();
    expect(before.product.stock_quantity).toBe(48);

    const lineId = order.line_items[0].id;
    const failures: [string, string, Record<string, unknown>, string][] = [
      [
        'POST',
        '/orders',
        {
          status: 'completed',
          set_paid: true,
          meta_data: [{ key: 'm', value: 1 }],
          line_items: [{ product_id: other.id, quantity: 3 }, { quantity: 2 }],
        },
        'woocommerce_rest_required_product_reference',
      ],
      [
        'POST',
        '/orders',
        { customer_id: 987_654, line_items: [{ product_id: product.id }] },
        'woocommerce_rest_invalid_customer_id',
      ],
      [
        'POST',
        '/orders',
        { status: 'bogus', line_items: [{ product_id: product.id }] },
        'rest_invalid_param',
      ],
      [
        'PUT',
        `/orders/${order.id}`,
        {
          status: 'completed',
          customer_note: 'changed',
          billing: { first_name: 'Changed' },
          meta_data: [{ key: 'new', value: 'x' }],
          line_items: [{ id: lineId, quantity: 7 }, { product_id: other.id, quantity: 1 }, { quantity: 1 }],
        },
        'woocommerce_rest_required_product_reference',
      ],
      [
        'PUT',
        `/orders/${order.id}`,
        { status: 'cancelled', customer_id: 987_654, line_items: [{ id: lineId, quantity: 1 }] },
        'woocommerce_rest_invalid_customer_id',
      ],
      ['PUT', `/orders/${order.id}`, { status: 'bogus', customer_note: 'x' }, 'rest_invalid_param'],
      [
        'PUT',
        `/orders/${order.id}`,
        { status: 'cancelled', fee_lines: [{ name: 'Fee', total: '1' }, { total: '2' }] },
        'woocommerce_rest_invalid_fee_item',
      ],
    ];
    for (const [method, path, body, code] of failures) {
      const r = await api(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json.code).toBe(code);
      expect(await snapshot()).toEqual(before);
    }

    // The sequences did not move: the next order, line item and meta ids follow the first order's.
    const next = await api('POST', '/orders', {
      meta_data: [{ key: 'k2', value: 'v2' }],
      line_items: [{ product_id: product.id, quantity: 1 }],
    });
    expect(next.status).toBe(201);
    expect(next.json.id).toBe(order.id + 1);
    expect(next.json.line_items[0].id).toBe(order.shipping_lines[0].id + 1);
    expect(next.json.meta_data[0].id).toBe(order.meta_data[0].id + 1);
  });

  it('the journal undoes every change a successful writeOrder makes (stock, sales, customers, seq, order)', async () => {
    const em = await createStoreEmulator({ seed: 'demo', rateLimit: false });
    try {
      const store = em.store;
      const products = [...store.state.products.values()];
      const stocked = products.find((p) => p.manage_stock && p.type === 'simple')!;
      const variation = [...store.state.variations.values()].find((v) => v.manage_stock === true)!;
      expect(stocked).toBeDefined();
      expect(variation).toBeDefined();
      const bodies = (o: {
        line_items: { id: number }[];
        customer_id: number;
      }): Record<string, unknown>[] => [
        { status: 'completed' },
        { status: 'cancelled' },
        { status: 'pending' },
        { status: 'on-hold', set_paid: true },
        { status: 'pending', set_paid: true },
        {
          status: 'processing',
          meta_data: [{ key: 'k', value: 'v' }],
          line_items: [
            { product_id: stocked.id, quantity: 3 },
            { variation_id: variation.id, quantity: 2 },
            { sku: variation.sku, quantity: 1 },
          ],
          shipping_lines: [{ method_id: 'flat_rate', total: '1.00' }],
          fee_lines: [{ name: 'Fee', total: '2.00' }],
        },
        { status: 'completed', line_items: o.line_items.map((li) => ({ id: li.id, quantity: 9 })) },
        { status: 'completed', customer_id: [...store.state.customers.keys()][0] },
      ];
      let touchedOthers = 0;
      for (const o of [...store.state.orders.values()]) {
        for (const body of bodies(o)) {
          const before = store.snapshot();
          const journal = new WriteJournal(store.state);
          journal.touch(o);
          writeOrder(store, o, body, false, journal);
          const written = JSON.parse(store.snapshot());
          const old = JSON.parse(before);
          if (
            JSON.stringify([written.products, written.variations, written.customers]) !==
            JSON.stringify([old.products, old.variations, old.customers])
          )
            touchedOthers++;
          journal.rollback();
          expect(store.snapshot(), `order ${o.id} ${JSON.stringify(body)}`).toBe(before);
        }
        const before = store.snapshot();
        const journal = new WriteJournal(store.state);
        const created = blankOrder(store, store.state.seq.post + 1, store.now());
        nextId(store.state, 'post');
        writeOrder(
          store,
          created,
          { ...bodies(o)[5], set_paid: true, customer_id: o.customer_id },
          true,
          journal,
        );
        journal.rollback();
        expect(store.snapshot()).toBe(before);
      }
      expect(touchedOthers).toBeGreaterThan(10);
    } finally {
      await em.close();
    }
  });
});

describe('order writes at scale', () => {
  // A write that copied or scanned the whole store (as structuredClone(store.state) per write once did)
  // reads every order; one that works per item reads only the orders it writes. So instead of timing
  // batches (`bench/store-scale.bench.ts` does), this counts reads of the orders created early on, which
  // no later batch writes: a copy, a JSON round-trip or a scan of the orders all read their `status`.
  it('an order write reads no order it does not write, at 500 orders as at 5,000', async () => {
    const hosted = await hostEmulators([() => createStoreEmulator({ rateLimit: false })], {
      port: 0,
      host: '127.0.0.1',
      https: false,
    });
    try {
      const em = hosted.emulators[0] as StoreEmulator;
      const site = { url: hosted.url, store: em.handle } as unknown as Sandbox;
      const call = (method: string, path: string, body?: unknown) => storeApi(site, method, path, body);
      let reads = 0;
      const watch = (order: { status: string }) => {
        let value = order.status;
        Object.defineProperty(order, 'status', {
          configurable: true,
          enumerable: true,
          get: () => {
            reads++;
            return value;
          },
          set: (next: string) => {
            value = next;
          },
        });
      };
      /** Reads of the watched orders while `write` runs. */
      const readsDuring = async (write: () => Promise<void>) => {
        const before = reads;
        await write();
        return reads - before;
      };

      const product = (
        await call('POST', '/products', {
          name: 'Bulk',
          regular_price: '5',
          manage_stock: true,
          stock_quantity: 1e9,
        })
      ).json;
      const orderInput = (i: number) => ({
        status: 'processing',
        billing: { first_name: `Buyer ${i}`, email: `buyer${i}@example.com` },
        line_items: [{ product_id: product.id, quantity: 1 }],
        shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
      });
      const createBatch = async (): Promise<number[]> => {
        const r = await call('POST', '/orders/batch', {
          create: Array.from({ length: 100 }, (_, i) => orderInput(i)),
        });
        expect(r.status).toBe(200);
        const created = r.json.create.map((o: { id?: number; error?: unknown }) => (o.error ? 0 : o.id));
        expect(created.every((id: number) => id > 0)).toBe(true);
        return created;
      };
      const updateBatch = async (ids: number[]) => {
        const r = await call('POST', '/orders/batch', {
          update: ids.map((id, i) => ({ id, customer_note: `n${reads}-${i}` })),
        });
        expect(r.status).toBe(200);
        expect(r.json.update.every((o: { error?: unknown }) => !o.error)).toBe(true);
      };

      const early: number[] = [];
      for (let b = 0; b < 4; b++) early.push(...(await createBatch()));
      for (const id of early) watch(em.store.state.orders.get(id)!);
      const ids = await createBatch(); // the orders the update batches write
      const readsEarly = [
        await readsDuring(async () => void (await createBatch())),
        await readsDuring(() => updateBatch(ids)),
      ];
      const readsLate: number[] = [];
      for (let b = 6; b < 50; b++) readsLate.push(await readsDuring(async () => void (await createBatch())));
      expect(
        Number((await call('GET', '/orders?per_page=1')).headers.get('x-wp-total')),
      ).toBeGreaterThanOrEqual(5000);
      readsLate.push(await readsDuring(() => updateBatch(ids)));
      // The watched orders were there all along: a batch that copied or scanned the orders read them
      // (400 per write); the early figures show the probe sees nothing without such a write.
      expect(readsEarly).toEqual([0, 0]);
      expect(readsLate).toEqual(Array(readsLate.length).fill(0));
      // The probe sees what the old rollback did: a copy of the state reads every watched order.
      expect(await readsDuring(async () => void structuredClone(em.store.state))).toBeGreaterThanOrEqual(
        early.length,
      );
    } finally {
      await hosted.close();
    }
  }, 180_000);
});
