import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  BatchError,
  ConflictError,
  type DeletedReview,
  NotFoundError,
  type Review,
  type ReviewCreateInput,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

/**
 * client.products.attributes (+ .terms), .shippingClasses and .reviews against the sandbox over real sockets.
 * Expected store behaviour: WC_REST_Product_Attributes_V1_Controller and wc_create_attribute(),
 * WC_REST_Terms_Controller, WC_REST_Product_Reviews_Controller (v3), WC_Comments (ratings),
 * WC_Query::order_by_rating_post_clauses() / order_by_popularity_post_clauses() (tie-breaks).
 */

const box = sandboxForFile({ store: { seed: 'none' } });

describe('product attributes and their terms', () => {
  it('create, list, update, terms CRUD, products naming the attribute, delete with its terms', async () => {
    const store = clientFor(box);
    const { data: size, status } = await store.products.attributes
      .create({ name: 'Size', slug: 'size', order_by: 'name' })
      .withResponse();
    expect(status).toBe(201);
    expect(size).toMatchObject({ name: 'Size', slug: 'pa_size', type: 'select', order_by: 'name' });

    const page = await store.products.attributes.list();
    expect(page.data.map((a) => a.id)).toContain(size.id);
    expect(page.totalPages).toBe(1);

    const clash = await rejection(store.products.attributes.create({ name: 'Size 2', slug: 'size' }));
    expect(clash).toBeInstanceOf(BadRequestError);
    expect(clash).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
      message: expect.stringContaining('Slug "size" is already in use. Change it, please.'),
    });

    const terms = store.products.attributes.terms;
    const batch = await terms.batch(size.id, {
      create: [{ name: 'Small', menu_order: 1 }, { name: 'Medium' }, { name: 'Large' }],
    });
    expect(batch.failures).toEqual([]);
    const [small, medium] = batch.create as { id: number; name: string }[];
    expect((await terms.get(size.id, small!.id)).menu_order).toBe(1);
    await terms.update(size.id, medium!.id, { description: 'M' });
    const names: string[] = [];
    for await (const t of terms.list(size.id, { per_page: 2 })) names.push(t.name);
    expect(names).toEqual(['Large', 'Medium', 'Small']);

    const shirt = await store.products.create({
      name: 'Shirt',
      regular_price: '15.00',
      attributes: [{ id: size.id, options: ['Small', 'Large'], visible: true, variation: false }],
    });
    // The attribute's order_by is `name`: Large before Small.
    expect(shirt.attributes[0]).toMatchObject({
      id: size.id,
      name: 'Size',
      slug: 'pa_size',
      options: ['Large', 'Small'],
    });
    expect((await terms.get(size.id, small!.id)).count).toBe(1);

    await store.products.attributes.update(size.id, { name: 'Garment size', slug: 'size' });
    expect((await store.products.get(shirt.id)).attributes[0]).toMatchObject({ name: 'Garment size' });

    await terms.delete(size.id, small!.id);
    expect((await store.products.get(shirt.id)).attributes[0]!.options).toEqual(['Large']);

    const removed = await store.products.attributes.delete(size.id);
    expect(removed.id).toBe(size.id);
    const noAttribute = await rejection(terms.list(size.id));
    expect(noAttribute).toBeInstanceOf(NotFoundError);
    expect(noAttribute).toMatchObject({ code: 'woocommerce_rest_taxonomy_invalid' });
    expect(await rejection(store.products.attributes.get(size.id))).toBeInstanceOf(NotFoundError);
  });
});

describe('shipping classes', () => {
  it('CRUD, products by slug with the class id, the products list filter, delete clears products', async () => {
    const store = clientFor(box);
    const express = await store.products.shippingClasses.create({ name: 'Express' });
    expect(express).toMatchObject({ slug: 'express', count: 0 });
    const parcel = await store.products.create({
      name: 'Parcel',
      regular_price: '5.00',
      shipping_class: 'express',
    });
    expect(parcel).toMatchObject({ shipping_class: 'express', shipping_class_id: express.id });
    await store.products.create({ name: 'Letter', regular_price: '1.00' });
    const listed = await store.products.list({ shipping_class: express.id });
    expect(listed.data.map((p) => p.id)).toEqual([parcel.id]);
    expect((await store.products.shippingClasses.get(express.id)).count).toBe(1);

    const renamed = await store.products.shippingClasses.update(express.id, { name: 'Express (24h)' });
    expect(renamed).toMatchObject({ name: 'Express (24h)', slug: 'express' });
    const found = await store.products.shippingClasses.list({ search: '24h' });
    expect(found.data.map((c) => c.id)).toEqual([express.id]);

    await store.products.shippingClasses.delete(express.id);
    expect(await store.products.get(parcel.id)).toMatchObject({ shipping_class: '', shipping_class_id: 0 });
  });
});

