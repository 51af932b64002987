/**
 * `POST batch` over real sockets: several cart requests run in order on the session's cart, each carrying the
 * session; a failing sub-request answers in its envelope while the others apply; a bad batch is refused whole.
 */
import { describe, expect, it } from 'vitest';
import { type Cart, ValidationError } from '../../src/storefront/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';
import { storefrontFor } from './helpers.js';

const box = sandboxForFile();

describe('batch', () => {
  it('runs cart requests in order on one cart, each answering in its envelope', async () => {
    const admin = clientFor(box);
    const [a, b] = await Promise.all([
      admin.products.create({ name: 'Batch A', regular_price: '1.00' }),
      admin.products.create({ name: 'Batch B', regular_price: '2.00' }),
    ]);
    await admin.coupons.create({ code: 'batch1', amount: '1', discount_type: 'fixed_cart' });
    const shop = storefrontFor(box);
    await shop.cart.get();
    const answer = await shop.batch([
      { method: 'POST', path: 'cart/add-item', body: { id: a.id, quantity: 2 } },
      { method: 'POST', path: '/wc/store/v1/cart/add-item', body: { id: b.id } },
      { method: 'POST', path: 'cart/apply-coupon', body: { code: 'no-such-code' } },
      { method: 'POST', path: 'cart/apply-coupon', body: { code: 'batch1' } },
    ]);
    expect(answer.responses.map((r) => r?.status)).toEqual([201, 201, 400, 200]);
    expect(answer.responses[2]?.body).toMatchObject({ code: 'woocommerce_rest_cart_coupon_error' });
    const last = answer.responses[3]?.body as Cart;
    expect(last.items.map((i) => [i.id, i.quantity])).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]);
    // The session's cart is the batch's.
    const cart = await shop.cart.get();
    expect(cart.items_count).toBe(3);
    expect(cart.coupons.map((c) => c.code)).toEqual(['batch1']);
  });

  it('refuses too many requests or a wrong method before sending; a route that cannot be batched fails in its envelope', async () => {
    const shop = storefrontFor(box);
    const many = Array.from({ length: 26 }, () => ({ method: 'POST' as const, path: 'cart/add-item' }));
    const tooMany = await rejection(shop.batch(many));
    expect(tooMany).toBeInstanceOf(ValidationError);
    const get = await rejection(shop.batch([{ method: 'GET' as never, path: 'cart' }]));
    expect(get.issues[0].path).toBe('0.method');
    // Routes are taken under /wc/store/v1; one that is not batchable answers in its envelope.
    const products = await shop.batch([{ method: 'POST', path: 'products' }]);
    expect(products.responses[0]?.status).toBeGreaterThanOrEqual(400);
  });
});
