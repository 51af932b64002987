/**
 * The shopper's session over real sockets: the Cart-Token kept in a pluggable store and sent back, a second
 * client resuming the cart from that store, an expired token replaced by the fresh one the Store API answers
 * with, the first token awaited before a burst of cart calls, and the cookie session with its nonce.
 */
import { describe, expect, it } from 'vitest';
import {
  type CartTokenStore,
  MemoryCartTokenStore,
  type StorefrontClientOptions,
  webStorageCartTokenStore,
} from '../../src/storefront/index.js';
import { clientFor, sandbox, sandboxForFile } from '../helpers/sandbox.js';
import { storefrontFor } from './helpers.js';

const box = sandboxForFile();

/** An asynchronous store, as a server keeping tokens in Redis or its own session would be. */
class AsyncStore implements CartTokenStore {
  value: string | null = null;
  readonly written: string[] = [];
  async get() {
    return this.value;
  }
  async set(token: string) {
    this.value = token;
    this.written.push(token);
  }
}

/** Records the Cart-Token and Nonce each attempt went out with (hooks see headers after the session's). */
function sentHeaders(): { sent: Array<{ url: string; token: string | null; nonce: string | null }> } & Pick<
  StorefrontClientOptions,
  'hooks'
> {
  const sent: Array<{ url: string; token: string | null; nonce: string | null }> = [];
  return {
    sent,
    hooks: {
      beforeRequest: ({ url, headers }) => {
        sent.push({ url, token: headers.get('cart-token'), nonce: headers.get('nonce') });
      },
    },
  };
}

async function product(name: string, price = '10.00'): Promise<number> {
  return (await clientFor(box).products.create({ name, regular_price: price })).id;
}

