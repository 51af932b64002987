/**
 * Runs against your store when STORE_URL, STORE_KEY and STORE_SECRET are set, otherwise against a
 * local sandbox with demo data:  pnpm --filter @x/store example
 */
import { startSandbox } from '@x/sandbox';
import { NotFoundError, StoreClient } from '@x/store';

const sandbox = process.env.STORE_URL ? undefined : await startSandbox({ store: { seed: 'demo' } });
const store = new StoreClient({
  url: process.env.STORE_URL ?? sandbox!.store.url,
  consumerKey: process.env.STORE_KEY ?? sandbox!.store.consumerKey,
  consumerSecret: process.env.STORE_SECRET ?? sandbox!.store.consumerSecret,
});

const firstPage = await store.products.list({ per_page: 5, orderby: 'title', order: 'asc' });
console.log(`${firstPage.total} products; first: ${firstPage.data.map((p) => p.name).join(', ')}`);

let revenue = 0;
for await (const order of store.orders.list({ status: ['processing', 'completed'], per_page: 100 }))
  revenue += Number(order.total);
console.log(`revenue from processing and completed orders: ${revenue.toFixed(2)}`);

const mug = await store.products.create({
  name: 'Example Mug',
  regular_price: '12.00',
  manage_stock: true,
  stock_quantity: 3,
});
const order = await store.orders.create({
  set_paid: true,
  line_items: [{ product_id: mug.id, quantity: 1 }],
});
console.log(`order ${order.number} is ${order.status}, total ${order.total} ${order.currency}`);

await store.products.get(999_999).catch((error: unknown) => {
  if (error instanceof NotFoundError) console.log(`as expected: ${error.message}`);
});

await store.orders.delete(order.id, { force: true });
await store.products.delete(mug.id, { force: true });
await sandbox?.close();
