/**
 * The Store API sends a product's name, sku and button texts as HTML, over real sockets: ProductSchema and
 * CartItemSchema pass them through AbstractSchema::prepare_html_response() (StoreApi/Formatters/
 * HtmlFormatter.php: wp_kses_post( trim( convert_chars( wptexturize() ) ) )), where the REST API (wc/v3)
 * sends the name as stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { storeApi } from '../helpers/http.js';
import { StoreApiSession } from '../helpers/store-api.js';

let sb: Sandbox;
const v3 = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);

beforeAll(async () => {
  sb = await startSandbox({ port: 0, store: { rateLimit: false } });
});
afterAll(async () => {
  await sb?.close();
});

describe('Store API HTML text fields', () => {
  it('texturizes names and skus in products and cart items; wc/v3 keeps them as stored', async () => {
    const tom = (await v3('POST', '/products', { name: ' Tom & Jerry <b> ', regular_price: '3', sku: 'T&J' }))
      .json;
    const quoted = (await v3('POST', '/products', { name: `Ann's "best" mug -- 2x4...`, regular_price: '4' }))
      .json;
    expect(tom.name).toBe(' Tom & Jerry <b> ');
    const s = new StoreApiSession(sb.url);
    const product = (await s.call('GET', `products/${tom.id}`)).body;
    expect([product.name, product.sku, product.add_to_cart.description]).toEqual([
      'Tom &#038; Jerry <b>',
      'T&#038;J',
      // Only the whole text is trimmed: the name inside keeps its spaces.
      'Add to cart: &ldquo; Tom &#038; Jerry <b> &rdquo;',
    ]);
    expect((await s.call('GET', `products/${quoted.id}`)).body.name).toBe(
      'Ann&#8217;s &#8220;best&#8221; mug &#8212; 2&#215;4&#8230;',
    );
    await s.call('GET', 'cart');
    const cart = (await s.call('POST', 'cart/add-item', { id: tom.id })).body;
    expect([cart.items[0].name, cart.items[0].sku]).toEqual(['Tom &#038; Jerry <b>', 'T&#038;J']);
  });
});
