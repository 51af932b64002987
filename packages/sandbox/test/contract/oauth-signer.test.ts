/**
 * Contract: a second, independent OAuth 1.0a signer (test/helpers/oauth1.ts, HMAC-SHA1) checks the emulator's
 * base-string rules against WooCommerce's verifier (class-wc-rest-authentication.php):
 * - params are PHP's $_GET: `include[]=1&include[]=2` is signed as include[0]=1, include[1]=2;
 * - the base URL is home_url(request path): for `/?rest_route=...` the path after the home path is '' and
 *   get_home_url(null, '') has no trailing slash, so the signed URL is `http://host:port` exactly;
 * - rest_route itself is a $_GET param and is signed;
 * - the signature is checked first, then the ±15 min timestamp window, then nonce reuse;
 * - `oauth_signature` is rawurldecode(str_replace(' ', '+', sig)), so an unencoded '+' is accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { expectWcError, request } from '../helpers/http.js';
import { type Pair, rawurlencode, signWc, toQueryString } from '../helpers/oauth1.js';
import { makeClient } from '../helpers/woo-client.js';

describe('independent OAuth 1.0a signer (HMAC-SHA1, nested params, ?rest_route=)', () => {
  let sandbox: Sandbox;
  let ids: number[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
    const api = makeClient({
      url: sandbox.url,
      consumerKey: sandbox.store.consumerKey,
      consumerSecret: sandbox.store.consumerSecret,
    });
    for (const name of ['Signer one', 'Signer two', 'Signer three']) {
      ids.push((await api.post('products', { name })).data.id);
    }
    ids = ids.slice(0, 2);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  const creds = () => ({
    consumerKey: sandbox.store.consumerKey,
    consumerSecret: sandbox.store.consumerSecret,
  });

  const restRouteQuery = (): Pair[] => [
    ['rest_route', '/wc/v3/products'],
    ['include[]', String(ids[0])],
    ['include[]', String(ids[1])],
    ['orderby', 'id'],
    ['order', 'asc'],
  ];

  const send = (path: string, query: Pair[], oauth: Record<string, string>) =>
    request(`${sandbox.url}${path}?${toQueryString([...query, ...Object.entries(oauth)])}`);

  it('signs ?rest_route= with include[] as PHP sees it, HMAC-SHA1 → 200', async () => {
    const query = restRouteQuery();
    const { oauth, baseString } = signWc({ method: 'GET', baseUrl: sandbox.url, query, ...creds() });
    expect(baseString.startsWith(`GET&${rawurlencode(sandbox.url)}&`)).toBe(true);
    expect(baseString).toContain('include%255B0%255D%3D');
    expect(baseString).toContain('rest_route%3D%252Fwc%252Fv3%252Fproducts');

    const res = await send('/', query, oauth);
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((p: any) => p.id)).toEqual(ids);
    expect(res.headers['x-wp-total']).toBe('2');
  });

  it('the same request with the nonce replayed → 401 "Invalid nonce - nonce has already been used."', async () => {
    const query = restRouteQuery();
    const { oauth } = signWc({ method: 'GET', baseUrl: sandbox.url, query, ...creds() });
    expect((await send('/', query, oauth)).status).toBe(200);
    const replay = await send('/', query, oauth);
    expectWcError(replay, 401, 'woocommerce_rest_authentication_error');
    expect(replay.json.message).toBe('Invalid nonce - nonce has already been used.');
  });

  it('a correctly signed request with a timestamp 20 minutes old → 401 "Invalid timestamp."', async () => {
    const query = restRouteQuery();
    const timestamp = Math.floor(Date.now() / 1000) - 20 * 60;
    const { oauth } = signWc({ method: 'GET', baseUrl: sandbox.url, query, timestamp, ...creds() });
    const res = await send('/', query, oauth);
    expectWcError(res, 401, 'woocommerce_rest_authentication_error');
    expect(res.json.message).toBe('Invalid timestamp.');
  });

  it('a timestamp 10 minutes old is still inside the ±15 min window → 200', async () => {
    const query = restRouteQuery();
    const timestamp = Math.floor(Date.now() / 1000) - 10 * 60;
    const { oauth } = signWc({ method: 'GET', baseUrl: sandbox.url, query, timestamp, ...creds() });
    expect((await send('/', query, oauth)).status).toBe(200);
  });

  it('signing the literal include[] keys (not PHP-renumbered) → 401 signature mismatch', async () => {
    const query = restRouteQuery();
    const { oauth } = signWc({
      method: 'GET',
      baseUrl: sandbox.url,
      query,
      signedQueryOverride: query,
      ...creds(),
    });
    const res = await send('/', query, oauth);
    expectWcError(res, 401, 'woocommerce_rest_authentication_error');
    expect(res.json.message).toBe('Invalid signature - provided signature does not match.');
  });

  it('signing `http://host:port/` (trailing slash) for a /?rest_route= request → 401 signature mismatch', async () => {
    const query = restRouteQuery();
    const { oauth } = signWc({ method: 'GET', baseUrl: `${sandbox.url}/`, query, ...creds() });
    const res = await send('/', query, oauth);
    expectWcError(res, 401, 'woocommerce_rest_authentication_error');
    expect(res.json.message).toBe('Invalid signature - provided signature does not match.');
  });

  it('pretty permalink path, HMAC-SHA256, oauth params in an Authorization: OAuth header → 200', async () => {
    const path = '/wp-json/wc/v3/products';
    const query: Pair[] = [
      ['include[]', String(ids[1])],
      ['search', 'Signer two'],
    ];
    const { oauth } = signWc({
      method: 'GET',
      baseUrl: `${sandbox.url}${path}`,
      query,
      signatureMethod: 'HMAC-SHA256',
      ...creds(),
    });
    const header = `OAuth ${Object.entries(oauth)
      .map(([k, v]) => `${k}="${rawurlencode(v)}"`)
      .join(', ')}`;
    const res = await request(`${sandbox.url}${path}?${toQueryString(query)}`, {
      headers: { authorization: header },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((p: any) => p.id)).toEqual([ids[1]]);
  });

  it('an unencoded "+" in oauth_signature (decoded to a space by PHP) is accepted', async () => {
    const path = '/wp-json/wc/v3/products';
    const query: Pair[] = [['per_page', '1']];
    let signed = signWc({ method: 'GET', baseUrl: `${sandbox.url}${path}`, query, ...creds() });
    for (let i = 0; i < 500 && !signed.signature.includes('+'); i++) {
      signed = signWc({ method: 'GET', baseUrl: `${sandbox.url}${path}`, query, ...creds() });
    }
    expect(signed.signature).toContain('+');
    const { oauth_signature, ...rest } = signed.oauth;
    const url = `${sandbox.url}${path}?${toQueryString([...query, ...Object.entries(rest)])}&oauth_signature=${oauth_signature!.replace(/\//g, '%2F').replace(/=/g, '%3D')}`;
    const res = await request(url);
    expect(res.status, res.text).toBe(200);
  });

  it('a form-encoded POST body is part of the signed parameters ($_POST is merged)', async () => {
    const path = '/wp-json/wc/v3/products';
    const form: Pair[] = [['name', 'Form signed product']];
    const { oauth } = signWc({ method: 'POST', baseUrl: `${sandbox.url}${path}`, query: form, ...creds() });
    const res = await request(`${sandbox.url}${path}?${toQueryString(Object.entries(oauth))}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: toQueryString(form),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.name).toBe('Form signed product');

    // The same body with a signature that left the form field out does not verify.
    const unsigned = signWc({ method: 'POST', baseUrl: `${sandbox.url}${path}`, query: [], ...creds() });
    const bad = await request(`${sandbox.url}${path}?${toQueryString(Object.entries(unsigned.oauth))}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: toQueryString(form),
    });
    expectWcError(bad, 401, 'woocommerce_rest_authentication_error');
  });

  it('only some oauth_* params → 401 woocommerce_rest_authentication_missing_parameter', async () => {
    const res = await request(
      `${sandbox.url}/wp-json/wc/v3/products?oauth_consumer_key=${sandbox.store.consumerKey}&oauth_signature_method=HMAC-SHA1`,
    );
    expectWcError(res, 401, 'woocommerce_rest_authentication_missing_parameter');
    expect(res.json.message).toBe('Missing OAuth parameters oauth_timestamp, oauth_nonce, oauth_signature');
  });
});
