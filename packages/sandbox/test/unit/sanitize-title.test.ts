/**
 * sanitize_title(), the one port (wp-includes/formatting.php sanitize_title_with_dashes() in the 'save'
 * context), and what the stores that run it answer over the wire: tax classes, attributes, products, terms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { sanitizeTitle } from '../../src/store/runtime/formatting.js';
import { storeApi } from '../helpers/http.js';

describe('sanitizeTitle()', () => {
  it.each([
    ['Kids Clothing', 'kids-clothing'],
    // Entities go whole, as sanitize_text_field() leaves `<` escaped in the name.
    ['Foo &lt; bar', 'foo-bar'],
    ['Tom &amp; Jerry', 'tom-jerry'],
    ['a&nbsp;b &#8212; c', 'a-b-c'],
    ['Captain <strong>Awesome</strong>', 'captain-awesome'],
    // A `%` that starts no octet goes; octets stay.
    ['fran%c3%a7%ois', 'fran%c3%a7ois'],
    ['ABC', 'abc'],
    ['a          t', 'a-t'],
    ['a\tb', 'ab'],
    ['v1.2/beta', 'v1-2-beta'],
    ['snake_case', 'snake_case'],
    ['--a--b--', 'a-b'],
    ['Crème brûlée', 'creme-brulee'],
    ['3×4', '3x4'],
    ['a\u2013b\u00a0c', 'a-b-c'],
    ['!!!', ''],
    ['中文', '%e4%b8%ad%e6%96%87'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeTitle(input)).toBe(expected);
  });
});

describe('slugs over the wire', () => {
  let sb: Sandbox;
  const api = (method: string, path: string, body?: unknown) => storeApi(sb, method, path, body);
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, store: { rateLimit: false, seed: 'none' } });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('a tax class named `Foo < bar` keeps the escaped name and gets the slug foo-bar, as WooCommerce', async () => {
    const created = await api('POST', '/taxes/classes', { name: 'Foo < bar' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: 'Foo &lt; bar', slug: 'foo-bar' });
    const got = await api('GET', '/taxes/classes/foo-bar');
    expect(got.status).toBe(200);
    expect(got.json).toEqual([expect.objectContaining({ slug: 'foo-bar' })]);
    const rate = await api('POST', '/taxes', { class: 'foo-bar', rate: '5' });
    expect(rate.status).toBe(201);
    expect(rate.json).toMatchObject({ class: 'foo-bar' });
  });

  it('attributes, products and categories slug an entity-bearing name the same way', async () => {
    const attribute = await api('POST', '/products/attributes', { name: 'Size &amp; fit' });
    expect(attribute.status).toBe(201);
    expect(attribute.json).toMatchObject({ slug: 'pa_size-fit' });
    const product = await api('POST', '/products', { name: 'Salt &amp; Pepper v1.2', status: 'publish' });
    expect(product.status).toBe(201);
    expect(product.json).toMatchObject({ slug: 'salt-pepper-v1-2' });
    const category = await api('POST', '/products/categories', { name: 'Pots &amp; Pans' });
    expect(category.status).toBe(201);
    expect(category.json).toMatchObject({ slug: 'pots-pans' });
  });
});
