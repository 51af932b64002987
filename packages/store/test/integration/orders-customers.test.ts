import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, InternalServerError, NotFoundError, ValidationError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(() => box.close());

const billing = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' };

describe('orders', () => {
  it('prices line items from products, computes totals, changes status', async () => {
    const store = clientFor(box);
    const lamp = await store.products.create({ name: 'Lamp', regular_price: '40.00' });
    const order = await store.orders.create({ billing, line_items: [{ product_id: lamp.id, quantity: 3 }] });
    expect(order.status).toBe('pending');
    expect(order.line_items[0]).toMatchObject({
      product_id: lamp.id,
      quantity: 3,
      total: '120.00',
      price: 40,
    });
    expect(order.total).toBe('120.00');

    const processing = await store.orders.update(order.id, { status: 'processing' });
    expect(processing.status).toBe('processing');
    await store.orders.update(order.id, { status: 'cancelled' });

    const paid = await store.orders.create({
      billing,
      set_paid: true,
      line_items: [{ product_id: lamp.id, quantity: 1 }],
    });
    expect(paid.status).toBe('processing');
    expect(paid.date_paid).not.toBeNull();

    const byStatus = await store.orders.list({ status: ['processing', 'cancelled'] });
    expect(byStatus.data.map((o) => o.id).sort()).toEqual([order.id, paid.id].sort());

    await store.orders.delete(order.id);
    expect((await store.orders.get(order.id)).status).toBe('trash');
  });

  it('notes: create, list, get, delete', async () => {
    const store = clientFor(box);
    const order = await store.orders.create({ billing });
    const note = await store.orders.notes.create(order.id, {
      note: 'Gift wrap, please',
      customer_note: true,
    });
    expect(note).toMatchObject({ note: 'Gift wrap, please', customer_note: true });
    const customerNotes = await store.orders.notes.list(order.id, { type: 'customer' });
    expect(customerNotes.data.map((n) => n.id)).toContain(note.id);
    expect((await store.orders.notes.get(order.id, note.id)).id).toBe(note.id);
    await store.orders.notes.delete(order.id, note.id);
    await expect(store.orders.notes.get(order.id, note.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refunds: api_refund must be chosen; gateway refunds fail as the store does; manual refunds work', async () => {
    const store = clientFor(box);
    const item = await store.products.create({ name: 'Chair', regular_price: '50.00' });
    const order = await store.orders.create({
      billing,
      set_paid: true,
      line_items: [{ product_id: item.id, quantity: 2 }],
    });

    await expect(store.orders.refunds.create(order.id, { amount: '10.00' } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    const gateway = await store.orders.refunds
      .create(order.id, { amount: '10.00', api_refund: true })
      .catch((e: unknown) => e);
    expect(gateway).toBeInstanceOf(InternalServerError);
    expect((gateway as InternalServerError).code).toBe('woocommerce_rest_cannot_create_order_refund');

    const partial = await store.orders.refunds.createManual(order.id, {
      amount: '10.00',
      reason: 'scratched',
    });
    expect(partial.amount).toBe('10.00');
    expect((await store.orders.get(order.id)).refunds.map((r) => r.total)).toEqual(['-10.00']);
    const listed = await store.orders.refunds.list(order.id);
    expect(listed.data.map((r) => r.id)).toEqual([partial.id]);
    await store.orders.refunds.createManual(order.id, { amount: '90.00' });
    expect((await store.orders.get(order.id)).status).toBe('refunded');
    await store.orders.refunds.delete(order.id, partial.id);
    await expect(store.orders.refunds.get(order.id, partial.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('customers', () => {
  it('CRUD, unique email with the real error code, filters', async () => {
    const store = clientFor(box);
    const grace = await store.customers.create({
      email: 'grace@example.com',
      first_name: 'Grace',
      username: 'grace',
    });
    expect(grace).toMatchObject({ email: 'grace@example.com', role: 'customer', username: 'grace' });
    const dup = await store.customers.create({ email: 'grace@example.com' }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(BadRequestError);
    expect((dup as BadRequestError).code).toBe('registration-error-email-exists');

    const updated = await store.customers.update(grace.id, {
      last_name: 'Hopper',
      billing: { city: 'Arlington' },
    });
    expect(updated.last_name).toBe('Hopper');
    expect(updated.billing.city).toBe('Arlington');
    expect((await store.customers.list({ email: 'grace@example.com' })).data.map((c) => c.id)).toEqual([
      grace.id,
    ]);

    const deleted = await store.customers.delete(grace.id);
    expect(deleted.id).toBe(grace.id);
    await expect(store.customers.get(grace.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.customers.create({ email: 'not-an-email' })).rejects.toBeInstanceOf(ValidationError);
  });
});
