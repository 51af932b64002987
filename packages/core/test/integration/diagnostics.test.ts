import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  BaseClient,
  bearerAuth,
  type ClientOptions,
  queryAuth,
  type RequestOptions,
  ResponseValidationError,
  Secret,
  TimeoutError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/** Messages that say what was sent where: a page that is not JSON, a timeout on the last attempt. */

const thing = z.looseObject({ id: z.number(), name: z.string() });

class TestClient extends BaseClient {
  constructor(options: ClientOptions) {
    super({ rateLimit: false, logLevel: 'off', ...options }, { packageName: '@x/test', packageVersion: '1' });
  }
  getThing(id: number, options?: RequestOptions) {
    return this.request({ method: 'GET', path: `/things/${id}`, schema: thing, what: 'things.get', options });
  }
  createThing(body: unknown, options?: RequestOptions) {
    return this.request({
      method: 'POST',
      path: '/things',
      body,
      schema: thing,
      what: 'things.create',
      options,
    });
  }
}

const server = useFaultServer();

const fail = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => undefined,
    (e: unknown) => e as Error,
  );

describe('a 200 whose body is not JSON', () => {
  it('says so, with the content type, the start of the page, the URL and the likely causes', async () => {
    const page = `<!DOCTYPE html>\n<html>\n  <head><title>Maintenance</title></head>\n  <body>session tok_secret_123 ${'x'.repeat(300)}</body></html>`;
    server.replies.push({ text: page, headers: { 'content-type': 'text/html; charset=UTF-8' } });
    const client = new TestClient({ baseURL: `${server.url}/api`, auth: bearerAuth('tok_secret_123') });
    const error = (await fail(client.getThing(1))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain('Unexpected response body for things.get: expected JSON');
    expect(error.message).toContain(`GET ${server.url}/api/things/1 answered 200`);
    expect(error.message).toContain('content-type text/html; charset=UTF-8');
    // Whitespace collapsed, the client's secrets removed, cut at 100 characters.
    expect(error.message).toMatch(
      /and "<!DOCTYPE html> <html> <head><title>Maintenance<\/title><\/head> <body>session \S+ x+" \(first 100 characters\)/,
    );
    expect(error.message).not.toContain('tok_secret_123');
    expect(error.message).toMatch(/Likely causes: .*base URL.*login page.*security plugin/);
    expect(error.message).not.toContain('expected object');
    // The raw body is kept on the error, without the client's secrets.
    expect(error.body).toContain('<title>Maintenance</title>');
    expect(error.body).not.toContain('tok_secret_123');
  });

  it('a short page is shown whole, and an empty 200 says it was empty', async () => {
    server.replies.push(
      { text: 'Forbidden by policy', headers: { 'content-type': 'text/plain' } },
      { text: '' },
    );
    const client = new TestClient({ baseURL: server.url });
    const short = await fail(client.getThing(1));
    expect(short?.message).toContain('with content-type text/plain and "Forbidden by policy".');
    expect(short?.message).not.toContain('first 100');
    const empty = await fail(client.getThing(2));
    expect(empty).toBeInstanceOf(ResponseValidationError);
    expect(empty?.message).toContain('with no content-type and an empty body');
  });

  it('JSON of the wrong shape still names the fields, and a secret in the URL is redacted', async () => {
    server.replies.push({ json: { id: 'one', name: 'a' } }, { text: '<p>hi</p>' });
    const client = new TestClient({ baseURL: server.url });
    const shape = (await fail(client.getThing(1))) as ResponseValidationError;
    expect(shape.issues).toEqual([{ path: 'id', message: 'expected number' }]);
    const keyed = new TestClient({
      baseURL: server.url,
      auth: queryAuth({ api_key: new Secret('sk_live_abc') }),
    });
    const html = await fail(keyed.getThing(1));
    expect(html?.message).toContain('expected JSON');
    expect(html?.message).not.toContain('sk_live_abc');
  });
});

describe('timeouts say which attempt timed out', () => {
  const fast = { retry: { baseDelayMs: 5, maxDelayMs: 10 } };

  it('the last of three attempts: "attempt 3 of 3"', async () => {
    server.replies.push('stall', 'stall', 'stall');
    const client = new TestClient({ baseURL: server.url, maxRetries: 2, ...fast });
    const error = await fail(client.getThing(1, { timeout: 100 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(3);
    expect(error?.message).toBe(
      `Request timed out after 100 ms (per-attempt timeout, attempt 3 of 3): GET ${server.url}/things/1`,
    );
  });

  it('a single try: "attempt 1 of 1"; a POST says why it is not repeated', async () => {
    server.replies.push('stall', 'stall');
    const client = new TestClient({ baseURL: server.url, maxRetries: 0 });
    const get = await fail(client.getThing(1, { timeout: 100 }));
    expect(get?.message).toContain('(per-attempt timeout, attempt 1 of 1)');
    const post = await fail(
      new TestClient({ baseURL: server.url, ...fast }).createThing({}, { timeout: 100 }),
    );
    expect(post).toBeInstanceOf(TimeoutError);
    expect(post?.message).toContain(
      'attempt 1; a POST that timed out is not repeated without an idempotency key',
    );
    expect(server.requests).toHaveLength(2);
  });
});
