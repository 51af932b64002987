/**
 * `cart/items` and `cart/items/{key}` over real sockets, and prices read with money() from a shop whose
 * currency has no minor unit and one with three, as the Store API sends them (strings of minor units).
 */
import { describe, expect, it } from 'vitest';
import { CartConflictError, money, ValidationError } from '../../src/storefront/index.js';
import { clientFor, rejection, sandbox, sandboxForFile } from '../helpers/sandbox.js';
import { storefrontFor } from './helpers.js';

const box = sandboxForFile();

describe('cart.items', () => {
  it('adds, lists, gets, updates, removes and clears lines by key', async () => {
    const admin = clientFor(box);
    const [a, b] = await Promise.all([
      admin.products.create({ name: 'Line A', regular_price: '2.50' }),
      admin.products.create({ name: 'Line B', regular_price: '4.00' }),
    ]);
    const shop = storefrontFor(box);
    const lineA = await shop.cart.items.add({ id: a.id, quantity: 2 });
    expect(lineA).toMatchObject({ id: a.id, quantity: 2, totals: { line_total: '500' } });
    expect(lineA.key).toMatch(/^[\w-]{32}$/);
    const lineB = await shop.cart.items.add({ id: b.id });
    expect((await shop.cart.items.list()).map((i) => i.key)).toEqual([lineA.key, lineB.key]);
    expect((await shop.cart.items.get(lineB.key)).id).toBe(b.id);
    expect(await shop.cart.items.update(lineA.key, { quantity: 5 })).toMatchObject({
      quantity: 5,
      totals: { line_total: '1250' },
    });
    await shop.cart.items.remove(lineB.key);
    // A key the cart does not hold is a 409 (CartController::get_cart_item()), with the cart.
    const missing = await rejection(shop.cart.items.get(lineB.key));
    expect(missing).toBeInstanceOf(CartConflictError);
    expect((missing as CartConflictError).cart?.items.map((i) => i.key)).toEqual([lineA.key]);

    // The cart routes see the same lines.
    let cart = await shop.cart.updateItem(lineA.key, 1);
    expect(cart.items.map((i) => [i.key, i.quantity])).toEqual([[lineA.key, 1]]);
    cart = await shop.cart.addItem({ id: b.id, quantity: 3 });
    expect(cart.items_count).toBe(4);
    cart = await shop.cart.removeItem(lineA.key);
    expect(cart.items.map((i) => i.id)).toEqual([b.id]);
    expect(await shop.cart.items.clear()).toEqual([]);
    expect((await shop.cart.get()).items_count).toBe(0);
    const gone = await rejection(shop.cart.removeItem(lineA.key));
    expect(gone.status).toBeGreaterThanOrEqual(400);
  });
});

describe('money()', () => {
  it('reads a shop without minor units (JPY, 0 decimals) and one with three (KWD)', async () => {
    for (const [currency, decimals, price, expected] of [
      ['JPY', '0', '1250', { amount_minor: 1250, formatted: '¥1,250' }],
      ['KWD', '3', '1234.567', { amount_minor: 1234567, formatted: 'د.ك1,234.567' }],
    ] as const) {
      const shopBox = await sandbox();
      try {
        const admin = clientFor(shopBox);
        await admin.settings.update('general', 'woocommerce_currency', { value: currency });
        await admin.settings.update('general', 'woocommerce_price_num_decimals', { value: decimals });
        const product = await admin.products.create({ name: currency, regular_price: price });
        const listed = await storefrontFor(shopBox).products.get(product.id);
        const read = money(listed.prices, 'price')!;
        expect(read).toMatchObject({
          ...expected,
          currency_code: currency,
          currency_minor_unit: Number(decimals),
        });
      } finally {
        await shopBox.close();
      }
    }
  });

  it('moves the separator in the digits, never through a float', () => {
    const usd = {
      currency_code: 'USD',
      currency_symbol: '$',
      currency_minor_unit: 2,
      currency_decimal_separator: ',',
      currency_thousand_separator: '.',
      currency_prefix: '',
      currency_suffix: ' $',
    };
    // 0.1 + 0.2 in floats is 0.30000000000000004; in minor units it is 30.
    expect(money({ ...usd, price: '30' }, 'price')).toMatchObject({ amount_minor: 30, formatted: '0,30 $' });
    expect(money({ ...usd, price: '-5' }, 'price')?.formatted).toBe('-0,05 $');
    expect(money({ ...usd, price: '123456789012345' }, 'price')?.formatted).toBe('1.234.567.890.123,45 $');
    expect(money({ ...usd, currency_minor_unit: 0, price: '7' }, 'price')?.formatted).toBe('7 $');
    expect(money({ ...usd, currency_minor_unit: 3, price: '7' }, 'price')?.formatted).toBe('0,007 $');
    expect(money({ ...usd, price: '' }, 'price')).toBeNull();
    expect(money({ ...usd, total_shipping: null }, 'total_shipping')).toBeNull();
    expect(() => money({ ...usd, price: '1.5' }, 'price')).toThrow(
      /price: expected a string of whole minor units/,
    );
    expect(() => money({ ...usd, price: '99999999999999999' }, 'price')).toThrow(
      /price: 99999999999999999 is beyond what amount_minor holds exactly/,
    );
  });

  it('refuses a missing price group or currency code with a ValidationError naming it, not a TypeError', () => {
    for (const [prices, path] of [
      [undefined, ''],
      [null, ''],
      [{ price: '100', currency_minor_unit: 2 }, 'currency_code'],
      [{ price: '100', currency_code: 'EUR' }, 'currency_minor_unit'],
    ] as const) {
      let thrown: unknown;
      try {
        money(prices as never, 'price' as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).issues.map((i) => i.path)).toEqual([path]);
    }
  });

  it("inserts any thousand separator as it is, even one that String.replace would read as a pattern ($&, $')", () => {
    const odd = {
      currency_code: 'XTS',
      currency_symbol: '¤',
      currency_minor_unit: 2,
      currency_decimal_separator: '.',
      currency_thousand_separator: "$'",
      currency_prefix: '¤',
      currency_suffix: '',
    };
    expect(money({ ...odd, price: '123456789' }, 'price')?.formatted).toBe("¤1$'234$'567.89");
    expect(
      money({ ...odd, currency_thousand_separator: '$&', price: '-123456789' }, 'price')?.formatted,
    ).toBe('-¤1$&234$&567.89');
  });
});
