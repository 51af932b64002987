/**
 * Order-pay (`POST checkout/{id}`) and `GET order/{id}` over real sockets: a guest's pending order made in
 * REST v3 is paid through the Store API with its key and billing email, and REST v3 then shows it paid with
 * the stock taken; the Store API shows the order to its key and email only.
 */
import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, money } from '../../src/storefront/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';
import { FRANCE, recordingLogger, storefrontFor } from './helpers.js';

const box = sandboxForFile();

describe('checkout.pay and order.get', () => {
  it("pays a guest's pending order; REST v3 sees it paid; the order key stays out of logs and errors", async () => {
    const admin = clientFor(box);
    await admin.paymentGateways.update('cod', { enabled: true });
    const lamp = await admin.products.create({
      name: 'Pay Lamp',
      regular_price: '40.00',
      manage_stock: true,
      stock_quantity: 5,
    });
    const pending = await admin.orders.create({
      status: 'pending',
      billing: { ...FRANCE, email: 'ana@example.fr' },
      line_items: [{ product_id: lamp.id, quantity: 2 }],
    });
    const auth = { key: pending.order_key, billing_email: 'ana@example.fr' };
    const { lines, logger } = recordingLogger();
    const shop = storefrontFor(box, { logger, logLevel: 'debug' });

    const shown = await shop.order.get(pending.id, auth);
    expect(shown).toMatchObject({ id: pending.id, status: 'pending', needs_payment: true });
    expect(shown.items.map((i) => [i.name, i.quantity])).toEqual([['Pay Lamp', 2]]);
    expect(money(shown.totals, 'total_price')?.amount_minor).toBe(8000);

    const wrong = await rejection(shop.order.get(pending.id, { ...auth, key: 'wc_order_nope' }));
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect(wrong.code).toBe('woocommerce_rest_invalid_order');
    const wrongEmail = await rejection(
      shop.checkout.pay(pending.id, {
        ...auth,
        billing_email: 'bob@example.fr',
        billing_address: { ...FRANCE, email: 'ana@example.fr' },
        payment_method: 'cod',
      }),
    );
    expect(wrongEmail.code).toBe('woocommerce_rest_invalid_billing_email');

    const paid = await shop.checkout.pay(pending.id, {
      ...auth,
      billing_address: { ...FRANCE, email: 'ana@example.fr' },
      payment_method: 'cod',
    });
    expect(paid).toMatchObject({ order_id: pending.id, payment_method: 'cod' });
    const after = await admin.orders.get(pending.id);
    expect(after).toMatchObject({ status: 'processing', payment_method: 'cod' });
    expect((await admin.products.get(lamp.id)).stock_quantity).toBe(3);
    expect((await shop.order.get(pending.id, auth)).needs_payment).toBe(false);

    for (const text of [...lines, wrong.message, JSON.stringify(wrong), wrongEmail.message])
      expect(text).not.toContain(pending.order_key);
    // The email that opens the order with its key stays out of the URLs logs and errors show.
    const orderLines = lines.filter((line) => line.includes('/order/'));
    expect(orderLines.length).toBeGreaterThan(0);
    for (const text of [...orderLines, wrong.message, JSON.stringify(wrong)])
      expect(text).not.toMatch(/ana(@|%40)example\.fr/);
  });

  it('checkout.get shows the draft order that checkout.place then places', async () => {
    const admin = clientFor(box);
    await admin.paymentGateways.update('cod', { enabled: true });
    const vase = await admin.products.create({ name: 'Draft Vase', regular_price: '8.00' });
    const shop = storefrontFor(box);
    const empty = await rejection(shop.checkout.get());
    expect(empty).toBeInstanceOf(BadRequestError);
    expect(empty.code).toBe('woocommerce_rest_cart_empty');
    await shop.cart.addItem({ id: vase.id, quantity: 2 });
    const draft = await shop.checkout.get();
    expect(draft.status).toBe('checkout-draft');
    expect((await admin.orders.get(draft.order_id)).total).toBe('16.00');
    expect((await shop.checkout.get()).order_id).toBe(draft.order_id);
    const placed = await shop.checkout.place({ billing_address: FRANCE, payment_method: 'cod' });
    expect(placed.order_id).toBe(draft.order_id);
    expect((await admin.orders.get(draft.order_id)).status).toBe('processing');
  });

  it('shows an order placed through checkout to its key and email', async () => {
    const admin = clientFor(box);
    await admin.paymentGateways.update('cod', { enabled: true });
    const mug = await admin.products.create({ name: 'Order Mug', regular_price: '6.00' });
    const shop = storefrontFor(box);
    await shop.cart.addItem({ id: mug.id, quantity: 3 });
    const placed = await shop.checkout.place({ billing_address: FRANCE, payment_method: 'cod' });
    const order = await shop.order.get(placed.order_id, {
      key: placed.order_key,
      billing_email: FRANCE.email,
    });
    expect(order.items.map((i) => [i.name, i.quantity])).toEqual([['Order Mug', 3]]);
    expect(order.billing_address.email).toBe(FRANCE.email);
  });
});
