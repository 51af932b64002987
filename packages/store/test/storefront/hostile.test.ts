/**
 * The storefront session against servers that answer what WooCommerce would not, over real sockets
 * (a scripted node:http server): the Cart-Token stays with the shop that gave it, only a refusal the route
 * never saw is repeated, and a token only a cart route's answer gives replaces the held one.
 */
import type { RequestListener } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MemoryCartTokenStore,
  StorefrontClient,
  ValidationError,
} from '../../src/storefront/index.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/echo-server.js';

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
