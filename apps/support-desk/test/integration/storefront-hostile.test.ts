/**
 * The call's cart link under hostile timing and a store that misbehaves, over real sockets: the desk talks
 * to the sandbox's store through a small HTTP proxy of this file's that can hold a request back or answer
 * in the store's place. Guesses sent all at once are bounded like guesses sent one by one; a link or
 * refresh that finishes late never replaces a newer one; a store that fails the order read leaves the
 * order key and billing email out of the desk's log.
 */
import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { MemoryCartTokenStore, StorefrontClient } from '@x/store/storefront';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type StorageConfig } from '../../src/server/calls/storage/database.js';
import { migrate, SCHEMA_VERSION } from '../../src/server/calls/storage/schema.js';
import { startServer } from '../../src/server/index.js';
import { DEFAULT_CODES_PER_MINUTE } from '../../src/server/storefront/guesses.js';
import { DEFAULT_CODE_TTL_MS, DEFAULT_MAX_CODES } from '../../src/server/storefront/help-codes.js';
import type { CallView, StorefrontSnapshot } from '../../src/shared/api.js';
import { type Desk, freshDataDir, removeDataDir, startDesk } from '../helpers/desk.js';
import { listen } from '../helpers/listener.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

/** A JSON Web Token, as WooCommerce's Cart-Token is (StoreApi/Utilities/JsonWebToken.php). */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

type Linked = { call: CallView; cart: StorefrontSnapshot | null };

/** Decides for one request to the store: pass it on (undefined), answer in its place, or wait first. */
type Rule = (req: IncomingMessage) => { status: number; body: string } | Promise<void> | undefined;

/** A proxy in front of the store: every request goes through `rule` first. */
async function storeProxy(): Promise<{
  url: string;
  target: string;
  rule: Rule | null;
  close(): Promise<void>;
}> {
  const proxy = {
    url: '',
    /** The store's URL, known once the sandbox runs. */
    target: '',
    rule: null as Rule | null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const decided = proxy.rule?.(req);
    if (decided instanceof Promise) await decided;
    else if (decided) {
      res.writeHead(decided.status, { 'Content-Type': 'application/json' }).end(decided.body);
      return;
    }
    const to = new URL(proxy.target);
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

let desk: Desk;
let proxy: Awaited<ReturnType<typeof storeProxy>>;
let callId: string;
let liveKey: string;
/** Every answer `post` got and every event a tab heard, searched for secrets at the end. */
const answered: string[] = [];
let everyEvent: Awaited<ReturnType<typeof listen>>;
let postgres: Postgres;

async function post<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${desk.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  const text = await res.text();
  answered.push(text);
  return { status: res.status, body: JSON.parse(text) as T };
}

/** A customer with `quantity` of the first purchasable product in their cart; their token. */
async function customerCart(quantity: number): Promise<string> {
  const tokens = new MemoryCartTokenStore();
  const customer = new StorefrontClient({ url: desk.sandbox.store.url, cartTokenStore: tokens });
  const page = await customer.products.list({ per_page: 20, type: 'simple' });
  const product = page.data.find((p) => p.is_purchasable && p.is_in_stock && Number(p.prices.price) > 0);
  await customer.cart.addItem({ id: product!.id, quantity });
  // The shape the last test looks for in everything the desk said.
  expect(tokens.get()).toMatch(JWT);
  return tokens.get()!;
}

async function helpCode(cartToken: string, order: unknown = null): Promise<string> {
  const { status, body } = await post<{ code: string }>('/api/storefront/help', {
    cart_token: cartToken,
    order,
  });
  expect(status).toBe(201);
  return body.code;
}

/** The quantities of the cart stored on call `id`. */
const quantities = async (id: string) => {
  const { body } = await fetch(`${desk.server.url}/api/calls/${id}/storefront`).then(async (r) => ({
    body: (await r.json()) as Linked,
  }));
  return body.cart?.cart?.items.map((i) => i.quantity);
};
const isCartRead = (req: IncomingMessage) =>
  req.method === 'GET' && /\/wc\/store\/v1\/cart\b/.test(req.url ?? '');

/** Holds the next cart read until `release`; `reached` resolves once it arrived. */
function holdNextCartRead(): { reached: Promise<void>; release(): void } {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  proxy.rule = (req) => {
    if (!isCartRead(req)) return undefined;
    proxy.rule = null;
    reached();
    return gate;
  };
  return { reached: arrived, release };
}

beforeAll(async () => {
  proxy = await storeProxy();
  // PostgreSQL, as deployed: its queries take a round trip, in which other requests run.
  postgres = await startPostgres();
  desk = await startDesk((base) => {
    proxy.target = base.store.url;
    return {
      staticDir: undefined,
      store: { ...base.store, url: proxy.url },
      storage: { databaseUrl: postgres.url },
    };
  });
  const live = await post<{ call: CallView; key: string }>('/api/live-calls', { name: 'Hostile cart' });
  everyEvent = await listen(desk);
  callId = live.body.call.id;
  liveKey = live.body.key;
});
afterAll(async () => {
  everyEvent?.close();
  await desk?.close();
  await proxy?.close();
  await postgres?.close();
});

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
    proxy.rule = (req) =>
      req.url?.includes('/wc/store/v1/order/') && ++orderReads
        ? {
            status: 503,
            body: JSON.stringify({ code: 'unavailable', message: 'try later', data: { status: 503 } }),
          }
        : undefined;
    const logged = desk.logs.length;
    try {
      const res = await fetch(`${desk.server.url}/api/calls/${callId}/storefront`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: await helpCode(token, order) }),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      const linked = JSON.parse(text) as Linked;
      expect(linked.cart?.order).toBeNull();
      expect(linked.cart?.orderError).toBeTruthy();
      const logs = desk.logs.slice(logged).join('\n');
      // The client retried the 503 once (what it logs of a retry names the URL, query and all).
      expect(orderReads).toBe(2);
      for (const secret of [...forms, token]) {
        expect(text).not.toContain(secret);
        expect(logs).not.toContain(secret);
      }
    } finally {
      proxy.rule = null;
    }
  });
});

