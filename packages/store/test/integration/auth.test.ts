import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, StoreClient, ValidationError } from '../../src/index.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

let http: Sandbox;
let https: Sandbox;
beforeAll(async () => {
  [http, https] = await Promise.all([sandbox(), sandbox({ https: true })]);
});
afterAll(() => Promise.all([http.close(), https.close()]));

describe('auth modes the store accepts', () => {
  it('plain HTTP: OAuth 1.0a signatures, no secret on the wire, fresh nonce per request', async () => {
    const seen: string[] = [];
    const store = clientFor(http, { hooks: { beforeRequest: (e) => void seen.push(e.url) } });
    const created = await store.products.create({ name: 'Signed' });
    expect((await store.products.get(created.id)).name).toBe('Signed');
    expect(seen).toHaveLength(2);
    for (const url of seen) {
      expect(url).toContain('oauth_signature_method=HMAC-SHA256');
      expect(url).not.toContain(http.store.consumerSecret);
    }
  });

  it('plain HTTP with HMAC-SHA1', async () => {
    const store = clientFor(http, { oauthSignatureMethod: 'HMAC-SHA1' });
    await expect(store.products.list({ per_page: 5 })).resolves.toBeDefined();
  });

  it('HTTPS: Basic auth by default, query-string keys on request', async () => {
    const basic = clientFor(https);
    const created = await basic.products.create({ name: 'Over TLS' });
    const query = clientFor(https, { queryStringAuth: true });
    const { data, response } = await query.products.get(created.id).withResponse();
    expect(data.name).toBe('Over TLS');
    expect(response.url).toContain('consumer_key=');
  });

  it('refuses to send the secret in clear over plain HTTP, before any request', () => {
    const error = (() => {
      try {
        return new StoreClient({
          url: http.store.url,
          consumerKey: 'ck_x',
          consumerSecret: 'cs_x',
          queryStringAuth: true,
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]!.path).toBe('queryStringAuth');
    expect(() => new StoreClient({ url: 'ftp://shop', consumerKey: 'a', consumerSecret: 'b' })).toThrow(
      ValidationError,
    );
    expect(() => new StoreClient({ url: 'https://shop.test', consumerKey: '', consumerSecret: 'b' })).toThrow(
      /consumerKey/,
    );
  });

  it('a wrong secret is the store’s 401 woocommerce_rest_authentication_error, over both schemes', async () => {
    for (const box of [http, https]) {
      const store = clientFor(box, { consumerSecret: `cs_${'0'.repeat(40)}` });
      const error = await store.products.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).code).toBe('woocommerce_rest_authentication_error');
      expect(String((error as Error).message)).not.toContain(box.store.consumerSecret);
    }
  });

  it('a read-only key cannot write; a write-only key cannot read', async () => {
    const readOnly = clientFor(http, {
      consumerKey: http.store.keys.read.consumerKey,
      consumerSecret: http.store.keys.read.consumerSecret,
    });
    await expect(readOnly.products.list()).resolves.toBeDefined();
    const writeError = await readOnly.products.create({ name: 'nope' }).catch((e: unknown) => e);
    expect(writeError).toBeInstanceOf(AuthenticationError);
    expect((writeError as AuthenticationError).code).toBe('woocommerce_rest_authentication_error');
    const writeOnly = clientFor(http, {
      consumerKey: http.store.keys.write.consumerKey,
      consumerSecret: http.store.keys.write.consumerSecret,
    });
    await expect(writeOnly.products.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('credentials lost on the way (a proxy that strips them) give the anonymous 401 with the likely causes', async () => {
    // A proxy in front of the store that drops the OAuth parameters, as misconfigured hosts drop headers.
    const target = new URL(http.store.url);
    const proxy = createServer((req, res) => {
      const url = new URL(req.url ?? '/', target);
      for (const key of [...url.searchParams.keys()])
        if (key.startsWith('oauth_')) url.searchParams.delete(key);
      const upstream = httpRequest(
        url,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const store = clientFor(http, { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      const error = await store.products.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).code).toBe('woocommerce_rest_cannot_view');
      expect((error as Error).message).toContain('treated this request as anonymous');
      expect((error as Error).message).toContain('Site Address');
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
