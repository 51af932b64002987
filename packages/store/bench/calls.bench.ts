/**
 * CPU and wall time per call of a like-for-like read, in ONE run against the sandbox's WooCommerce emulator
 * (its own process, rate limit off, so only the clients' CPU is counted):
 *
 *   products.get  `@x/store` `client.products.get(id)`  vs  `@woocommerce/woocommerce-rest-api`
 *                 `api.get('products/<id>')`  vs  `fetch` + `json()` with an OAuth 1.0a signature made by hand
 *   products.list `client.products.list({ per_page: 100 })`  vs  `api.get('products', { per_page: 100 })`
 *                 vs  `fetch` (the first page of 100 products, as each client returns it)
 *
 * The sandbox URL is plain http, so all three sign with OAuth 1.0a HMAC-SHA256 (the official client's and
 * `@x/store`'s default there), in the query string for the official client and fetch, in the header for
 * `@x/store`. `@x/store` runs with its defaults (response validation on) but `rateLimit: false`: its
 * default limiter (500/min) would pace the bench, and the official client has none. Each call runs
 * sequentially and at concurrency 16, in rounds that take turns (bench.shared.ts); the goal (issue 21) is
 * x-sdk's CPU per call <= the official SDK's.
 *
 *   pnpm --filter @x/core --filter @x/sandbox build   # @x/store uses both from dist
 *   pnpm --filter @x/store bench                      (store.bench.ts, then this file)
 *   pnpm --filter @x/store exec tsx bench/calls.bench.ts
 *   BENCH_GET_N=200 BENCH_LIST_N=40 BENCH_ROUNDS=1 pnpm --filter @x/store exec tsx bench/calls.bench.ts
 *   BENCH_ONLY=x-store pnpm --filter @x/store exec node --cpu-prof --import tsx bench/calls.bench.ts
 *
 * Env: BENCH_GET_N (1000), BENCH_LIST_N (200), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), BENCH_WARMUP (100),
 * BENCH_ONLY (variant keys: x-store, official, fetch).
 * Prints a table and verdicts; writes bench/results-calls.json (not committed). A measurement: it never
 * fails on a figure.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { callTable, callVerdicts, compareCalls } from '../../../bench.shared.js';
import { intEnv, machineLine, writeResults } from '../../../bench.tools.js';
import { StoreClient } from '../src/index.js';
import { KEYS, newKey, officialClient, spawnSandbox } from './fixtures.js';

const GET_N = intEnv('BENCH_GET_N', 1_000);
const LIST_N = intEnv('BENCH_LIST_N', 200);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 16);
const WARMUP = intEnv('BENCH_WARMUP', 100, { min: 0 });
const PER_PAGE = 100;

/** RFC 3986, as WooCommerce's PHP rawurlencode() reads it. */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The floor: a GET signed with OAuth 1.0a (HMAC-SHA256, parameters in the query) in a few lines, the way
 * someone using `fetch` alone would write it for a plain-http store.
 */