describe('product reviews', () => {
  const reviewOf = (productId: number, n: number, rating: number): ReviewCreateInput => ({
    product_id: productId,
    review: `Review ${n}`,
    reviewer: `Reviewer ${n}`,
    reviewer_email: `r${n}@example.com`,
    rating,
  });

  it('create, get in both contexts, update, list filters, trash and force delete', async () => {
    const store = clientFor(box);
    const kettle = await store.products.create({ name: 'Kettle', regular_price: '30.00' });
    const first = await store.products.reviews.create(reviewOf(kettle.id, 1, 4));
    expect(first).toMatchObject({ product_id: kettle.id, status: 'approved', review: 'Review 1', rating: 4 });
    expect((await store.products.reviews.get(first.id)).review).toBe('<p>Review 1</p>\n');
    expect((await store.products.reviews.get(first.id, { context: 'edit' })).review).toBe('Review 1');

    const held = await store.products.reviews.create({ ...reviewOf(kettle.id, 2, 2), status: 'hold' });
    expect(held.status).toBe('hold');
    const approved = await store.products.reviews.list({ product: [kettle.id] });
    expect(approved.data.map((r) => r.id)).toEqual([first.id]);
    const all = await store.products.reviews.list({ product: [kettle.id], status: 'all', order: 'asc' });
    expect(all.data.map((r) => r.id)).toEqual([first.id, held.id]);
    const byEmail = await store.products.reviews.list({ reviewer_email: 'r2@example.com', status: 'hold' });
    expect(byEmail.data.map((r) => r.id)).toEqual([held.id]);

    const edited = await store.products.reviews.update(held.id, { status: 'approved', rating: 5 });
    expect(edited).toMatchObject({ status: 'approved', rating: 5 });
    expect(await store.products.get(kettle.id)).toMatchObject({ average_rating: '4.50', rating_count: 2 });

    // The overloads type what each delete answers: the trashed review, or {deleted, previous} when forced.
    const trashed: Review = await store.products.reviews.delete(first.id);
    expect(trashed.status).toBe('trash');
    const again = await rejection(store.products.reviews.delete(first.id));
    expect(again).toMatchObject({ status: 410, code: 'woocommerce_rest_already_trashed' });
    const forced: DeletedReview = await store.products.reviews.delete(first.id, { force: true });
    expect(forced).toMatchObject({ deleted: true, previous: { id: first.id } });
    expect(await rejection(store.products.reviews.get(first.id))).toMatchObject({
      status: 404,
      code: 'woocommerce_rest_review_invalid_id',
    });

    const dupe = await rejection(store.products.reviews.create(reviewOf(kettle.id, 2, 2)));
    expect(dupe).toBeInstanceOf(ConflictError);
  });

  it('batch reports failed items; products sort by rating and popularity with WooCommerce tie-breaks', async () => {
    const store = clientFor(box);
    const made = await store.products.batch({
      create: ['A', 'B', 'C', 'D'].map((name) => ({ name: `Rated ${name}`, regular_price: '1.00' })),
    });
    const [a, b, c, d] = made.create as { id: number }[];
    const error = await rejection(
      store.products.reviews.batch({
        create: [
          reviewOf(a!.id, 10, 5),
          reviewOf(b!.id, 11, 5),
          reviewOf(b!.id, 12, 5),
          reviewOf(c!.id, 13, 3),
          { ...reviewOf(a!.id, 14, 1), product_id: 999_999 },
        ],
      }),
    );
    expect(error).toBeInstanceOf(BatchError);
    const failures = (error as BatchError).failures as { index: number; error: { code: string } }[];
    expect(failures).toMatchObject([{ index: 4, error: { code: 'woocommerce_rest_product_invalid_id' } }]);

    // average_rating DESC, rating_count DESC, id DESC: B (5.00, 2) before A (5.00, 1), then C, then D (none).
    const ids = new Set([a!.id, b!.id, c!.id, d!.id]);
    const byRating = await store.products.list({ orderby: 'rating', include: [...ids], per_page: 10 });
    expect(byRating.data.map((p) => p.id)).toEqual([b!.id, a!.id, c!.id, d!.id]);
    // total_sales are all 0: product_id DESC decides, even with order=asc.
    const byPopularity = await store.products.list({
      orderby: 'popularity',
      order: 'asc',
      include: [...ids],
    });
    expect(byPopularity.data.map((p) => p.id)).toEqual([d!.id, c!.id, b!.id, a!.id]);
  });
});

describe('inputs are refused before anything is sent', () => {
  it('names the field: required review fields, rating range, email, unknown fields, bad parent ids', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const missing = await rejection(
      store.products.reviews.create({ product_id: 1, review: 'x', reviewer: 'A' } as ReviewCreateInput),
    );
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).issues.map((i) => i.path)).toEqual(['reviewer_email']);
    const rating = await rejection(
      store.products.reviews.create({
        product_id: 1,
        review: 'x',
        reviewer: 'A',
        reviewer_email: 'a@b.co',
        rating: 6,
      }),
    );
    expect((rating as ValidationError).issues.map((i) => i.path)).toEqual(['rating']);
    const email = await rejection(store.products.reviews.update(1, { reviewer_email: 'not-an-email' }));
    expect((email as ValidationError).issues.map((i) => i.path)).toEqual(['reviewer_email']);
    const misspelt = await rejection(
      store.products.attributes.create({ name: 'Fit', order_bye: 'name' } as never),
    );
    expect((misspelt as ValidationError).issues[0]).toMatchObject({
      path: 'order_bye',
      message: expect.stringMatching(/did you mean "order_by"/),
    });
    const parent = await rejection(store.products.attributes.terms.get(0, 1));
    expect(parent).toBeInstanceOf(ValidationError);
    expect(parent.message).toContain('attributeId');
    const noName = await rejection(store.products.shippingClasses.create({ name: '' }));
    expect((noName as ValidationError).issues.map((i) => i.path)).toEqual(['name']);
    expect(box.store.stats().requests).toBe(0);
  });
});
