import { describe, expect, it } from 'vitest';
import { oauthBaseString } from '../../src/index.js';
import { rfc3986 } from '../../src/oauth.js';

describe('OAuth 1.0a base string as WooCommerce rebuilds it', () => {
  it('encodes per RFC 3986 (stricter than encodeURIComponent)', () => {
    expect(rfc3986("a b!'()*~")).toBe('a%20b%21%27%28%29%2A~');
  });

  it('sorts parameters by key then value and signs the URL without its query', () => {
    const url = new URL('http://shop.test:8080/wp-json/wc/v3/products?search=blue mug&per_page=5');
    const base = oauthBaseString('get', url, [
      ...url.searchParams,
      ['oauth_nonce', 'n1'],
      ['oauth_consumer_key', 'ck_1'],
    ]);
    expect(base).toBe(
      'GET&http%3A%2F%2Fshop.test%3A8080%2Fwp-json%2Fwc%2Fv3%2Fproducts&oauth_consumer_key%3Dck_1%26oauth_nonce%3Dn1%26per_page%3D5%26search%3Dblue%2520mug',
    );
  });

  it("for ?rest_route= stores the URL is home_url(''): no trailing slash", () => {
    const url = new URL('http://shop.test/?rest_route=/wc/v3/orders');
    expect(oauthBaseString('POST', url, [...url.searchParams])).toBe(
      'POST&http%3A%2F%2Fshop.test&rest_route%3D%252Fwc%252Fv3%252Forders',
    );
  });
});
