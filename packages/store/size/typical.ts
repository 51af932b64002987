/**
 * What a typical user of `@x/store` ships in a bundle (an edge function or a worker; consumer secrets do not
 * belong in a browser): one client, a paged product list, an order update, a webhook check. size-limit
 * bundles this with esbuild (minified, browser platform, @x/core, ky and zod/mini included) and checks the
 * gzip size against the limit in package.json.
 */
import { StoreClient, verifyWebhook } from '../dist/index.js';

const store = new StoreClient({
  url: 'https://shop.example.com',
  consumerKey: 'ck_example',
  consumerSecret: 'cs_example',
});

export async function handler(request: Request): Promise<Response> {
  const body = new Uint8Array(await request.arrayBuffer());
  if (!(await verifyWebhook(body, request.headers, 'webhook-secret')))
    return new Response(null, { status: 401 });
  const page = await store.products.list({ per_page: 20, status: 'publish' });
  await store.orders.update(42, { status: 'completed' });
  return Response.json({ total: page.total });
}