describe('a store whose cart answer is odd but valid', () => {
  it('links a cart whose currency strings are long and full of control characters, cut short', async () => {
    const token = await customerCart(1);
    const res = await fetch(`${desk.sandbox.store.url}/wp-json/wc/store/v1/cart`, {
      headers: { 'Cart-Token': token },
    });
    const cart = (await res.json()) as { totals: Record<string, unknown> };
    // Each string as long as the desk keeps (200) and, as JSON, six times that.
    const odd = '\u0001'.repeat(500);
    for (const field of ['currency_code', 'currency_symbol', 'currency_prefix', 'currency_suffix'])
      cart.totals[field] = odd;
    cart.totals.currency_decimal_separator = odd;
    cart.totals.currency_thousand_separator = odd;
    proxy.rule = (req) => (isCartRead(req) ? { status: 200, body: JSON.stringify(cart) } : undefined);
    try {
      const linked = await post<Linked>(`/api/calls/${callId}/storefront`, { code: await helpCode(token) });
      expect(linked.status).toBe(200);
      // No control character is money's: none is kept.
      expect(linked.body.call.storefront?.currency).toMatchObject({ currency_code: '', currency_symbol: '' });
      // What every call event carries stays small (Pusher's events are at most 10 KB).
      expect(JSON.stringify(linked.body.call).length).toBeLessThan(4096);
    } finally {
      proxy.rule = null;
    }
  });
});

describe('a store whose cart answer is huge', () => {
  it('is refused before the desk holds it all, and the code stays good', async () => {
    const token = await customerCart(9);
    const res = await fetch(`${desk.sandbox.store.url}/wp-json/wc/store/v1/cart`, {
      headers: { 'Cart-Token': token },
    });
    const cart = (await res.json()) as { items: Record<string, unknown>[] };
    // A valid cart (extra fields are allowed) of 16 MiB; a real one is a few kilobytes.
    cart.items[0]!.description = 'x'.repeat(16 * 1024 * 1024);
    const body = JSON.stringify(cart);
    proxy.rule = (req) => (isCartRead(req) ? { status: 200, body } : undefined);
    const code = await helpCode(token);
    try {
      const linked = await post<{ error: { message: string } }>(`/api/calls/${callId}/storefront`, { code });
      expect(linked.status).toBe(502);
      expect(linked.body.error.message).toMatch(/^the store’s cart could not be read/);
    } finally {
      proxy.rule = null;
    }
    expect((await post(`/api/calls/${callId}/storefront`, { code })).status).toBe(200);
  });
});