function signedUrl(home: string, path: string, query: Record<string, string>, key = KEYS.seed): string {
  const url = `${home}/wp-json/wc/v3/${path}`;
  const params: Record<string, string> = {
    ...query,
    oauth_consumer_key: key.consumerKey,
    oauth_nonce: randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA256',
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const pairs = Object.keys(params)
    .sort()
    .map((k) => `${encode(k)}=${encode(params[k]!)}`)
    .join('&');
  const signature = createHmac('sha256', `${key.consumerSecret}&`)
    .update(`GET&${encode(url)}&${encode(pairs)}`)
    .digest('base64');
  return `${url}?${pairs}&oauth_signature=${encode(signature)}`;
}

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Products enough for a full page of 100: the demo seed has a few dozen, the rest are made like them. */
async function seedProducts(client: StoreClient): Promise<number> {
  const have = (await client.products.list({ per_page: PER_PAGE })).data.length;
  const create = Array.from({ length: Math.max(0, PER_PAGE - have) }, (_, i) => ({
    name: `Bench product ${i + 1}`,
    type: 'simple' as const,
    regular_price: `${10 + (i % 40)}.99`,
    sku: `bench-${i + 1}`,
    description: `<p>Bench product ${i + 1}: a plausible description with <strong>markup</strong>, as stores have.</p>`,
    short_description: `<p>Product ${i + 1}.</p>`,
    manage_stock: true,
    stock_quantity: 5 + i,
  }));
  if (create.length > 0) await client.products.batch({ create });
  const first = await client.products.list({ per_page: PER_PAGE });
  if (first.data.length !== PER_PAGE)
    throw new Error(`seeded ${first.data.length} products, not ${PER_PAGE}`);
  return first.data[0]!.id;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const key = newKey();
  const box = await spawnSandbox({ store: { rateLimit: false, seed: 'demo', keys: [KEYS.seed, key] } });
  try {
    const client = new StoreClient({
      url: box.url,
      consumerKey: key.consumerKey,
      consumerSecret: key.consumerSecret,
      rateLimit: false,
    });
    const api = officialClient(box.url, key);
    const id = await seedProducts(client);
    const home = box.url.replace(/\/$/, '');
    const count = (list: unknown[]) => list.length;
    const rows = await compareCalls(
      [
        {
          name: 'products.get',
          n: GET_N,
          expect: id,
          variants: [
            {
              key: 'x-store',
              label: '@x/store',
              role: 'x-sdk',
              call: () => client.products.get(id).then((p) => p.id),
            },
            {
              key: 'official',
              label: '@woocommerce/woocommerce-rest-api',
              role: 'official',
              call: () => api.get(`products/${id}`).then((r) => (r.data as { id: number }).id),
            },
            {
              key: 'fetch',
              label: 'fetch + json(), signed by hand',
              role: 'floor',
              call: () =>
                fetchJson<{ id: number }>(signedUrl(home, `products/${id}`, {}, key)).then((p) => p.id),
            },
          ],
        },
        {
          name: 'products.list',
          n: LIST_N,
          expect: PER_PAGE,
          variants: [
            {
              key: 'x-store',
              label: '@x/store',
              role: 'x-sdk',
              call: () => client.products.list({ per_page: PER_PAGE }).then((page) => count(page.data)),
            },
            {
              key: 'official',
              label: '@woocommerce/woocommerce-rest-api',
              role: 'official',
              call: () => api.get('products', { per_page: PER_PAGE }).then((r) => count(r.data as unknown[])),
            },
            {
              key: 'fetch',
              label: 'fetch + json(), signed by hand',
              role: 'floor',
              call: () =>
                fetchJson<unknown[]>(signedUrl(home, 'products', { per_page: String(PER_PAGE) }, key)).then(
                  count,
                ),
            },
          ],
        },
      ],
      { rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP },
    );
    const listBytes = (
      await fetch(signedUrl(home, 'products', { per_page: String(PER_PAGE) }, key)).then((r) => r.text())
    ).length;
    const getBytes = (await fetch(signedUrl(home, `products/${id}`, {}, key)).then((r) => r.text())).length;
    console.log(
      `\n@x/store calls bench — ${machineLine(loadAtStart)}\n` +
        `products.get ${GET_N} calls (${getBytes} B body), products.list ${LIST_N} calls (${PER_PAGE} products, ${listBytes} B), ` +
        `${ROUNDS} rounds (medians); CPU of this process only, the sandbox runs in its own\n`,
    );
    console.log(callTable(rows));
    const verdicts = callVerdicts(rows);
    console.log(`\n${verdicts.join('\n')}`);
    const out = writeResults(new URL('./results-calls.json', import.meta.url), loadAtStart, {
      settings: { getN: GET_N, listN: LIST_N, rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP },
      bodyBytes: { get: getBytes, list: listBytes },
      verdicts,
      rows,
    });
    console.log(`(results written to ${out}; load ${loadavg()[0]!.toFixed(2)} at end)`);
  } finally {
    await box.close();
  }
}

await main();
