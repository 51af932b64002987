/**
 * A desk whose store sits behind a small HTTP proxy that can hold a request back or answer in the store's
 * place (the storefront link's hostile tests), on PostgreSQL as deployed: its queries take a round trip,
 * in which other requests run. Everything the desk answered and announced is kept, to search for secrets.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryCartTokenStore, StorefrontClient } from '@x/store/storefront';
import { expect } from 'vitest';
import type { CallView, StorefrontSnapshot } from '../../src/shared/api.js';
import { type Desk, startDesk } from './desk.js';
import { listen } from './listener.js';
import { type Postgres, startPostgres } from './postgres.js';

/** A JSON Web Token, as WooCommerce's Cart-Token is (StoreApi/Utilities/JsonWebToken.php). */
export const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

export type Linked = { call: CallView; cart: StorefrontSnapshot | null };

/** Decides for one request to the store: pass it on (undefined), answer in its place, or wait first. */
export type Rule = (req: IncomingMessage) => { status: number; body: string } | Promise<void> | undefined;

export interface StoreProxy {
  url: string;
  /** The store's URL, known once the sandbox runs. */
  target: string;
  /** Every request goes through it first. */
  rule: Rule | null;
  close(): Promise<void>;
}

async function storeProxy(): Promise<StoreProxy> {
  const proxy: StoreProxy = {
    url: '',
    target: '',
    rule: null,
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

export const isCartRead = (req: IncomingMessage) =>
  req.method === 'GET' && /\/wc\/store\/v1\/cart\b/.test(req.url ?? '');

export interface HostileDesk {
  desk: Desk;
  proxy: StoreProxy;
  postgres: Postgres;
  /** A live call of the desk's, and its key. */
  callId: string;
  liveKey: string;
  post<T>(path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** A customer with `quantity` of the first purchasable product in their cart; their token. */
  customerCart(quantity: number): Promise<string>;
  helpCode(cartToken: string, order?: unknown): Promise<string>;
  /** The quantities of the cart stored on call `id`. */
  quantities(id: string): Promise<number[] | undefined>;
  /** Holds the next cart read until `release`; `reached` resolves once it arrived. */
  holdNextCartRead(): { reached: Promise<void>; release(): void };
  /** Every answer `post` got, every event a tab heard and every log line. */
  said(): string[];
  /** How many call-status events a tab heard. */
  heard(): number;
  close(): Promise<void>;
}

export async function startHostileDesk(): Promise<HostileDesk> {
  const proxy = await storeProxy();
  const postgres = await startPostgres();
  const desk = await startDesk((base) => {
    proxy.target = base.store.url;
    return {
      staticDir: undefined,
      store: { ...base.store, url: proxy.url },
      storage: { databaseUrl: postgres.url },
    };
  });
  const answered: string[] = [];
  const events = await listen(desk);
  const post = async <T>(path: string, body?: unknown) => {
    const res = await fetch(`${desk.server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? '' : JSON.stringify(body),
    });
    const text = await res.text();
    answered.push(text);
    return { status: res.status, body: JSON.parse(text) as T };
  };
  const live = await post<{ call: CallView; key: string }>('/api/live-calls', { name: 'Hostile cart' });
  return {
    desk,
    proxy,
    postgres,
    callId: live.body.call.id,
    liveKey: live.body.key,
    post,
    async customerCart(quantity) {
      const tokens = new MemoryCartTokenStore();
      const customer = new StorefrontClient({ url: desk.sandbox.store.url, cartTokenStore: tokens });
      const page = await customer.products.list({ per_page: 20, type: 'simple' });
      const product = page.data.find((p) => p.is_purchasable && p.is_in_stock && Number(p.prices.price) > 0);
      await customer.cart.addItem({ id: product!.id, quantity });
      // The shape the leak checks look for in everything the desk said.
      expect(tokens.get()).toMatch(JWT);
      return tokens.get()!;
    },
    async helpCode(cartToken, order = null) {
      const { status, body } = await post<{ code: string }>('/api/storefront/help', {
        cart_token: cartToken,
        order,
      });
      expect(status).toBe(201);
      return body.code;
    },
    async quantities(id) {
      const res = await fetch(`${desk.server.url}/api/calls/${id}/storefront`);
      return ((await res.json()) as Linked).cart?.cart?.items.map((i) => i.quantity);
    },
    holdNextCartRead() {
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
    },
    said: () => [...answered, ...events.events.map((e) => JSON.stringify(e.data)), ...desk.logs],
    heard: () => events.of('call-status').length,
    async close() {
      events.close();
      await desk.close();
      await proxy.close();
      await postgres.close();
    },
  };
}

/** Nothing the desk said holds a cart token (any JWT: the desk's renewed ones too) or an order key. */
export function expectNoSecrets(h: HostileDesk, emails: RegExp): void {
  expect(h.heard()).toBeGreaterThan(0);
  const text = h.said().join('\n');
  expect(text).not.toMatch(JWT);
  expect(text).not.toMatch(/wc_order_\w+/);
  expect(text).not.toMatch(emails);
}