describe('links and refreshes that finish out of order', () => {
  /** The previous test's call, ended here: three live calls may be open at once. */
  let previous: { id: string; key: string } | null = null;
  const newCall = async () => {
    if (previous) {
      const ended = await fetch(`${desk.server.url}/api/live-calls/${previous.id}/end`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': previous.key },
        body: '{}',
      });
      expect(ended.status).toBe(202);
    }
    const started = await post<{ call: CallView; key: string }>('/api/live-calls', { name: 'Race' });
    previous = { id: started.body.call.id, key: started.body.key };
    return previous.id;
  };

  it('a refresh of the old link that ends after a new code was linked does not bring the old cart back', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(1), customerCart(2)]);
    expect((await post(`/api/calls/${id}/storefront`, { code: await helpCode(first) })).status).toBe(200);
    const secondCode = await helpCode(second);
    const held = holdNextCartRead();
    const refresh = post<Linked>(`/api/calls/${id}/storefront/refresh`);
    await held.reached;
    const linked = await post<Linked>(`/api/calls/${id}/storefront`, { code: secondCode });
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
    held.release();
    const late = await refresh;
    // The late refresh read the first customer's cart; what the call keeps is the second one's.
    expect(late.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
    expect(await quantities(id)).toEqual([2]);
    // And the link it keeps is the second customer's: a refresh now reads their cart.
    const again = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([2]);
  });

  it('a code read while the old link is refreshed replaces it all the same', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(14), customerCart(15)]);
    expect((await post(`/api/calls/${id}/storefront`, { code: await helpCode(first) })).status).toBe(200);
    const secondCode = await helpCode(second);
    const held = holdNextCartRead();
    const linking = post<Linked>(`/api/calls/${id}/storefront`, { code: secondCode });
    await held.reached;
    // Read after the new code's read began, stored before it: the old link's snapshot is the later read.
    const refreshed = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(refreshed.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([14]);
    held.release();
    const linked = await linking;
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([15]);
    expect(await quantities(id)).toEqual([15]);
    // What the call shows is its newest read, so an open page (which keeps the newest) shows it too.
    expect(linked.body.cart!.readAt > refreshed.body.cart!.readAt).toBe(true);
  });

  it('a code linked first but read last does not replace the code linked after it', async () => {
    const id = await newCall();
    const [first, second] = await Promise.all([customerCart(3), customerCart(4)]);
    const [firstCode, secondCode] = [await helpCode(first), await helpCode(second)];
    const held = holdNextCartRead();
    const slow = post<{ error: { code: string } }>(`/api/calls/${id}/storefront`, { code: firstCode });
    await held.reached;
    expect((await post(`/api/calls/${id}/storefront`, { code: secondCode })).status).toBe(200);
    held.release();
    const late = await slow;
    expect([late.status, late.body.error?.code]).toEqual([409, 'link_superseded']);
    expect(await quantities(id)).toEqual([4]);
    const again = await post<Linked>(`/api/calls/${id}/storefront/refresh`);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([4]);
  });
});

