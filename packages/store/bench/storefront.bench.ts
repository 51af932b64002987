/**
 * The Store API client, `StorefrontClient` (`@x/store/storefront`), against raw `fetch` doing the same Store
 * API calls by hand, in ONE run against the sandbox's WooCommerce emulator (its own process, so only the
 * clients' CPU is counted). There is no official JavaScript Store API client (the official
 * `@woocommerce/woocommerce-rest-api` speaks only wc/v3, with keys), so `fetch` is the reference:
 *
 *   products   `shop.products.list({ per_page: 20 })`  vs  `fetch` + `json()` of `products?per_page=20`;
 *              also the admin `StoreClient`'s `products.list({ per_page: 20 })` (wc/v3, OAuth-signed: the
 *              same catalogue through the other API, for scale, not like for like)
 *   cart flow  a fresh cart each time: add-item ×3, apply-coupon, update-customer, checkout; `fetch` by
 *              hand keeps the Cart-Token and Nonce of every answer, drops the token for a new cart and keeps
 *              the Nonce (it is per site, not per cart), as the client does: 6 requests a flow for both (the
 *              table shows the server's count; the very first cart of all starts with `GET cart`)
 *   rate limit the cart flow under the Store API's optional limit (`storeApi.rateLimit`, WooCommerce's 25 per
 *              10 s): `StorefrontClient` with its client-side limit (25 per 10 s by default) vs `fetch` that,
 *              refused (400 `rate_limit_exceeded`), sleeps `RateLimit-Retry-After` and repeats, vs `fetch`
 *              that does not. Each on its own sandbox: the limit is per address, and all are 127.0.0.1.
 *
 * In the first two the shop has no Store API limit and the client runs `rateLimit: false` (its default would
 * pace the bench), validation on. Calls run one at a time, in rounds that take turns at going first; p50/p95
 * are over every call of every round, CPU per call the median round's; ratios are to `fetch`, same run.
 *
 *   pnpm --filter @x/core --filter @x/sandbox build   # the sandbox and core run from dist
 *   pnpm --filter @x/store exec tsx bench/storefront.bench.ts      (also the last part of `pnpm bench`)
 *   BENCH_SF_RL=0 pnpm --filter @x/store exec tsx bench/storefront.bench.ts   (no rate-limit part, ~15 s)
 *   BENCH_SF_ONLY=client pnpm --filter @x/store exec node --cpu-prof --import tsx bench/storefront.bench.ts
 *
 * Env: BENCH_SF_LIST_N (100 a round), BENCH_SF_FLOW_N (15 a round), BENCH_SF_ROUNDS (3), BENCH_SF_WARMUP
 * (10), BENCH_SF_RL (1: run the rate-limit part), BENCH_SF_RL_FLOWS (6: 37 requests, two windows),
 * BENCH_SF_RL_LIMIT (25), BENCH_SF_RL_SECONDS (10), BENCH_SF_ONLY (client, fetch, admin). The defaults keep
 * a run under a minute on 2 shared cores (most of it the rate limit's wait). Prints tables, writes
 * bench/results-storefront.json (not committed); never fails on a figure.
 */
import { loadavg } from 'node:os';
import { fmt, intEnv, machineLine, median, percentile, writeResults } from '../../../bench.tools.js';
import { StoreClient } from '../src/index.js';
import { type Cart, StorefrontClient, type StorefrontClientOptions } from '../src/storefront/index.js';
import { type ChildSandbox, newKey, spawnSandbox } from './fixtures.js';

const LIST_N = intEnv('BENCH_SF_LIST_N', 100);
const FLOW_N = intEnv('BENCH_SF_FLOW_N', 15);
const ROUNDS = intEnv('BENCH_SF_ROUNDS', 3);
const WARMUP = intEnv('BENCH_SF_WARMUP', 10, { min: 0 });
const RATE_LIMITED = intEnv('BENCH_SF_RL', 1, { min: 0 }) > 0;
const RL_FLOWS = intEnv('BENCH_SF_RL_FLOWS', 6);
const RL = { limit: intEnv('BENCH_SF_RL_LIMIT', 25), seconds: intEnv('BENCH_SF_RL_SECONDS', 10) };
/** WooCommerce's own Store API limit (RateLimits.php), which is also the client's default. */
const WOO_LIMIT = RL.limit === 25 && RL.seconds === 10;
const ONLY = process.env.BENCH_SF_ONLY?.split(',').filter(Boolean);
const PER_PAGE = 20;
const COUPON = 'bench10';
// biome-ignore format: one address, one line
const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', address_1: '1 Main St', city: 'San Francisco', state: 'CA', postcode: '94103', country: 'US', email: 'ada@example.com' };
const NAMESPACE = '/wp-json/wc/store/v1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the shop ------------------------------------------------------------------------------------------

