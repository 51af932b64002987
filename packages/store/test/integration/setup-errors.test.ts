import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError, StoreClient, ValidationError } from '../../src/index.js';
import { type ScriptedServer, selfSignedCertificate, startScriptedServer } from '../helpers/echo-server.js';
import { trustingFetch } from '../helpers/sandbox.js';

/** The first things that go wrong when pointing a client at a store, and what each error must say. */
const KEY = 'ck_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';
const SECRET = 'cs_0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e';

let web: ScriptedServer;
let tls: ScriptedServer;
const notFound = (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(404, { 'content-type': 'text/html' });
  res.end('<html><body><h1>Not Found</h1></body></html>');
};
beforeAll(async () => {
  [web, tls] = await Promise.all([startScriptedServer(), startScriptedServer({ tls: true })]);
  web.fallback = notFound;
  tls.fallback = notFound;
});
afterAll(() => Promise.all([web.close(), tls.close()]));

function construct(options: Record<string, unknown>): unknown {
  try {
    return new StoreClient({ url: web.url, consumerKey: KEY, consumerSecret: SECRET, ...options } as never);
  } catch (error) {
    return error;
  }
}

describe('a server without /wp-json', () => {
  it('a plain 404 page says which URL was asked and that no WordPress REST API answered there', async () => {
    const store = new StoreClient({
      url: web.url,
      consumerKey: KEY,
      consumerSecret: SECRET,
      rateLimit: false,
    });
    const error = await store.products.get(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const { message } = error as NotFoundError;
    expect(message).toContain(`No WordPress REST API answered at GET ${web.url}/wp-json/wc/v3/products/7`);
    expect(message).toMatch(/url option.*permalinks.*WooCommerce is installed and active/s);
    expect(message).not.toContain(SECRET);
  });

  it('with query-string keys the URL in the message has them redacted', async () => {
    const store = new StoreClient({
      url: tls.url,
      consumerKey: KEY,
      consumerSecret: SECRET,
      queryStringAuth: true,
      rateLimit: false,
      fetch: trustingFetch(selfSignedCertificate().cert),
    });
    const error = (await store.products.get(7).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toContain('consumer_secret=[REDACTED]');
    expect(`${error.message} ${JSON.stringify(error)} ${error.stack}`).not.toContain(SECRET);
    expect(tls.requests.at(-1)!.url).toContain(`consumer_secret=${SECRET}`);
  });
});

describe('options of the wrong type name the field, expected and received type', () => {
  it('timeout: "8787" says it got a string', () => {
    const error = construct({ timeout: '8787' }) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('timeout: expected a number >= 0, received a string ("8787")');
  });

  it("the store's own options: queryStringAuth, permalinks, url", () => {
    const error = construct({ queryStringAuth: 'yes', permalinks: 'ugly', url: 8080 }) as ValidationError;
    const byPath = Object.fromEntries(error.issues.map((i) => [i.path, i.message]));
    expect(byPath.queryStringAuth).toBe('expected a boolean, received a string');
    expect(byPath.permalinks).toBe("expected one of 'pretty', 'plain', received 'ugly'");
    expect(byPath.url).toBe('expected a string, received a number');
  });

  it('keys with a line break are refused by name, never quoted', () => {
    const error = construct({ consumerSecret: `${SECRET}\n` }) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues[0]!.path).toBe('consumerSecret');
    expect(error.message).toContain('line feed');
    expect(`${error.message} ${JSON.stringify(error)} ${error.stack}`).not.toContain(SECRET);
  });

  it('no options at all is a ValidationError, not a TypeError', () => {
    expect(() => new StoreClient(undefined as never)).toThrow(ValidationError);
  });
});

it('a store that is not running: "nothing is listening at <url>"', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const store = new StoreClient({
    url: `http://127.0.0.1:${port}`,
    consumerKey: KEY,
    consumerSecret: SECRET,
    rateLimit: false,
    maxRetries: 0,
  });
  const error = await store.products.list().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionError);
  expect((error as Error).message).toContain(`nothing is listening at http://127.0.0.1:${port}`);
});
