/**
 * client.coupons against the sandbox over real sockets. Expected behaviour follows WooCommerce:
 * WC_REST_Coupons_Controller (v3) / WC_REST_Coupons_V2_Controller::prepare_object_for_database(), WC_Coupon's
 * setters, WC_Coupon_Data_Store_CPT::get_ids_by_code() and WC_REST_CRUD_Controller::delete_item().
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BadRequestError,
  BatchError,
  type Coupon,
  type CouponCreateInput,
  NotFoundError,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

const box = sandboxForFile({ store: { seed: 'none' } });

describe('coupons', () => {
  it('create (201), get, update, trash, restore, force delete', async () => {
    const store = clientFor(box);
    const { data: created, status } = await store.coupons
      .create({ code: 'Spring-Sale', amount: '15', discount_type: 'percent', individual_use: true })
      .withResponse();
    expect(status).toBe(201);
    expectTypeOf(created).toEqualTypeOf<Coupon>();
    expect(created).toMatchObject({
      code: 'spring-sale',
      amount: '15.00',
      discount_type: 'percent',
      status: 'publish',
      individual_use: true,
      usage_limit: null,
      minimum_amount: '0.00',
      date_expires: null,
    });

    expect((await store.coupons.get(created.id)).code).toBe('spring-sale');

    const updated = await store.coupons.update(created.id, {
      date_expires: '2030-12-31T23:59:59',
      usage_limit_per_user: 1,
      excluded_product_categories: [3, 3, 4],
      meta_data: [{ key: 'campaign', value: 'spring' }],
    });
    expect(updated).toMatchObject({
      date_expires: '2030-12-31T23:59:59',
      usage_limit_per_user: 1,
      excluded_product_categories: [3, 4],
      meta_data: [{ key: 'campaign', value: 'spring' }],
    });
    // A Date goes out as ISO 8601 UTC; `''` clears the date (the store skips a null).
    const dated = await store.coupons.update(created.id, {
      date_expires: new Date(Date.UTC(2031, 0, 2, 3, 4, 5)),
    });
    expect(dated.date_expires_gmt).toBe('2031-01-02T03:04:05');
    expect((await store.coupons.update(created.id, { date_expires: '' })).date_expires).toBeNull();

    const trashed = await store.coupons.delete(created.id);
    expect(trashed.status).toBe('publish');
    expect((await store.coupons.get(created.id)).status).toBe('trash');
    const twice = await rejection(store.coupons.delete(created.id));
    expect(twice).toMatchObject({ status: 410, code: 'woocommerce_rest_already_trashed' });

    const restored = await store.coupons.update(created.id, { status: 'publish' });
    expect(restored.status).toBe('publish');
    await store.coupons.delete(created.id, { force: true });
    const gone = await rejection(store.coupons.get(created.id));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone.code).toBe('woocommerce_rest_shop_coupon_invalid_id');
  });

  it('surfaces WooCommerce data errors as BadRequestError', async () => {
    const store = clientFor(box);
    await store.coupons.create({ code: 'only-once' });
    const dup = await rejection(store.coupons.create({ code: 'ONLY-ONCE' }));
    expect(dup).toBeInstanceOf(BadRequestError);
    expect(dup).toMatchObject({
      code: 'woocommerce_rest_coupon_code_already_exists',
      message: expect.stringContaining('The coupon code already exists'),
    });
    // WC_Coupon::set_amount() checks the type the coupon already has: a percent coupon cannot exceed 100.
    const pct = await store.coupons.create({ code: 'pct', discount_type: 'percent', amount: '50' });
    const over = await rejection(store.coupons.update(pct.id, { amount: '150' }));
    expect(over).toMatchObject({ status: 400, code: 'coupon_invalid_amount' });
  });

  it('lists: paging, code, status, search; trashed coupons are listed unless a status says otherwise', async () => {
    const store = clientFor(box);
    const ids: number[] = [];
    for (const [code, status] of [
      ['list-a', 'publish'],
      ['list-b', 'draft'],
      ['list-c', 'publish'],
    ] as const) {
      ids.push((await store.coupons.create({ code, status, description: `${code} promo` })).id);
    }
    await store.coupons.delete(ids[2]!);

    const all = await store.coupons.list({ search: 'promo', orderby: 'id', order: 'asc', per_page: 2 });
    expect(all.total).toBe(3);
    expect(all.totalPages).toBe(2);
    const walked: number[] = [];
    for await (const c of store.coupons.list({ search: 'promo', orderby: 'id', order: 'asc', per_page: 2 }))
      walked.push(c.id);
    expect(walked).toEqual(ids);

    const visible = await store.coupons.list({ search: 'promo', status: 'any' });
    expect(visible.data.map((c) => c.code).sort()).toEqual(['list-a', 'list-b']);
    const drafts = await store.coupons.list({ search: 'promo', status: 'draft' });
    expect(drafts.data.map((c) => c.code)).toEqual(['list-b']);
    expect((await store.coupons.list({ code: 'LIST-A' })).data.map((c) => c.id)).toEqual([ids[0]]);
    expect((await store.coupons.list({ code: 'list-b' })).data).toEqual([]);
  });

  it('batch: chunked creates and deletes, per-item failures reported', async () => {
    const store = clientFor(box);
    const created = await store.coupons.batch(
      { create: [{ code: 'batch-1' }, { code: 'batch-2', amount: '4', free_shipping: true }] },
      { chunkSize: 1 },
    );
    expect(created.create.map((c) => (c as Coupon).code)).toEqual(['batch-1', 'batch-2']);
    const error = await rejection(
      store.coupons.batch({ create: [{ code: 'batch-1' }], delete: [(created.create[0] as Coupon).id] }),
    );
    expect(error).toBeInstanceOf(BatchError);
    expect(error.failures).toEqual([
      expect.objectContaining({
        action: 'create',
        index: 0,
        error: expect.objectContaining({ code: 'woocommerce_rest_coupon_code_already_exists' }),
      }),
    ]);
  });

  it('refuses bad input before sending, naming the field', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const missing = await rejection(store.coupons.create({} as CouponCreateInput));
    expect(missing).toBeInstanceOf(ValidationError);
    expect(missing.issues[0].path).toBe('code');
    const empty = await rejection(store.coupons.create({ code: '  ' }));
    expect(empty.message).toContain('a coupon code cannot be empty');
    const number = await rejection(store.coupons.create({ code: 'n', amount: 10 as unknown as string }));
    expect(number.message).toContain('amount: expected a decimal string of 0 or more');
    expect(number.message).toContain('send "10"');
    const negative = await rejection(store.coupons.update(1, { minimum_amount: '-5' }));
    expect(negative.message).toContain('minimum_amount');
    const typo = await rejection(
      store.coupons.create({ code: 'x', discount_typ: 'percent' } as CouponCreateInput),
    );
    expect(typo.message).toContain('(did you mean "discount_type"?)');
    const gmt = await rejection(
      store.coupons.update(1, { date_expires_gmt: '2030-01-01T00:00:00' } as unknown as CouponCreateInput),
    );
    expect(gmt.message).toContain('(did you mean "date_expires"?)');
    const list = await rejection(store.coupons.list({ per_page: 101 }));
    expect(list.message).toContain('per_page');
    expect(box.store.stats().requests).toBe(0);
  });
});