interface Shop {
  box: ChildSandbox;
  admin: StoreClient;
  /** The three products every flow adds, without stock management, so hundreds of checkouts never run out. */
  items: number[];
}

/** A demo-seeded sandbox with cash on delivery on, a coupon with no usage limit and three bench products. */
async function openShop(storeApi: { rateLimit?: typeof RL } = {}): Promise<Shop> {
  const key = newKey();
  const box = await spawnSandbox({ store: { rateLimit: false, seed: 'demo', keys: [key], storeApi } });
  const { consumerKey, consumerSecret } = key;
  const admin = new StoreClient({
    url: box.url,
    consumerKey,
    consumerSecret,
    rateLimit: false,
    logLevel: 'off',
  });
  await admin.paymentGateways.update('cod', { enabled: true });
  await admin.coupons.create({ code: COUPON, amount: '10', discount_type: 'percent' });
  const { create } = await admin.products.batch({
    create: [1, 2, 3].map((i) => ({ name: `Bench item ${i}`, regular_price: `${i}9.00` })),
  });
  // Not where the limit is on: this request would take one from the window the clients are measured in.
  const listed = storeApi.rateLimit ? PER_PAGE : await fetch(`${box.url}${NAMESPACE}/products?per_page=1`);
  const total = typeof listed === 'number' ? listed : Number(listed.headers.get('x-wp-total'));
  if (total < PER_PAGE) throw new Error(`the shop lists ${total} products, fewer than a page of ${PER_PAGE}`);
  return { box, admin, items: create.map((p) => (p as { id: number }).id) };
}

// ---- the cart flow, both ways --------------------------------------------------------------------------

/** What every variant's flow must end with: the same cart and a placed order. */
const fingerprint = (cart: Cart, orderId: number) =>
  `${cart.items_count} items, total ${cart.totals.total_price}, ${orderId > 0 ? 'order placed' : 'no order'}`;

async function clientFlow(shop: StorefrontClient, items: number[]): Promise<string> {
  await shop.cart.forget();
  for (const id of items) await shop.cart.addItem({ id, quantity: 1 });
  await shop.cart.applyCoupon(COUPON);
  const cart = await shop.cart.updateCustomer({ billing_address: ADDRESS, shipping_address: ADDRESS });
  const placed = await shop.checkout.place({ billing_address: ADDRESS, payment_method: 'cod' });
  return fingerprint(cart, placed.order_id);
}

/** What a hand-written storefront keeps between its flows: the Nonce, and the rate-limit refusals it met. */
type Kept = { nonce?: string; refusals: number };

/**
 * The same flow with `fetch` alone, as a user would write it: every call sends the newest Cart-Token and
 * Nonce an answer gave (without a Nonce yet, `GET cart` first, since an updating call without either is
 * refused). On a rate-limit refusal it sleeps the server's `RateLimit-Retry-After` and repeats when
 * `retry`, else it gives up.
 */
