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
import type { CallView, StorefrontSnapshot } from '../../src/shared/api.js';
import { type Desk, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

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
let postgres: Postgres;

async function post<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${desk.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A customer with `quantity` of the first purchasable product in their cart; their token. */
async function customerCart(quantity: number): Promise<string> {
  const tokens = new MemoryCartTokenStore();
  const customer = new StorefrontClient({ url: desk.sandbox.store.url, cartTokenStore: tokens });
  const page = await customer.products.list({ per_page: 20, type: 'simple' });
  const product = page.data.find((p) => p.is_purchasable && p.is_in_stock && Number(p.prices.price) > 0);
  await customer.cart.addItem({ id: product!.id, quantity });
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
  const live = await post<{ call: CallView }>('/api/live-calls', { name: 'Hostile cart' });
  callId = live.body.call.id;
});
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await postgres?.close();
});

describe('the call’s cart link under hostile timing', () => {
  it('counts guesses that arrive together against the same limit as guesses sent one by one', async () => {
    const other = (await post<{ call: CallView }>('/api/live-calls', { name: 'Guessed at' })).body.call.id;
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
    // DEFAULT_REFUSALS_PER_MINUTE: the codes looked at this minute, however the guesses arrive.
    expect(looked.length).toBeLessThanOrEqual(30);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(90);
  });
});