describe('Cart-Token', () => {
  it('is kept in the given store, sent back, and resumes the cart in a second client', async () => {
    const id = await product('Token Tee');
    const tokens = new AsyncStore();
    const { sent, hooks } = sentHeaders();
    const first = storefrontFor(box, { cartTokenStore: tokens, hooks });
    await first.cart.addItem({ id, quantity: 3 });
    expect(tokens.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    // The first cart call has neither token nor nonce, which an updating call needs without a token: the
    // Store API refuses it (401 woocommerce_rest_missing_nonce) with both in its headers, and the client
    // repeats it once with them.
    expect(sent.map((s) => s.url.replace(/^.*\/v1/, ''))).toEqual(['/cart/add-item', '/cart/add-item']);
    expect(sent[0]).toMatchObject({ token: null, nonce: null });
    expect(sent[1]!.token).toBe(tokens.written[0]);
    expect(sent[1]!.nonce).toMatch(/^[0-9a-f]{10}$/);
    const held = tokens.value;
    await first.cart.get();
    expect(sent[2]!.token).toBe(held);
    // Product routes do not read the cart: no session headers on them.
    await first.products.list();
    expect(sent[3]).toMatchObject({ token: null, nonce: null });

    const second = storefrontFor(box, { cartTokenStore: tokens });
    const resumed = await second.cart.get();
    expect(resumed.items.map((i) => [i.id, i.quantity])).toEqual([[id, 3]]);

    // withOptions() clones share the default memory store, so they keep the cart too.
    const memory = storefrontFor(box);
    await memory.cart.addItem({ id, quantity: 1 });
    expect((await memory.withOptions({ timeout: 30_000 }).cart.get()).items_count).toBe(1);
  });

  it('a page on another origin, which CORS lets read the Cart-Token but not the Nonce, still adds on its first call', async () => {
    const id = await product('Cross Origin Cup');
    // What a browser hands a cross-origin page: only the headers Access-Control-Expose-Headers names.
    const corsView: StorefrontClientOptions['fetch'] = async (input, init) => {
      const response = await fetch(input, init);
      const exposed = (response.headers.get('access-control-expose-headers') ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase());
      const headers = new Headers();
      response.headers.forEach((value, name) => {
        if (name !== 'nonce' || exposed.includes('nonce')) headers.set(name, value);
      });
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    };
    const { sent, hooks } = sentHeaders();
    const page = storefrontFor(box, { fetch: corsView, hooks });
    expect((await page.cart.addItem({ id })).items_count).toBe(1);
    // Refused once without token or nonce; repeated with the token the refusal brought, never with a nonce.
    expect(sent.map((s) => [s.token !== null, s.nonce !== null])).toEqual([
      [false, false],
      [true, false],
    ]);
  });

  it('webStorageCartTokenStore keeps the token under its key and survives a storage that throws', async () => {
    const id = await product('Storage Mug');
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    const shop = storefrontFor(box, { cartTokenStore: webStorageCartTokenStore(storage, 'cart') });
    await shop.cart.addItem({ id });
    expect(data.get('cart')).toMatch(/^[\w-]+\./);
    const reloaded = storefrontFor(box, { cartTokenStore: webStorageCartTokenStore(storage, 'cart') });
    expect((await reloaded.cart.get()).items.map((i) => i.id)).toEqual([id]);
    await reloaded.cart.forget();
    expect(data.has('cart')).toBe(false);

    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    const privateMode = storefrontFor(box, { cartTokenStore: webStorageCartTokenStore(broken) });
    expect((await privateMode.cart.addItem({ id })).items_count).toBe(1);
  });

  it('sends a burst of cart calls after the first has its token: one cart holds every item', async () => {
    const ids = await Promise.all(['Burst A', 'Burst B', 'Burst C', 'Burst D'].map((n) => product(n)));
    const tokens = new AsyncStore();
    const shop = storefrontFor(box, { cartTokenStore: tokens });
    await Promise.all(ids.map((id) => shop.cart.addItem({ id })));
    const cart = await shop.cart.get();
    expect(cart.items.map((i) => i.id).sort()).toEqual([...ids].sort());
  });
});

describe('plain permalinks', () => {
  it('reach the same cart through ?rest_route=, the session sent as on pretty URLs', async () => {
    const id = await product('Plain Cup');
    const tokens = new AsyncStore();
    const { sent, hooks } = sentHeaders();
    const plain = storefrontFor(box, { permalinks: 'plain', cartTokenStore: tokens, hooks });
    await plain.cart.addItem({ id });
    expect(sent.at(-1)!.url).toMatch(/\/\?rest_route=%2Fwc%2Fstore%2Fv1%2Fcart%2Fadd-item$/);
    expect(sent.at(-1)!.token).toBe(tokens.written[0]);
    expect((await storefrontFor(box, { cartTokenStore: tokens }).cart.get()).items.map((i) => i.id)).toEqual([
      id,
    ]);
    expect((await plain.products.list({ search: 'Plain Cup' })).total).toBe(1);
  });
});

describe('a forged Cart-Token', () => {
  it('is replaced by the token of the new cart the Store API answers with', async () => {
    const id = await product('Forgery');
    const tokens = new AsyncStore();
    tokens.value = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VyX2lkIjoidF9ub2JvZHkifQ.bm90LWEtc2lnbmF0dXJl';
    const shop = storefrontFor(box, { cartTokenStore: tokens });
    expect((await shop.cart.addItem({ id })).items_count).toBe(1);
    expect(tokens.value).not.toContain('bm90LWEtc2lnbmF0dXJl');
    expect((await storefrontFor(box, { cartTokenStore: tokens }).cart.get()).items_count).toBe(1);
  });

  it('met by a burst of cart calls (a page reloaded after two days): one new cart holds every item', async () => {
    const ids = await Promise.all(['Stale A', 'Stale B', 'Stale C', 'Stale D'].map((n) => product(n)));
    const tokens = new AsyncStore();
    tokens.value = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1c2VyX2lkIjoidF9zdGFsZSJ9.bm90LWEtc2lnbmF0dXJl';
    const shop = storefrontFor(box, { cartTokenStore: tokens });
    await Promise.all(ids.map((id) => shop.cart.addItem({ id })));
    const cart = await shop.cart.get();
    expect(cart.items.map((i) => i.id).sort()).toEqual([...ids].sort());
  });
});

describe('an expired Cart-Token', () => {
  it('is replaced by the token of the new cart the Store API answers with', async () => {
    const short = await sandbox({ store: { storeApi: { cartTokenTtlSeconds: 1 } } });
    try {
      const id = (await clientFor(short).products.create({ name: 'Brief', regular_price: '1.00' })).id;
      const tokens = new AsyncStore();
      const shop = storefrontFor(short, { cartTokenStore: tokens });
      expect((await shop.cart.addItem({ id })).items_count).toBe(1);
      const old = tokens.value!;
      const exp = JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString()).exp as number;
      // Past the token's `exp` (JsonWebToken::validate() fails once time() > exp).
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 + 1100 - Date.now()));
      const fresh = await shop.cart.get();
      expect(fresh.items).toEqual([]);
      expect(tokens.value).not.toBe(old);
      const claims = JSON.parse(Buffer.from(tokens.value!.split('.')[1]!, 'base64url').toString());
      const oldClaims = JSON.parse(Buffer.from(old.split('.')[1]!, 'base64url').toString());
      expect(claims.user_id).not.toBe(oldClaims.user_id);
    } finally {
      await short.close();
    }
  });
});

