/**
 * The Store API sends names as HTML (HtmlFormatter: wptexturize(), `&` as `&#038;`): `plainText()` gives back
 * what the shop owner typed, read over real sockets from the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { plainText } from '../../src/storefront/index.js';
import { clientFor, sandboxForFile } from '../helpers/sandbox.js';
import { storefrontFor } from './helpers.js';

const box = sandboxForFile();

describe('plainText', () => {
  it('turns a product name the Store API formatted for HTML back into its text', async () => {
    const typed = `Ann's "best" mug & saucer -- 2x4...`;
    const product = await clientFor(box).products.create({ name: typed, regular_price: '9.00' });
    const shop = storefrontFor(box);
    const sent = (await shop.products.get(product.id)).name;
    expect(sent).not.toBe(typed);
    expect(sent).toContain('&#038;');
    // wptexturize() curls the quotes and makes the dashes, ellipsis and ×: the text a shopper should see.
    expect(plainText(sent)).toBe('Ann\u2019s \u201cbest\u201d mug & saucer \u2014 2\u00d74\u2026');
    const cart = await shop.cart.addItem({ id: product.id, quantity: 1 });
    expect(plainText(cart.items[0]!.name)).toBe(plainText(sent));
  });

  it('drops tags, decodes named, decimal and hex references, and keeps what it cannot decode', () => {
    expect(plainText('<b>Tom</b> &amp; Jerry&#8217;s &#x1F600; &lt;i&gt;')).toBe(
      'Tom & Jerry\u2019s \u{1F600} <i>',
    );
    expect(plainText('&bogus; &#0; &#xD800; &#99999999;')).toBe('&bogus; &#0; &#xD800; &#99999999;');
  });
});
