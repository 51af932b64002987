/**
 * The call's cart link against a store that misbehaves, over real sockets (test/helpers/hostile-store.ts:
 * the store behind a proxy that answers in its place): an order read that fails keeps the order key and
 * billing email out of answers and logs; odd, huge or missing answers are bounded 502s or cut short, and the
 * code stays good; a schema-1 database with calls in it migrates and keeps links across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type StorageConfig } from '../../src/server/calls/storage/database.js';
import { migrate, SCHEMA_VERSION } from '../../src/server/calls/storage/schema.js';
import { startServer } from '../../src/server/index.js';
import type { CallView, StorefrontSnapshot } from '../../src/shared/api.js';
import { freshDataDir, removeDataDir } from '../helpers/desk.js';
import {
  expectNoSecrets,
  type HostileDesk,
  isCartRead,
  type Linked,
  startHostileDesk,
} from '../helpers/hostile-store.js';

let h: HostileDesk;
beforeAll(async () => {
  h = await startHostileDesk();
});
afterAll(() => h?.close());
const post = <T>(path: string, body?: unknown) => h.post<T>(path, body);
const customerCart = (quantity: number) => h.customerCart(quantity);
const helpCode = (cartToken: string, order?: unknown) => h.helpCode(cartToken, order);

describe('a store that fails the order read', () => {
  it('keeps the order key and billing email out of the answer and the log, retries included', async () => {
    const token = await customerCart(1);
    const order = {
      id: 4242,
      key: 'wc_order_Hostile0Key1',
      billing_email: 'hostile.shopper+desk@example.com',
    };
    const forms = [
      order.key,
      order.billing_email,
      encodeURIComponent(order.billing_email),
      'hostile.shopper',
    ];
    let orderReads = 0;
    h.proxy.rule = (req) =>
      req.url?.includes('/wc/store/v1/order/') && ++orderReads
        ? {
            status: 503,
            body: JSON.stringify({ code: 'unavailable', message: 'try later', data: { status: 503 } }),
          }
        : undefined;
    const logged = h.desk.logs.length;
    try {
      const res = await fetch(`${h.desk.server.url}/api/calls/${h.callId}/storefront`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: await helpCode(token, order) }),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      const linked = JSON.parse(text) as Linked;
      expect(linked.cart?.order).toBeNull();
      expect(linked.cart?.orderError).toBeTruthy();
      const logs = h.desk.logs.slice(logged).join('\n');
      // The client retried the 503 once (what it logs of a retry names the URL, query and all).
      expect(orderReads).toBe(2);
      for (const secret of [...forms, token]) {
        expect(text).not.toContain(secret);
        expect(logs).not.toContain(secret);
      }
    } finally {
      h.proxy.rule = null;
    }
  });
});

describe('a store whose cart answer is odd but valid', () => {
  it('links a cart whose currency strings are long and full of control characters, cut short', async () => {
    const token = await customerCart(1);
    const res = await fetch(`${h.desk.sandbox.store.url}/wp-json/wc/store/v1/cart`, {
      headers: { 'Cart-Token': token },
    });
    const cart = (await res.json()) as { totals: Record<string, unknown> };
    // Each string as long as the desk keeps (200) and, as JSON, six times that.
    const odd = '\u0001'.repeat(500);
    for (const field of ['currency_code', 'currency_symbol', 'currency_prefix', 'currency_suffix'])
      cart.totals[field] = odd;
    cart.totals.currency_decimal_separator = odd;
    cart.totals.currency_thousand_separator = odd;
    h.proxy.rule = (req) => (isCartRead(req) ? { status: 200, body: JSON.stringify(cart) } : undefined);
    try {
      const linked = await post<Linked>(`/api/calls/${h.callId}/storefront`, { code: await helpCode(token) });
      expect(linked.status).toBe(200);
      // No control character is money's: none is kept.
      expect(linked.body.call.storefront?.currency).toMatchObject({ currency_code: '', currency_symbol: '' });
      // What every call event carries stays small (Pusher's events are at most 10 KB).
      expect(JSON.stringify(linked.body.call).length).toBeLessThan(4096);
    } finally {
      h.proxy.rule = null;
    }
  });
});

describe('a store whose cart answer is huge', () => {
  it('is refused before the desk holds it all, and the code stays good', async () => {
    const token = await customerCart(9);
    const res = await fetch(`${h.desk.sandbox.store.url}/wp-json/wc/store/v1/cart`, {
      headers: { 'Cart-Token': token },
    });
    const cart = (await res.json()) as { items: Record<string, unknown>[] };
    // A valid cart (extra fields are allowed) of 16 MiB; a real one is a few kilobytes.
    cart.items[0]!.description = 'x'.repeat(16 * 1024 * 1024);
    const body = JSON.stringify(cart);
    h.proxy.rule = (req) => (isCartRead(req) ? { status: 200, body } : undefined);
    const code = await helpCode(token);
    try {
      const linked = await post<{ error: { message: string } }>(`/api/calls/${h.callId}/storefront`, {
        code,
      });
      expect(linked.status).toBe(502);
      expect(linked.body.error.message).toMatch(/^the store’s cart could not be read/);
    } finally {
      h.proxy.rule = null;
    }
    expect((await post(`/api/calls/${h.callId}/storefront`, { code })).status).toBe(200);
  });
});

describe('a store that never answers the cart read', () => {
  it('gets a 502 in the end, and the code stays good for when the store answers again', async () => {
    const code = await helpCode(await customerCart(8));
    let release!: () => void;
    const never = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    h.proxy.rule = (req) => (isCartRead(req) && ++held ? never : undefined);
    try {
      const res = await post<{ error: { code: string; message: string } }>(
        `/api/calls/${h.callId}/storefront`,
        {
          code,
        },
      );
      expect(res.status).toBe(502);
      expect(res.body.error.message).toMatch(/^the store’s cart could not be read/);
      expect(held).toBeGreaterThan(0);
    } finally {
      h.proxy.rule = null;
      release();
    }
    const again = await post<Linked>(`/api/calls/${h.callId}/storefront`, { code });
    expect(again.status).toBe(200);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([8]);
  });
});

describe('a database from before the cart link (schema 1) with calls in it', () => {
  for (const kind of ['PGlite', 'PostgreSQL'] as const) {
    it(`on ${kind}: migrates, keeps its calls, links one and keeps the link across a restart`, async () => {
      const storage: StorageConfig =
        kind === 'PGlite'
          ? { dataDir: await freshDataDir() }
          : { databaseUrl: await h.postgres.createDatabase() };
      // Schema 1 as a desk before this one left it: the newest desk's schema with version 2 taken off.
      const db = await openDatabase(storage);
      await migrate(db);
      await db.query(
        'ALTER TABLE desk_calls DROP COLUMN storefront, DROP COLUMN cart, DROP COLUMN storefront_link',
      );
      await db.query('DELETE FROM desk_schema WHERE version > 1');
      const id = '00000000-0000-4000-8000-0000000000a1';
      const old = {
        id,
        name: 'before carts',
        source: 'upload',
        status: 'done',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      await db.query(
        "INSERT INTO desk_calls (id, status, owner, call, analysis) VALUES ($1, 'done', 'old-desk', $2, $3)",
        [id, JSON.stringify(old), JSON.stringify({ note: 'kept' })],
      );
      await db.close();

      const config = { ...h.desk.config, port: 0, storage };
      let server = await startServer(config);
      try {
        const at = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);
        const listed = (await (await at('/api/calls')).json()) as { calls: CallView[] };
        expect(listed.calls.find((c) => c.id === id)).toMatchObject(old);
        expect(listed.calls.find((c) => c.id === id)).not.toHaveProperty('storefront');
        expect((await (await at(`/api/calls/${id}/storefront`)).json()) as Linked).toMatchObject({
          cart: null,
        });
        const token = await customerCart(5);
        const json = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
        const { code } = (await (
          await at('/api/storefront/help', {
            ...json,
            body: JSON.stringify({ cart_token: token, order: null }),
          })
        ).json()) as { code: string };
        const linked = await at(`/api/calls/${id}/storefront`, { ...json, body: JSON.stringify({ code }) });
        expect(linked.status).toBe(200);
        const before = (await (await at(`/api/calls/${id}`)).json()) as CallView & {
          cart: StorefrontSnapshot;
        };
        expect(before.cart.cart?.items.map((i) => i.quantity)).toEqual([5]);

        await server.close();
        server = await startServer(config);
        const after = (await (await at(`/api/calls/${id}`)).json()) as CallView & {
          cart: StorefrontSnapshot;
        };
        expect(after.cart).toEqual(before.cart);
        expect(after.storefront).toEqual(before.storefront);
        const refreshed = await at(`/api/calls/${id}/storefront/refresh`, { method: 'POST' });
        expect(refreshed.status).toBe(200);
        await server.close();
        // The database says version 2 (the server held PGlite's directory until now).
        const check = await openDatabase(storage);
        expect(await check.query('SELECT max(version) AS v FROM desk_schema')).toEqual([
          { v: SCHEMA_VERSION },
        ]);
        await check.close();
      } finally {
        await server.close().catch(() => {});
        if ('dataDir' in storage) await removeDataDir(storage.dataDir);
      }
    });
  }
});

describe('everything this file made the desk say', () => {
  it('holds no cart token, order key or billing email: answers, events and log lines', () => {
    expectNoSecrets(h, /hostile\.shopper/);
  });
});
