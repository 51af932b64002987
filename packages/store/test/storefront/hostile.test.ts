/**
 * The storefront session against servers that answer what WooCommerce would not, over real sockets
 * (a scripted node:http server): the Cart-Token stays with the shop that gave it, only a refusal the route
 * never saw is repeated, and a token only a cart route's answer gives replaces the held one.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { surfaces } from '../../../core/test/fuzz/answers.js';
import {
  MemoryCartTokenStore,
  RateLimitError,
  RedirectError,
  StorefrontClient,
  ValidationError,
  XError,
} from '../../src/storefront/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/echo-server.js';
import { rejection } from '../helpers/sandbox.js';
import { FRANCE } from './helpers.js';

const TOKEN_A = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF9zaG9wX2EifQ.c2lnbmF0dXJlX3Nob3BfYQ';
const OTHER = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF9vdGhlciJ9.c2lnbmF0dXJlX290aGVy';
const NONCE_A = 'a1b2c3d4e5';

const servers: ScriptedServer[] = [];
async function server(): Promise<ScriptedServer> {
  const started = await startScriptedServer();
  servers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function shop(url: string): StorefrontClient {
  return new StorefrontClient({ url, rateLimit: false, logLevel: 'off', maxRetries: 2 });
}

/** A cart route's answer: an empty list of lines, with the session headers every cart answer carries. */
function cartAnswer(token: string, nonce = NONCE_A): RequestListener {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cart-token': token, nonce });
    res.end('[]');
  };
}

function error(status: number, code: string, headers: Record<string, string> = {}): RequestListener {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ code, message: 'Slow down.', data: { status } }));
  };
}