describe('cookie session', () => {
  it('keeps the cart by WooCommerce session cookie, sending the Nonce and no Cart-Token', async () => {
    const id = await product('Cookie Jar');
    // What a browser does for a page on the shop's own site: keep the session cookie and send it back.
    let cookie = '';
    const jar: StorefrontClientOptions['fetch'] = async (input, init) => {
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(input, { ...init, headers });
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0]!;
      return response;
    };
    const { sent, hooks } = sentHeaders();
    const shop = storefrontFor(box, { session: 'cookie', fetch: jar, hooks });
    // No nonce yet: the Store API refuses (401 woocommerce_rest_missing_nonce) and sends one; the client
    // repeats the refused call once with it.
    const added = await shop.cart.addItem({ id, quantity: 2 });
    expect(added.items_count).toBe(2);
    expect(sent.map((s) => s.nonce === null)).toEqual([true, false]);
    expect(cookie).toMatch(/^wp_woocommerce_session_/);
    expect((await shop.cart.get()).items.map((i) => [i.id, i.quantity])).toEqual([[id, 2]]);
    expect(sent.every((s) => s.token === null)).toBe(true);
    // A withOptions() clone keeps the session: its first update goes once, with the nonce.
    const clone = shop.withOptions({ timeout: 30_000 });
    const before = sent.length;
    expect((await clone.cart.addItem({ id })).items_count).toBe(3);
    expect(sent.slice(before).map((s) => s.nonce === null)).toEqual([false]);

    // `credentials` rides on every request's fetch (browsers send the shop's cookies cross-origin with it).
    const modes: Array<RequestCredentials | undefined> = [];
    const browserLike = storefrontFor(box, {
      session: 'cookie',
      credentials: 'include',
      fetch: (input, init) => {
        modes.push(init.credentials);
        return jar(input, init);
      },
    });
    expect((await browserLike.cart.get()).items_count).toBe(3);
    expect(modes).toEqual(['include']);

    // Another cookie-less client sees an empty cart: the cookie, not a token, held this one.
    expect((await storefrontFor(box, { session: 'cookie' }).cart.get()).items).toEqual([]);
  });

  it('the default memory store forgets nothing between calls and is replaceable', async () => {
    const store = new MemoryCartTokenStore();
    expect(store.get()).toBeNull();
    store.set('a.b.c');
    expect(store.get()).toBe('a.b.c');
    store.clear();
    expect(store.get()).toBeNull();
  });
});
