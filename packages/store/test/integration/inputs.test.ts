import { describe, expect, it } from 'vitest';
import {
  type ProductInput,
  type RefundInput,
  type StoreClientOptions,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

/** Inputs the store would silently drop or refuse late are refused before anything is sent. */

const box = sandboxForFile();

/** A fetch that keeps the bodies it sends, so a test can see what went on the wire. */
function recording(): { fetch: StoreClientOptions['fetch']; bodies: string[] } {
  const bodies: string[] = [];
  return {
    bodies,
    fetch: (input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return globalThis.fetch(input, init);
    },
  };
}

describe('misspelt fields', () => {
  it('are refused, naming the field and the closest known one, before anything is sent', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const input = { name: 'Mug', regular_prise: '12.00' } as ProductInput;
    const error = await rejection<ValidationError>(store.products.create(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.issues[0]).toMatchObject({
      path: 'regular_prise',
      message: expect.stringMatching(/^unknown field \(did you mean "regular_price"\?\)/),
    });
    expect(error!.message).toContain('allowUnknownFields: true');
    expect(error!.message).toContain('meta_data');
    expect(box.store.stats().requests).toBe(0);
  });

  it('nested, camelCase, in batches and in list filters', async () => {
    const store = clientFor(box);
    const order = await rejection<ValidationError>(
      store.orders.create({
        billing: { first_name: 'Ada', postocde: 'N1' },
        line_items: [{ product_di: 12, quantity: 1 }],
      } as never),
    );
    expect(order!.issues.map((i) => i.path)).toEqual(['billing.postocde', 'line_items.0.product_di']);
    expect(order!.message).toContain('(did you mean "postcode"?)');
    expect(order!.message).toContain('(did you mean "product_id"?)');

    const camel = await rejection<ValidationError>(
      store.products.update(1, { regularPrice: '1.00' } as never),
    );
    expect(camel!.message).toContain('regularPrice: unknown field (did you mean "regular_price"?)');

    const batch = await rejection<ValidationError>(
      store.orders.batch({ update: [{ id: 1, status: 'completed' }, { id: 2, customer_nte: 'x' } as never] }),
    );
    expect(batch!.message).toMatch(
      /^Invalid orders\.batch update\[1\]: customer_nte: unknown field \(did you mean "customer_note"\?\)/,
    );

    const list = await rejection<ValidationError>(store.products.list({ per_pgae: 5 } as never));
    expect(list!.message).toContain('per_pgae: unknown field (did you mean "per_page"?)');
    const far = await rejection<ValidationError>(store.products.create({ name: 'x', zzz_qqq: 1 } as never));
    expect(far!.issues[0]!.message).toMatch(/^unknown field; /);
  });

  it('allowUnknownFields sends fields this SDK does not know yet, as given; other checks stay on', async () => {
    const wire = recording();
    const store = clientFor(box, { allowUnknownFields: true, fetch: wire.fetch });
    const created = await store.products.create({ name: 'Future', brand_new_field: 'yes' } as ProductInput);
    expect(created.name).toBe('Future');
    expect(JSON.parse(wire.bodies[0]!)).toEqual({ name: 'Future', brand_new_field: 'yes' });
    await expect(store.products.create({ regular_price: 1 } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    // Scoped to some calls with withOptions(); the original client stays strict.
    const strict = clientFor(box);
    const loose = strict.withOptions({ allowUnknownFields: true });
    await expect(loose.products.list({ brand_new_filter: 1 } as never)).resolves.toBeDefined();
    await expect(strict.products.list({ brand_new_filter: 1 } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('money is a decimal string', () => {
  it('a number anywhere money goes says "a decimal string such as "1.00""', async () => {
    const store = clientFor(box);
    const price = await rejection<ValidationError>(
      store.products.create({ name: 'x', regular_price: 19.99 } as never),
    );
    expect(price!.message).toContain(
      'regular_price: expected a decimal string such as "1.00", not the number 19.99 (send "19.99")',
    );
    const lines = await rejection<ValidationError>(
      store.orders.create({
        line_items: [{ product_id: 1, total: 5 }],
        shipping_lines: [{ method_id: 'flat_rate', total: 5 }],
        fee_lines: [{ name: 'Gift wrap', total: 2.5 }],
      } as never),
    );
    expect(lines!.issues.map((i) => i.path)).toEqual([
      'line_items.0.total',
      'shipping_lines.0.total',
      'fee_lines.0.total',
    ]);
    for (const issue of lines!.issues) expect(issue.message).toMatch(/a decimal string such as "1\.00"/);
    const words = await rejection<ValidationError>(store.products.create({ name: 'x', sale_price: 'ten' }));
    expect(words!.message).toContain('sale_price: expected a decimal string such as "1.00"');
  });

  it('refunds: amount and line_items[].refund_total alike; a number is refused', async () => {
    const store = clientFor(box);
    const chair = await store.products.create({ name: 'Chair', regular_price: '50.00' });
    const order = await store.orders.create({
      set_paid: true,
      line_items: [{ product_id: chair.id, quantity: 2 }],
    });
    const line = order.line_items[0]!;
    const refund = await store.orders.refunds.createManual(order.id, {
      line_items: [{ id: line.id, quantity: 1, refund_total: '50.00' }],
    });
    expect(refund.amount).toBe('50.00');
    const number = await rejection<ValidationError>(
      store.orders.refunds.createManual(order.id, {
        line_items: [{ id: line.id, quantity: 1, refund_total: 50 }],
      } as never),
    );
    expect(number!.issues).toEqual([
      {
        path: 'line_items.0.refund_total',
        message: 'expected a decimal string such as "1.00", not the number 50 (send "50")',
      },
    ]);
  });

  it('a refund without api_refund says it is required and points to createManual()', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const error = await rejection<ValidationError>(
      store.orders.refunds.create(1, { amount: '1.00' } as RefundInput),
    );
    expect(error!.issues).toHaveLength(1);
    expect(error!.issues[0]!.path).toBe('api_refund');
    expect(error!.issues[0]!.message).toMatch(/^is required: true asks the payment gateway/);
    expect(error!.message).toContain('orders.refunds.createManual()');
    expect(box.store.stats().requests).toBe(0);
  });
});

describe('order notes', () => {
  it('list() gives a page like every other list (the store sends all notes in one response)', async () => {
    const store = clientFor(box);
    const order = await store.orders.create({ billing: { first_name: 'Ada' } });
    for (const note of ['one', 'two', 'three']) await store.orders.notes.create(order.id, { note });
    box.store.resetStats();
    const page = await store.orders.notes.list(order.id);
    expect(page.data.map((n) => n.note).sort()).toEqual(['one', 'three', 'two']);
    expect(page).toMatchObject({ total: 3, totalPages: 1, pageNumber: 1 });
    expect(page.hasNextPage()).toBe(false);
    const all: string[] = [];
    for await (const note of store.orders.notes.list(order.id, { type: 'internal' })) all.push(note.note);
    expect(all.sort()).toEqual(['one', 'three', 'two']);
    expect(box.store.stats().requests).toBe(2);
  });
});
