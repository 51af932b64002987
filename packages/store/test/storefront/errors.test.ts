/**
 * Store API errors in core's tree, over real sockets: a 409 keeps the cart it carries, a bad coupon is a
 * BadRequestError naming what was sent where, arguments are refused before any request (naming the field),
 * and the session's Cart-Token and Nonce reach no error or log line, even when a server echoes them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  BadRequestError,
  CartConflictError,
  StorefrontClient,
  ValidationError,
} from '../../src/storefront/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';
import { recordingLogger, storefrontFor } from './helpers.js';

const box = sandboxForFile();
let mug: number;

beforeAll(async () => {
  const admin = clientFor(box);
  mug = (await admin.products.create({ name: 'Error Mug', regular_price: '8.00' })).id;
  await admin.coupons.create({ code: 'known', amount: '1', discount_type: 'fixed_cart' });
});

/** Every text an error shows: message, stack, JSON, headers. */
function surfaces(error: Error): string {
  const headers =
    error instanceof APIError ? [...error.headers].map(([k, v]) => `${k}: ${v}`).join('\n') : '';
  return [error.message, error.stack ?? '', JSON.stringify(error), headers].join('\n');
}

describe('Store API errors', () => {
  it('a 409 is a CartConflictError carrying the cart; secrets stay out of it and of the logs', async () => {
    const { lines, logger } = recordingLogger();
    const seen: string[] = [];
    const shop = storefrontFor(box, {
      logger,
      logLevel: 'debug',
      hooks: {
        afterResponse: ({ response }) => {
          for (const name of ['cart-token', 'nonce']) {
            const value = response.headers.get(name);
            if (value) seen.push(value);
          }
        },
      },
    });
    await shop.cart.addItem({ id: mug, quantity: 2 });
    // `known` exists but is not applied: CartRemoveCoupon answers 409 with the cart.
    const error = await rejection(shop.cart.removeCoupon('known'));
    expect(error).toBeInstanceOf(CartConflictError);
    expect(error).toMatchObject({ status: 409, code: 'woocommerce_rest_cart_coupon_invalid_code' });
    expect((error as CartConflictError).cart?.items.map((i) => [i.id, i.quantity])).toEqual([[mug, 2]]);
    expect(error.message).toContain('POST http://127.0.0.1');
    expect(error.message).toContain('/wp-json/wc/store/v1/cart/remove-coupon');
    expect(error.headers.get('cart-token')).toBe('[REDACTED]');

    const bad = await rejection(shop.cart.applyCoupon('nope'));
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad.code).toBe('woocommerce_rest_cart_coupon_error');
    // WooCommerce's HTML-escaped message, as text.
    expect(bad.message).toContain('"nope" is an invalid coupon code.');

    expect(seen.length).toBeGreaterThan(4);
    expect(lines.length).toBeGreaterThan(4);
    for (const secret of new Set(seen)) {
      for (const text of [surfaces(error), surfaces(bad), ...lines]) expect(text).not.toContain(secret);
    }
  });

  it('refuses bad arguments before any request, naming the field', async () => {
    let requests = 0;
    const shop = storefrontFor(box, { hooks: { beforeRequest: () => void requests++ } });
    const cases: Array<[Promise<unknown> | PromiseLike<unknown>, string]> = [
      [shop.cart.addItem({ id: 'x' as never }), 'id'],
      [shop.cart.addItem({ id: mug, quantiy: 2 } as never), 'quantiy'],
      [shop.cart.addItem({ id: mug, quantity: 0 }), 'quantity'],
      [shop.cart.updateItem('short', 1), ''],
      [shop.cart.items.update('a'.repeat(32), { quantity: -1 }), 'quantity'],
      [shop.cart.items.update('a'.repeat(32), { quantity: 2, quantiy: 3 } as never), 'quantiy'],
      [shop.cart.updateCustomer({ billing_address: { email: 'not-an-email' } }), 'billing_address.email'],
      [shop.cart.selectShippingRate({ rate_id: '' }), 'rate_id'],
      [shop.products.list({ per_page: 500 }), 'per_page'],
      [shop.products.list({ orderby: 'colour' as never }), 'orderby'],
      [shop.products.get(-1), ''],
      [shop.checkout.place({} as never), 'billing_address'],
      // JSON cannot carry a BigInt: refused by name, not by JSON.stringify's TypeError.
      [shop.checkout.place({ billing_address: { country: 'FR' }, extensions: { x: 1n } }), 'body'],
      [shop.batch([{ method: 'POST', path: 'cart/add-item', body: { id: 1n } }]), '0.body'],
    ];
    for (const [call, field] of cases) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect(requests).toBe(0);
  });

  it('sends an address with an empty email, as a checkout form does before the shopper types one', async () => {
    // BillingAddressSchema.php validate_callback(): only a non-empty email must be valid.
    const shop = storefrontFor(box);
    const cart = await shop.cart.updateCustomer({ billing_address: { email: '', country: 'FR' } });
    expect(cart.billing_address).toMatchObject({ email: '', country: 'FR' });
  });

  it('refuses bad options at construction, naming the field', () => {
    const issues = (options: unknown) => {
      try {
        new StorefrontClient(options as never);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).issues.map((i) => i.path);
      }
      return expect.fail('expected a ValidationError');
    };
    expect(issues({})).toEqual(['url']);
    expect(issues({ url: 'not a url' })).toEqual(['url']);
    expect(issues({ url: 'https://shop.example.com/wp-json/wc/store/v1' })).toEqual(['url']);
    expect(issues({ url: 'https://shop.example.com', cartTokenStore: {} })).toEqual(['cartTokenStore']);
    expect(issues({ url: 'https://shop.example.com', session: 'jwt' })).toEqual(['session']);
    expect(issues({ url: 'https://shop.example.com', credentials: 'always' })).toEqual(['credentials']);
    expect(issues({ url: 'https://shop.example.com', timeout: -1 })).toEqual(['timeout']);
    // The admin client's options would be dropped: keys in a page's bundle for nothing, a baseURL ignored.
    expect(issues({ url: 'https://shop.example.com', consumerKey: 'ck_x', consumerSecret: 'cs_x' })).toEqual([
      'consumerKey',
      'consumerSecret',
    ]);
    expect(issues({ url: 'https://shop.example.com', baseURL: 'https://other.example.com' })).toEqual([
      'baseURL',
    ]);
  });
});

describe('a server that echoes the session', () => {
  let url: string;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const token = String(req.headers['cart-token'] ?? '');
      const nonce = String(req.headers.nonce ?? '');
      res.writeHead(token ? 400 : 200, {
        'content-type': 'application/json',
        'cart-token': 'hdr.echo.token9',
        nonce: 'n0nce0echo',
      });
      res.end(
        token
          ? JSON.stringify({ code: 'echo', message: `token ${token} nonce ${nonce}`, data: { status: 400 } })
          : '{}',
      );
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('never shows the token or nonce it sent in the error or the logs', async () => {
    const { lines, logger } = recordingLogger();
    const shop = new StorefrontClient({ url, rateLimit: false, maxRetries: 0, logger, logLevel: 'debug' });
    // The first answer (no token sent) is no cart: a validation error, which also keeps the session.
    await rejection(shop.cart.get());
    const error = await rejection(shop.cart.get());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain('token [REDACTED] nonce [REDACTED]');
    for (const text of [surfaces(error), ...lines]) {
      expect(text).not.toContain('hdr.echo.token9');
      expect(text).not.toContain('n0nce0echo');
    }
  });
});