describe('the Cart-Token and Nonce stay with their shop', () => {
  it('a withOptions() clone pointed at another shop sends it neither the parent cart token nor nonce', async () => {
    const a = await server();
    const b = await server();
    a.fallback = cartAnswer(TOKEN_A);
    b.fallback = cartAnswer(OTHER, 'f9f8f7f6f5');
    const parent = shop(a.url);
    await parent.cart.items.list();
    const clone = parent.withOptions({ url: b.url });
    await clone.cart.items.list();
    await clone.cart.items.clear();
    expect(b.requests.map((r) => [r.headers['cart-token'], r.headers.nonce])).toEqual([
      [undefined, undefined],
      [OTHER, 'f9f8f7f6f5'],
    ]);
    // The parent keeps its own cart, and a clone on the same shop still shares it.
    await parent.cart.items.list();
    await parent.withOptions({ timeout: 30_000 }).cart.items.list();
    expect(a.requests.map((r) => r.headers['cart-token'])).toEqual([undefined, TOKEN_A, TOKEN_A]);

    // A store the user gave holds one shop's token: kept for another shop, it is refused, naming it.
    const given = new StorefrontClient({ url: a.url, cartTokenStore: new MemoryCartTokenStore() });
    const refused = (() => {
      try {
        given.withOptions({ url: b.url });
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).issues[0]?.path).toBe('cartTokenStore');
    expect(given.withOptions({ url: b.url, cartTokenStore: new MemoryCartTokenStore() })).toBeInstanceOf(
      StorefrontClient,
    );
  });
});

describe('a redirect', () => {
  it('to another host carries neither Cart-Token nor Nonce (refused); on the shop, only to a cart route', async () => {
    const a = await server();
    const b = await server();
    const client = shop(a.url);
    a.handlers.push(cartAnswer(TOKEN_A), (_req, res) => {
      res.writeHead(307, { location: `${b.url}/wp-json/wc/store/v1/cart/items` });
      res.end();
    });
    await client.cart.items.list();
    const refused = await rejection(client.cart.items.list());
    expect(refused).toBeInstanceOf(RedirectError);
    expect(b.requests).toHaveLength(0);
    expect(surfaces(refused)).not.toContain(TOKEN_A);

    a.handlers.push((_req, res) => {
      res.writeHead(308, { location: '/wp-json/wc/store/v1/products' });
      res.end();
    });
    await client.cart.items.list();
    expect(
      a.requests.slice(2).map((r) => [r.url.split('?')[0], r.headers['cart-token'], r.headers.nonce]),
    ).toEqual([
      ['/wp-json/wc/store/v1/cart/items', TOKEN_A, NONCE_A],
      ['/wp-json/wc/store/v1/products', undefined, undefined],
    ]);
  });
});

describe('rate_limit_exceeded is repeated only when the route never ran', () => {
  it('a checkout answered rate_limit_exceeded by the route itself (500, or 400 without RateLimit-Retry-After) is sent once', async () => {
    for (const answer of [
      error(500, 'rate_limit_exceeded'),
      error(400, 'rate_limit_exceeded', { 'cart-token': TOKEN_A, nonce: NONCE_A }),
      error(409, 'rate_limit_exceeded', { 'retry-after': '0' }),
    ]) {
      const a = await server();
      a.fallback = answer;
      const failed = await rejection(
        shop(a.url).checkout.place({ billing_address: FRANCE, payment_method: 'cod' }),
      );
      expect(failed).toBeInstanceOf(RateLimitError);
      expect(a.requests.map((r) => r.method)).toEqual(['POST']);
    }
  });

  it("WooCommerce's own refusal (400 with RateLimit-Retry-After) is repeated, and lands once", async () => {
    const a = await server();
    a.handlers.push(
      error(400, 'rate_limit_exceeded', {
        'ratelimit-limit': '2',
        'ratelimit-remaining': '0',
        'ratelimit-retry-after': '0',
      }),
    );
    a.fallback = cartAnswer(TOKEN_A);
    await shop(a.url).cart.items.list();
    expect(a.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });
});

describe('only a cart route answer replaces the held Cart-Token', () => {
  it('a Cart-Token on a products or order answer (sent without the session) is not taken for the cart', async () => {
    const a = await server();
    a.handlers.push(cartAnswer(TOKEN_A), cartAnswer(OTHER));
    a.fallback = cartAnswer(TOKEN_A);
    const client = shop(a.url);
    await client.cart.items.list();
    await client.products.list();
    await client.cart.items.list();
    expect(a.requests.map((r) => [r.url.split('?')[0], r.headers['cart-token']])).toEqual([
      ['/wp-json/wc/store/v1/cart/items', undefined],
      ['/wp-json/wc/store/v1/products', undefined],
      ['/wp-json/wc/store/v1/cart/items', TOKEN_A],
    ]);
  });
});

describe('a token store that never settles', () => {
  it("fails the call within the client's timeout, naming the store method, instead of hanging it", async () => {
    const a = await server();
    a.fallback = cartAnswer(TOKEN_A);
    const never = () => new Promise<never>(() => {});
    const reading = new StorefrontClient({
      url: a.url,
      rateLimit: false,
      logLevel: 'off',
      timeout: 200,
      cartTokenStore: { get: never, set: () => {} },
    });
    const unread = await rejection(reading.cart.items.list());
    expect(unread).toBeInstanceOf(XError);
    expect(String(unread.cause)).toContain('cartTokenStore.get() did not settle within 200 ms');
    expect(a.requests).toHaveLength(0);

    const writing = new StorefrontClient({
      url: a.url,
      rateLimit: false,
      logLevel: 'off',
      timeout: 200,
      cartTokenStore: { get: () => null, set: never },
    });
    const unwritten = await rejection(writing.cart.items.list());
    expect(String(unwritten.cause)).toContain('cartTokenStore.set() did not settle within 200 ms');
    expect(a.requests).toHaveLength(1);
  });
});

describe('cart.forget()', () => {
  it('is not undone by a late answer of a call sent with the forgotten cart', async () => {
    const a = await server();
    // The same cart (user_id t_shop_a) as TOKEN_A, in a token issued later.
    const later = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF9zaG9wX2EifQ.c2lnbmF0dXJlX2xhdGVy';
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let answer!: () => void;
    a.handlers.push(cartAnswer(TOKEN_A), (req, res) => {
      answer = () => cartAnswer(later)(req, res);
      arrived();
    });
    a.fallback = cartAnswer(OTHER);
    const client = shop(a.url);
    await client.cart.items.list();
    const late = client.cart.items.list();
    await inFlight;
    await client.cart.forget();
    answer();
    await late;
    await client.cart.items.list();
    await client.cart.items.list();
    expect(a.requests.map((r) => r.headers['cart-token'])).toEqual([undefined, TOKEN_A, undefined, OTHER]);
  });
});

describe('a token store whose own error quotes the token', () => {
  it('shows it in no cause of the error the call fails with', async () => {
    const a = await server();
    a.fallback = cartAnswer(TOKEN_A);
    const client = new StorefrontClient({
      url: a.url,
      rateLimit: false,
      logLevel: 'off',
      cartTokenStore: {
        get: () => null,
        set: (token) => {
          throw new Error(`SET cart:visitor ${token} failed: READONLY`, { cause: `wrote ${token}` });
        },
      },
    });
    const failed = await rejection(client.cart.items.list());
    expect(failed).toBeInstanceOf(XError);
    expect(inspect(failed, { depth: 10 })).toContain('READONLY');
    expect(inspect(failed, { depth: 10 })).not.toContain(TOKEN_A);
  });
});

describe('a batch whose sub-response token the store fails to save', () => {
  it('fails with an error that quotes neither that token nor the nonce', async () => {
    const a = await server();
    a.fallback = (_req, res) => {
      res.writeHead(207, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          responses: [{ body: {}, status: 201, headers: { 'Cart-Token': OTHER, Nonce: NONCE_A } }],
        }),
      );
    };
    const client = new StorefrontClient({
      url: a.url,
      rateLimit: false,
      logLevel: 'off',
      cartTokenStore: {
        get: () => null,
        set: (token) => {
          throw new Error(`SET cart:visitor ${token} failed: READONLY`);
        },
      },
    });
    const failed = await rejection(
      client.batch([{ method: 'POST', path: 'cart/add-item', body: { id: 1 } }]),
    );
    expect(failed).toBeInstanceOf(XError);
    expect(inspect(failed, { depth: 10 })).toContain('READONLY');
    expect(inspect(failed, { depth: 10 })).not.toContain(OTHER);
  });
});

