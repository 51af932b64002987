import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ResponseValidationError,
  StoreClient,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';
import { clientFor, rejection, sandboxForFile } from '../helpers/sandbox.js';

/** What a new user hits first, and what each error must say: what was sent where, and the likely causes. */

const box = sandboxForFile();

function construct(url: string, extra: Partial<ConstructorParameters<typeof StoreClient>[0]> = {}) {
  try {
    new StoreClient({
      url,
      consumerKey: box.store.consumerKey,
      consumerSecret: box.store.consumerSecret,
      ...extra,
    });
    return undefined;
  } catch (error) {
    return error as ValidationError;
  }
}

describe('a url that already points at the REST API', () => {
  it('is refused at construction, naming url and the home URL to pass instead; nothing is sent', () => {
    box.store.resetStats();
    for (const suffix of ['/wp-json', '/wp-json/', '/wp-json/wc/v3', '/wp-json/wc/v3/products']) {
      const error = construct(`${box.store.url}${suffix}`);
      expect(error, suffix).toBeInstanceOf(ValidationError);
      expect(error!.issues[0]!.path).toBe('url');
      expect(error!.message).toContain(`points at the REST API (${box.store.url}${suffix})`);
      expect(error!.message).toContain(`pass the store's home URL (${box.store.url}), without /wp-json`);
    }
    // WordPress in a subdirectory keeps its path; index.php permalinks too.
    expect(construct('https://example.com/shop/index.php/wp-json/wc/v3')!.message).toContain(
      'home URL (https://example.com/shop)',
    );
    expect(construct('https://example.com/api/wc/v3', { apiPrefix: 'api' })!.message).toContain(
      'without /api;',
    );
    expect(box.store.stats().requests).toBe(0);
  });

  it('?rest_route= is refused too, pointing to permalinks: plain; the query keys are not echoed', () => {
    const error = construct(`${box.store.url}/?rest_route=/wc/v3/products&consumer_secret=cs_leak`);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.message).toContain("permalinks: 'plain'");
    expect(error!.message).not.toContain('cs_leak');
  });

  it('the home URL itself works, with either permalink setting', async () => {
    await expect(clientFor(box).products.list()).resolves.toBeDefined();
    await expect(clientFor(box, { permalinks: 'plain' }).products.list()).resolves.toBeDefined();
  });
});

describe('an OAuth signature the store computes differently', () => {
  let proxy: Server;
  beforeAll(async () => {
    // A port mapping in front of the store: the store signs for its own host:port, we for the proxy's.
    const target = new URL(box.store.url);
    proxy = createServer((socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => proxy.close(resolve)));

  it('names the URL that was signed and the likely causes (Site Address, proxy, permalinks, secret)', async () => {
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const error = await rejection(clientFor(box, { url }).products.list({ per_page: 5 }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('woocommerce_rest_authentication_error');
    expect(error!.message).toContain('Invalid signature - provided signature does not match.');
    expect(error!.message).toContain(`different OAuth 1.0a signature for GET ${url}/wp-json/wc/v3/products`);
    expect(error!.message).toMatch(
      /Site Address .* is not http:\/\/127\.0\.0\.1:\d+.*localhost vs 127\.0\.0\.1/,
    );
    expect(error!.message).toMatch(/proxy, tunnel or container port mapping/);
    expect(error!.message).toMatch(/permalinks: 'plain'/);
    expect(error!.message).toMatch(/consumer secret does not belong to this consumer key/);
    expect(error!.message).not.toContain(box.store.consumerSecret);
  });

  it('a wrong secret gets the same hint (it fails the same way)', async () => {
    const error = await rejection(clientFor(box, { consumerSecret: `cs_${'0'.repeat(40)}` }).products.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error!.message).toContain(`signature for GET ${box.store.url}/wp-json/wc/v3/products`);
  });
});

describe('a 200 that is not the API', () => {
  it('an HTML page says it was not JSON: content type, first characters, URL, likely causes', async () => {
    box.store.injectFault({
      status: 200,
      method: 'GET',
      path: '/products',
      times: 1,
      body: '<!DOCTYPE html>\n<html><head><title>Maintenance mode</title></head>\n<body><h1>Back soon</h1></body></html>',
    });
    const error = await rejection(clientFor(box).products.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error!.message).toContain('Unexpected response body for products.list: expected JSON');
    expect(error!.message).toMatch(
      /but GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/wc\/v3\/products\?\S+ answered 200/,
    );
    expect(error!.message).toContain('content-type text/html; charset=UTF-8');
    expect(error!.message).toContain(
      '"<!DOCTYPE html> <html><head><title>Maintenance mode</title></head> <body><h1>Back soon</h1></body></" (first 100 characters)',
    );
    expect(error!.message).toMatch(/Likely causes: .*base URL.*maintenance.*security plugin/);
    expect(error!.message).not.toContain('expected object');
    // The OAuth signature in the URL is not shown.
    expect(error!.message).not.toMatch(/oauth_signature=[^&\s]*[A-Za-z0-9]{10}/);
  });
});

describe('timeouts', () => {
  it('say which attempt timed out: attempt 3 of 3', async () => {
    box.store.injectFault({
      status: 200,
      method: 'GET',
      path: '/products',
      times: 3,
      delayMs: 400,
      passThrough: true,
    });
    const store = clientFor(box, { timeout: 100, maxRetries: 2, retry: { baseDelayMs: 5, maxDelayMs: 10 } });
    const error = await rejection(store.products.list());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error!.message).toMatch(
      /^Request timed out after 100 ms \(per-attempt timeout, attempt 3 of 3\): GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/wc\/v3\/products/,
    );
    expect(error!.message).not.toContain(box.store.consumerSecret);
  });
});
