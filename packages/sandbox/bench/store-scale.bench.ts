/**
 * What an order write costs as the store grows: batches of 100 order creates up to 5,000 orders, and a batch
 * of 100 updates early and late, timed over HTTP. Costs that do not grow with the store are the target (the
 * quickest of the last five create batches within 3x the quickest of the first five; it was 30x while every
 * write cloned the state). The test (test/integration/store-scale.test.ts) checks the cause instead of the
 * time: no write reads an order it does not write. A measurement, not a test: exits 0 whatever the figures.
 *
 *   cd packages/sandbox && pnpm exec tsx bench/store-scale.bench.ts   (BENCH_ORDERS=5000)
 */
import { startSandbox } from '../src/index.js';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 5000);
const WINDOW = 5;

const sb = await startSandbox({ port: 0, store: { rateLimit: false } });
const auth = `Basic ${Buffer.from(`${sb.store.consumerKey}:${sb.store.consumerSecret}`).toString('base64')}`;
const call = async (method: string, path: string, body: unknown) => {
  const res = await fetch(`${sb.url}/wp-json/wc/v3${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
};

try {
  const product = await call('POST', '/products', {
    name: 'Bulk',
    regular_price: '5',
    manage_stock: true,
    stock_quantity: 1e9,
  });
  const create = () =>
    timed(() =>
      call('POST', '/orders/batch', {
        create: Array.from({ length: 100 }, (_, i) => ({
          status: 'processing',
          billing: { first_name: `Buyer ${i}`, email: `buyer${i}@example.com` },
          line_items: [{ product_id: product.id, quantity: 1 }],
          shipping_lines: [{ method_id: 'flat_rate', total: '5.00' }],
        })),
      }),
    );
  const update = (ids: number[]) =>
    timed(() =>
      call('POST', '/orders/batch', { update: ids.map((id) => ({ id, customer_note: `n${id}` })) }),
    );
  const min = (xs: number[]) => Math.min(...xs);

  await create(); // warm-up
  const creates: number[] = [];
  const updatesEarly: number[] = [];
  let ids: number[] = [];
  for (let b = 0; b < ORDERS / 100 - 1; b++) {
    const [ms, reply] = await create();
    creates.push(ms);
    if (creates.length === WINDOW) {
      ids = reply.create.map((o: { id: number }) => o.id);
      for (let k = 0; k < 3; k++) updatesEarly.push((await update(ids))[0]);
    }
  }
  const updatesLate: number[] = [];
  for (let k = 0; k < 3; k++) updatesLate.push((await update(ids))[0]);
  const first = min(creates.slice(0, WINDOW));
  const last = min(creates.slice(-WINDOW));
  console.log(
    `${ORDERS} orders: create batch of 100 first ${first.toFixed(1)} ms, last ${last.toFixed(1)} ms (${(last / first).toFixed(2)}x); ` +
      `update batch of 100 early ${min(updatesEarly).toFixed(1)} ms, late ${min(updatesLate).toFixed(1)} ms (${(min(updatesLate) / min(updatesEarly)).toFixed(2)}x); target within 3x`,
  );
} finally {
  await sb.close();
}