describe('a fetch of the user that follows redirects itself', () => {
  it("does not make another host's Cart-Token the shop's", async () => {
    const a = await server();
    const b = await server();
    b.fallback = cartAnswer(OTHER);
    a.handlers.push(cartAnswer(TOKEN_A), (_req, res) => {
      res.writeHead(307, { location: `${b.url}/wp-json/wc/store/v1/cart/items` });
      res.end();
    });
    a.fallback = cartAnswer(TOKEN_A);
    const client = new StorefrontClient({
      url: a.url,
      rateLimit: false,
      logLevel: 'off',
      fetch: (input, init) => fetch(input, { ...init, redirect: 'follow' }),
    });
    await client.cart.items.list();
    await client.cart.items.list();
    await client.cart.items.list();
    expect(a.requests.map((r) => r.headers['cart-token'])).toEqual([undefined, TOKEN_A, TOKEN_A]);
  });
});

describe('a server that hands out a one-character Cart-Token', () => {
  it('is answered, though core then redacts that character from the URL it shows', async () => {
    const a = await server();
    a.fallback = cartAnswer('0');
    const client = shop(a.url);
    await client.cart.items.list();
    await expect(client.cart.items.list()).resolves.toEqual([]);
    expect(a.requests.map((r) => r.headers['cart-token'])).toEqual([undefined, '0']);
  });
});

describe("a checkout's additional_fields", () => {
  it('are sent (CheckoutSchema.php takes them, and requires them when a shop adds a required field)', async () => {
    const bodies: unknown[] = [];
    const box = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(text || 'null'));
        res.writeHead(400, { 'content-type': 'application/json', 'cart-token': TOKEN_A });
        res.end(
          JSON.stringify({ code: 'woocommerce_rest_cart_empty', message: 'Empty.', data: { status: 400 } }),
        );
      });
    });
    await new Promise<void>((resolve) => box.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(box.address() as AddressInfo).port}`;
      const additional_fields = { 'my-plugin/gift-note': 'Happy birthday', 'my-plugin/gift-wrap': true };
      await rejection(
        shop(url).checkout.place({ billing_address: FRANCE, payment_method: 'cod', additional_fields }),
      );
      expect(bodies).toEqual([{ billing_address: FRANCE, payment_method: 'cod', additional_fields }]);
    } finally {
      await new Promise<void>((resolve) => box.close(() => resolve()));
    }
  });
});