async function fetchFlow(home: string, items: number[], kept: Kept, retry = true): Promise<string> {
  const session: Record<string, string> = kept.nonce ? { nonce: kept.nonce } : {};
  const call = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${home}${NAMESPACE}/${route}`, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...session },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const token = response.headers.get('cart-token');
      const nonce = response.headers.get('nonce');
      if (token) session['cart-token'] = token;
      if (nonce) session.nonce = kept.nonce = nonce;
      const json = (await response.json()) as Record<string, any>;
      if (response.ok) return json;
      if (json.code === 'rate_limit_exceeded') {
        kept.refusals++;
        if (retry && attempt < 50) {
          await sleep(Number(response.headers.get('ratelimit-retry-after') ?? 1) * 1000);
          continue;
        }
      }
      throw new Error(`${method} ${route}: HTTP ${response.status} ${json.code}`);
    }
  };
  if (!session.nonce) await call('GET', 'cart');
  for (const id of items) await call('POST', 'cart/add-item', { id, quantity: 1 });
  await call('POST', 'cart/apply-coupon', { code: COUPON });
  const cart = await call('POST', 'cart/update-customer', {
    billing_address: ADDRESS,
    shipping_address: ADDRESS,
  });
  const placed = await call('POST', 'checkout', { billing_address: ADDRESS, payment_method: 'cod' });
  return fingerprint(cart as Cart, placed.order_id as number);
}

// ---- measuring -----------------------------------------------------------------------------------------

interface Variant {
  key: string;
  label: string;
  call: () => Promise<unknown>;
}

/** One variant's figures; `requests` is what the server saw per call, ratios are to `fetch`'s row. */
interface Row {
  task: string;
  key: string;
  label: string;
  p50Ms: number;
  p95Ms: number;
  cpuUsPerCall: number;
  requests: number;
  vsFetch?: { p50: number; p95: number; cpu: number };
}

/** Every variant `n` calls a round, one at a time, after a check of its answer and a warm-up. */
async function compare(box: ChildSandbox, task: string, n: number, variants: Variant[]): Promise<Row[]> {
  if (ONLY) variants = variants.filter((v) => ONLY.includes(v.key));
  const first = await variants[0]!.call();
  for (const variant of variants) {
    const got = await variant.call();
    if (got !== first)
      throw new Error(`${task} ${variant.key}: answered ${String(got)}, not ${String(first)}`);
    for (let i = 0; i < WARMUP; i++) await variant.call();
  }
  const latencies = new Map<string, number[]>(variants.map((v) => [v.key, []]));
  type Round = { cpuUs: number; requests: number };
  const rounds = new Map<string, Round[]>(variants.map((v) => [v.key, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Rotated each round and reversed every other (as bench.shared.ts), so none always goes first or last.
    const rotated = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const variant of round % 2 ? rotated.reverse() : rotated) {
      (globalThis as { gc?: () => void }).gc?.();
      await box.resetStats();
      const own = latencies.get(variant.key)!;
      const cpu = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await variant.call();
        own.push(performance.now() - t0);
      }
      const { user, system } = process.cpuUsage(cpu);
      const requests = (await box.stats()).requests / n;
      rounds.get(variant.key)!.push({ cpuUs: (user + system) / n, requests });
    }
    process.stderr.write(`${task}: round ${round + 1}/${ROUNDS} done\n`);
  }
  const rows = variants.map((variant): Row => {
    const own = latencies.get(variant.key)!;
    const mine = rounds.get(variant.key)!;
    return {
      task,
      key: variant.key,
      label: variant.label,
      p50Ms: percentile(own, 50),
      p95Ms: percentile(own, 95),
      cpuUsPerCall: median(mine.map((r) => r.cpuUs)),
      requests: median(mine.map((r) => r.requests)),
    };
  });
  const base = rows.find((row) => row.key === 'fetch');
  for (const row of rows)
    if (base)
      row.vsFetch = {
        p50: row.p50Ms / base.p50Ms,
        p95: row.p95Ms / base.p95Ms,
        cpu: row.cpuUsPerCall / base.cpuUsPerCall,
      };
  return rows;
}

/**
 * `RL_FLOWS` flows in a row on a shop of their own that has the Store API limit on; `requests` is every
 * request the server saw, refused ones included.
 */
async function limitedRun(label: string, flow: (shop: Shop, kept: Kept) => () => Promise<unknown>) {
  const shop = await openShop({ rateLimit: RL });
  try {
    const kept: Kept = { refusals: 0 };
    const run = flow(shop, kept);
    await shop.box.resetStats();
    const latencies: number[] = [];
    let failure: string | undefined;
    const started = performance.now();
    for (let i = 0; i < RL_FLOWS; i++) {
      const t0 = performance.now();
      try {
        await run();
      } catch (error) {
        failure = error instanceof Error ? error.message.slice(0, 90) : String(error);
        continue;
      }
      latencies.push(performance.now() - t0);
    }
    const outcome = {
      label,
      completed: latencies.length,
      wallS: (performance.now() - started) / 1000,
      requests: (await shop.box.stats()).requests,
      refusals: kept.refusals,
      flowP50Ms: percentile(latencies, 50),
      flowP95Ms: percentile(latencies, 95),
      failure,
    };
    process.stderr.write(`rate limit: ${label} done in ${outcome.wallS.toFixed(1)} s\n`);
    return outcome;
  } finally {
    await shop.box.close();
  }
}

async function limitedScenario() {
  // The client at its defaults when the shop's limit is WooCommerce's; else told the shop's limit.
  const limit: Partial<StorefrontClientOptions> = WOO_LIMIT
    ? {}
    : { rateLimit: { limit: RL.limit, interval: RL.seconds * 1000 } };
  return [
    await limitedRun(
      `StorefrontClient (${WOO_LIMIT ? 'default limit 25/10 s' : `limit ${RL.limit}/${RL.seconds} s`})`,
      (shop, kept) => {
        const client = new StorefrontClient({
          url: shop.box.url,
          logLevel: 'off',
          ...limit,
          hooks: {
            afterResponse: ({ status, response }) =>
              void (status === 400 && response.headers.has('ratelimit-retry-after') && kept.refusals++),
          },
        });
        return () => clientFlow(client, shop.items);
      },
    ),
    await limitedRun(
      'fetch, sleeps RateLimit-Retry-After and repeats',
      (shop, kept) => () => fetchFlow(shop.box.url, shop.items, kept),
    ),
    await limitedRun(
      'fetch, no repeat',
      (shop, kept) => () => fetchFlow(shop.box.url, shop.items, kept, false),
    ),
  ];
}

// ---- report --------------------------------------------------------------------------------------------

/** A table whose first `left` columns are names (left-aligned) and the rest figures. */
function print(left: number, header: string[], cells: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n'));
}

const ratio = (value: number | undefined) => (value === undefined ? '-' : `${fmt(value)}x`);

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  console.log(`@x/store storefront bench — ${machineLine(loadAtStart)}`);
  console.log(
    `products.list per_page ${PER_PAGE}: ${LIST_N} calls a round; cart flow (add-item ×3, apply-coupon, update-customer, checkout): ${FLOW_N} a round; ${ROUNDS} rounds, warm-up ${WARMUP}\n`,
  );
  const shop = await openShop();
  let rows: Row[];
  try {
    const home = shop.box.url;
    const client = new StorefrontClient({ url: home, rateLimit: false, logLevel: 'off' });
    const kept: Kept = { refusals: 0 };
    const count = (list: unknown[]) => list.length;
    const listUrl = `${home}${NAMESPACE}/products?per_page=${PER_PAGE}`;
    rows = await compare(shop.box, 'products.list', LIST_N, [
      {
        key: 'client',
        label: 'StorefrontClient',
        call: () => client.products.list({ per_page: PER_PAGE }).then((p) => count(p.data)),
      },
      {
        key: 'fetch',
        label: 'fetch + json()',
        call: () => fetch(listUrl).then((r) => r.json().then(count)),
      },
      {
        key: 'admin',
        label: 'StoreClient (wc/v3, OAuth)',
        call: () => shop.admin.products.list({ per_page: PER_PAGE }).then((p) => count(p.data)),
      },
    ]);
    rows.push(
      ...(await compare(shop.box, 'cart flow', FLOW_N, [
        { key: 'client', label: 'StorefrontClient', call: () => clientFlow(client, shop.items) },
        { key: 'fetch', label: 'fetch by hand', call: () => fetchFlow(home, shop.items, kept) },
      ])),
    );
  } finally {
    await shop.box.close();
  }
  console.log(
    `\nOne call at a time (no Store API limit; client rateLimit: false, validation on). p50/p95 over ${ROUNDS} rounds; CPU: this process, median round\n`,
  );
  print(
    2,
    'call|client|p50 ms|p95 ms|CPU µs/call|req/call|p50 vs fetch|p95 vs fetch|CPU vs fetch'.split('|'),
    rows.map((r) => [
      r.task,
      r.label,
      fmt(r.p50Ms),
      fmt(r.p95Ms),
      fmt(r.cpuUsPerCall, 0),
      fmt(r.requests, 1),
      ratio(r.vsFetch?.p50),
      ratio(r.vsFetch?.p95),
      ratio(r.vsFetch?.cpu),
    ]),
  );

  const limited = RATE_LIMITED ? await limitedScenario() : [];
  if (limited.length > 0) {
    console.log(
      `\nRate limit on (${RL.limit} requests per ${RL.seconds} s per address${WOO_LIMIT ? ", WooCommerce's" : ''}): ${RL_FLOWS} cart flows in a row, each client on its own sandbox\n`,
    );
    const base = limited.find((o) => o.label.startsWith('fetch, sleeps'));
    print(
      1,
      'client|completed|wall s|requests|refusals|flow p50 ms|flow p95 ms|wall vs fetch'.split('|'),
      limited.map((o) => [
        o.label,
        `${o.completed}/${RL_FLOWS}`,
        fmt(o.wallS),
        String(o.requests),
        String(o.refusals),
        fmt(o.flowP50Ms, 0),
        fmt(o.flowP95Ms, 0),
        o.completed === RL_FLOWS && base ? ratio(o.wallS / base.wallS) : '-',
      ]),
    );
    for (const o of limited) if (o.failure) console.log(`  ${o.label}: last failure: ${o.failure}`);
  }
  const out = writeResults(new URL('./results-storefront.json', import.meta.url), loadAtStart, {
    settings: { LIST_N, FLOW_N, ROUNDS, WARMUP, RL, RL_FLOWS },
    rows,
    limited,
  });
  console.log(`\n(results written to ${out}; load ${loadavg()[0]!.toFixed(2)} at end)`);
}

await main();
