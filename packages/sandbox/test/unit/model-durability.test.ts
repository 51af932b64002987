/**
 * The store's journal entries are complete: after every kind of write (and the side effects they cause: stock,
 * sales, paying customers, notes, reassigned orders, reparented terms), a store rebuilt from the data file and
 * its journal alone, as after kill -9, equals the live one. A write that forgot to mark a record fails here.
 * Requests go through the emulator's fetch handler (no sockets).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_DEV_KEYS } from '../../src/index.js';
import { createStoreEmulator, type StoreEmulator } from '../../src/store/emulator.js';

const AUTH = `Basic ${Buffer.from(
  `${STORE_DEV_KEYS.read_write.consumerKey}:${STORE_DEV_KEYS.read_write.consumerSecret}`,
).toString('base64')}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-replay-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function call(emu: StoreEmulator, method: string, path: string, body?: unknown) {
  const res = await emu.app.fetch(
    new Request(`http://127.0.0.1/wp-json/wc/v3${path}`, {
      method,
      headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const json = (await res.json()) as any;
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json;
}

/** The state as data, records sorted by id, without the journal mark (which differs by design). */
function normalized(emu: StoreEmulator): unknown {
  const { journal: _mark, ...data } = JSON.parse(emu.store.snapshot());
  for (const [k, v] of Object.entries(data)) {
    if (Array.isArray(v)) data[k] = [...v].sort((a: { id: number }, b: { id: number }) => a.id - b.id);
  }
  return data;
}

describe('journal replay', () => {
  it('rebuilds exactly the live state after every kind of write', async () => {
    const file = join(dir, 'store.json');
    const live = await createStoreEmulator({ seed: 'demo', rateLimit: false }, { dataFile: file });
    const api = (method: string, path: string, body?: unknown) => call(live, method, path, body);

    // Products, trash and force delete, a batch.
    const p1 = await api('POST', '/products', {
      name: 'Kettle',
      regular_price: '30',
      manage_stock: true,
      stock_quantity: 10,
    });
    await api('PUT', `/products/${p1.id}`, { name: 'Steel Kettle', sale_price: '25' });
    const p2 = await api('POST', '/products', { name: 'Trashed' });
    await api('DELETE', `/products/${p2.id}`);
    const p3 = await api('POST', '/products', { name: 'Gone' });
    await api('DELETE', `/products/${p3.id}?force=true`);
    await api('POST', '/products/batch', {
      create: [{ name: 'Batch A' }, { name: 'Batch B', sku: 'BB-1' }],
      update: [{ id: p1.id, description: 'batched' }],
      delete: [p2.id],
    });

    // Terms: a deleted parent takes itself off products and moves its children up.
    const parent = await api('POST', '/products/categories', { name: 'Outdoors' });
    const child = await api('POST', '/products/categories', { name: 'Camping', parent: parent.id });
    const tag = await api('POST', '/products/tags', { name: 'steel' });
    await api('PUT', `/products/${p1.id}`, { categories: [{ id: parent.id }], tags: [{ id: tag.id }] });
    await api('PUT', `/products/categories/${child.id}`, { description: 'tents' });
    await api('DELETE', `/products/categories/${parent.id}?force=true`);
    await api('DELETE', `/products/tags/${tag.id}?force=true`);

    // A variable product and its variations.
    const v = await api('POST', '/products', { name: 'Cap', type: 'variable' });
    const v1 = await api('POST', `/products/${v.id}/variations`, {
      regular_price: '12',
      manage_stock: true,
      stock_quantity: 5,
      attributes: [{ name: 'Color', option: 'Red' }],
    });
    const v2 = await api('POST', `/products/${v.id}/variations`, { regular_price: '13' });
    await api('PUT', `/products/${v.id}/variations/${v1.id}`, { sale_price: '11' });
    await api('DELETE', `/products/${v.id}/variations/${v2.id}?force=true`);

    // Customers and orders with their side effects.
    const c = await api('POST', '/customers', { email: 'replay@example.com', first_name: 'Re' });
    await api('PUT', `/customers/${c.id}`, { last_name: 'Play', meta_data: [{ key: 'k', value: 'v' }] });
    const o1 = await api('POST', '/orders', {
      customer_id: c.id,
      status: 'processing',
      line_items: [
        { product_id: p1.id, quantity: 2 },
        { product_id: v.id, variation_id: v1.id, quantity: 1 },
      ],
      shipping_lines: [{ method_id: 'flat_rate', total: '5' }],
      fee_lines: [{ name: 'Wrap', total: '2' }],
    });
    await api('PUT', `/orders/${o1.id}`, { status: 'completed' });
    const note = await api('POST', `/orders/${o1.id}/notes`, { note: 'hello' });
    await api('POST', `/orders/${o1.id}/notes`, { note: 'kept', customer_note: true });
    await api('DELETE', `/orders/${o1.id}/notes/${note.id}?force=true`);
    const r1 = await api('POST', `/orders/${o1.id}/refunds`, {
      amount: '1',
      api_refund: false,
      line_items: [{ id: o1.line_items[0].id, quantity: 1, refund_total: 1 }],
    });
    await api('DELETE', `/orders/${o1.id}/refunds/${r1.id}?force=true`);
    await api('POST', `/orders/${o1.id}/refunds`, { amount: o1.total, api_refund: false });
    const o2 = await api('POST', '/orders', {
      customer_id: c.id,
      status: 'processing',
      line_items: [{ product_id: p1.id, quantity: 1 }],
    });
    await api('PUT', `/orders/${o2.id}`, { status: 'cancelled' });
    const o3 = await api('POST', '/orders', {
      set_paid: true,
      line_items: [{ product_id: p1.id, quantity: 1 }],
    });
    await api('POST', `/orders/${o3.id}/notes`, { note: 'to be deleted with its order' });
    await api('POST', `/orders/${o3.id}/refunds`, { amount: '1', api_refund: false });
    await api('DELETE', `/orders/${o3.id}?force=true`);
    await api('DELETE', `/orders/${o2.id}`);
    await api('DELETE', `/customers/${c.id}?force=true`);
    // A refund's restock is the last write to this product's stock (nothing else marks it afterwards).
    const p4 = await api('POST', '/products', {
      name: 'Lamp',
      regular_price: '8',
      manage_stock: true,
      stock_quantity: 4,
    });
    const o4 = await api('POST', '/orders', {
      status: 'processing',
      line_items: [{ product_id: p4.id, quantity: 2 }],
    });
    await api('POST', `/orders/${o4.id}/refunds`, {
      api_refund: false,
      line_items: [{ id: o4.line_items[0].id, quantity: 1, refund_total: 8 }],
    });

    // Webhooks (paused: no deliveries racing the comparison).
    const w = await api('POST', '/webhooks', {
      topic: 'order.created',
      delivery_url: 'http://127.0.0.1:9/hook',
      status: 'paused',
    });
    await api('PUT', `/webhooks/${w.id}`, { name: 'renamed' });
    const w2 = await api('POST', '/webhooks', {
      topic: 'product.created',
      delivery_url: 'http://127.0.0.1:9/x',
    });
    await api('DELETE', `/webhooks/${w2.id}?force=true`);
    await live.store.deliverer.idle();
    await live.store.commit();

    // As after kill -9: no close(), a second emulator reads the files.
    const rebuilt = await createStoreEmulator({ seed: 'demo', rateLimit: false }, { dataFile: file });
    expect(normalized(rebuilt)).toEqual(normalized(live));
    await rebuilt.close();
    await live.close();
  });
});