describe('a database from before the cart link (schema 1) with calls in it', () => {
  for (const kind of ['PGlite', 'PostgreSQL'] as const) {
    it(`on ${kind}: migrates, keeps its calls, links one and keeps the link across a restart`, async () => {
      const storage: StorageConfig =
        kind === 'PGlite'
          ? { dataDir: await freshDataDir() }
          : { databaseUrl: await postgres.createDatabase() };
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

      const config = { ...desk.config, port: 0, storage };
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

describe('a call that changes while its cart is read', () => {
  it('is announced as it is now, not as it was when the link began', async () => {
    const code = await helpCode(await customerCart(7));
    const tab = await listen(desk);
    try {
      const held = holdNextCartRead();
      const linking = post<Linked>(`/api/calls/${callId}/storefront`, { code });
      await held.reached;
      const ended = await fetch(`${desk.server.url}/api/live-calls/${callId}/end`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': liveKey },
        body: '{}',
      });
      expect(ended.status).toBe(202);
      const status = ((await ended.json()) as { call: CallView }).call.status;
      expect(status).not.toBe('live');
      held.release();
      const linked = await linking;
      expect(linked.status).toBe(200);
      const readAt = linked.body.cart?.readAt;
      expect(linked.body.call.status).not.toBe('live');
      for (let i = 0; i < 100 && !tab.of('call-status').some((c) => c.storefront?.readAt === readAt); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const announced = tab.of('call-status').filter((c: CallView) => c.storefront?.readAt === readAt);
      expect(announced).toHaveLength(1);
      expect(announced[0].status).not.toBe('live');
    } finally {
      tab.close();
    }
  });
});

describe('two agents and two customers at once', () => {
  it('links one code to one call only, and each call shows its own customer’s cart', async () => {
    const other = (await post<{ call: CallView }>('/api/live-calls', { name: 'Second agent' })).body.call.id;
    expect(other).toBeTruthy();
    const shared = await helpCode(await customerCart(10));
    const both = await Promise.all([
      post<Linked>(`/api/calls/${callId}/storefront`, { code: shared }),
      post<Linked>(`/api/calls/${other}/storefront`, { code: shared }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const [winner, loser] = both[0]!.status === 200 ? [callId, other] : [other, callId];
    expect(await quantities(winner)).toEqual([10]);
    expect(await quantities(loser)).not.toEqual([10]);

    const [mine, theirs] = await Promise.all([customerCart(12), customerCart(13)]);
    const [mineCode, theirsCode] = [await helpCode(mine), await helpCode(theirs)];
    const linked = await Promise.all([
      post<Linked>(`/api/calls/${callId}/storefront`, { code: mineCode }),
      post<Linked>(`/api/calls/${other}/storefront`, { code: theirsCode }),
    ]);
    expect(linked.map((r) => r.status)).toEqual([200, 200]);
    expect(await quantities(callId)).toEqual([12]);
    expect(await quantities(other)).toEqual([13]);
    const refreshed = await Promise.all(
      [callId, other].map((id) => post<Linked>(`/api/calls/${id}/storefront/refresh`)),
    );
    expect(refreshed.map((r) => r.body.cart?.cart?.items.map((i) => i.quantity))).toEqual([[12], [13]]);
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
    proxy.rule = (req) => (isCartRead(req) && ++held ? never : undefined);
    try {
      const res = await post<{ error: { code: string; message: string } }>(
        `/api/calls/${callId}/storefront`,
        {
          code,
        },
      );
      expect(res.status).toBe(502);
      expect(res.body.error.message).toMatch(/^the store’s cart could not be read/);
      expect(held).toBeGreaterThan(0);
    } finally {
      proxy.rule = null;
      release();
    }
    const again = await post<Linked>(`/api/calls/${callId}/storefront`, { code });
    expect(again.status).toBe(200);
    expect(again.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([8]);
  });
});

describe('a flood of help requests', () => {
  it('costs no customer the code they were given', async () => {
    const code = await helpCode(await customerCart(6));
    const statuses: number[] = [];
    // More than the codes held at once (10,000), a hundred at a time.
    for (let sent = 0; sent < 10_100; sent += 100) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, () =>
          fetch(`${desk.server.url}/api/storefront/help`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ cart_token: `flood.${sent}`, order: null }),
          }).then(async (res) => {
            await res.arrayBuffer();
            return res.status;
          }),
        ),
      );
      statuses.push(...batch);
    }
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    // A minute's codes, and a minute's codes times their lifetime fit in what the desk holds.
    expect(statuses.filter((status) => status === 201).length).toBeLessThan(DEFAULT_CODES_PER_MINUTE);
    expect(DEFAULT_CODES_PER_MINUTE * (DEFAULT_CODE_TTL_MS / 60_000)).toBeLessThan(DEFAULT_MAX_CODES);
    const linked = await post<Linked>(`/api/calls/${callId}/storefront`, { code });
    expect(linked.status).toBe(200);
    expect(linked.body.cart?.cart?.items.map((i) => i.quantity)).toEqual([6]);
  });
});

describe('the call’s cart link under hostile timing', () => {
  it('counts guesses that arrive together against the same limit as guesses sent one by one', async () => {
    const other = callId;
    const { port } = new URL(desk.server.url);
    // Each guess on its own connection, its body short of the last byte until every one is in: then the
    // desk reads all of them at once, as it would under a burst from many clients.
    const sockets = await Promise.all(
      Array.from({ length: 120 }, async () => {
        const body = JSON.stringify({ code: String(randomInt(0, 1_000_000)).padStart(6, '0') });
        const socket = connect(Number(port), '127.0.0.1');
        await once(socket, 'connect');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          answer += chunk;
        });
        const ended = once(socket, 'end').then(() => answer);
        socket.write(
          `POST /api/calls/${other}/storefront HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, -1)}`,
        );
        return { socket, last: body.slice(-1), ended };
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const s of sockets) s.socket.write(s.last);
    const statuses = (await Promise.all(sockets.map((s) => s.ended))).map((text) =>
      Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]),
    );
    const looked = statuses.filter((status) => status !== 429);
    expect(looked.every((status) => status === 404)).toBe(true);
    // DEFAULT_REFUSALS_PER_MINUTE (30): the codes looked at this minute, however the guesses arrive.
    expect(looked.length).toBeLessThanOrEqual(30);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
  });
});

describe('everything this file made the desk say', () => {
  it('holds no cart token, order key or billing email: answers, events and log lines', () => {
    const said = [...answered, ...everyEvent.events.map((e) => JSON.stringify(e.data)), ...desk.logs];
    expect(everyEvent.of('call-status').length).toBeGreaterThan(0);
    const text = said.join('\n');
    // Any JWT (every Cart-Token is one, the desk's renewed ones too), any order key, the test's emails.
    expect(text).not.toMatch(JWT);
    expect(text).not.toMatch(/wc_order_\w+/);
    expect(text).not.toMatch(/hostile\.shopper/);
  });
});
