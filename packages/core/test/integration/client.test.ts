import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  BaseClient,
  bearerAuth,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  RetryBudget,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  XError,
} from '../../src/index.js';
import { startFaultServer, useFaultServer } from '../helpers/fault-server.js';
import { TestClient } from '../helpers/test-client.js';

const server = useFaultServer();

const fast = { retry: { baseDelayMs: 10, maxDelayMs: 20 } };

describe('successful requests', () => {
  it('parses the body with the schema and exposes response metadata', async () => {
    server.replies.push({
      json: { id: 7, name: 'seven', extra: true },
      headers: { 'x-request-id': 'req_1' },
    });
    const client = new TestClient({
      baseURL: `${server.url}/v1/`,
      auth: bearerAuth('tok_abcdef'),
      headers: { 'x-team': 'a' },
    });
    const { data, requestId, status, headers } = await client.getThing(7).withResponse();
    expect(data).toEqual({ id: 7, name: 'seven', extra: true });
    expect(requestId).toBe('req_1');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('application/json');
    const sent = server.requests[0]!;
    expect(sent.url).toBe('/v1/things/7');
    expect(sent.headers.authorization).toBe('Bearer tok_abcdef');
    expect(sent.headers['user-agent']).toBe('@x/test/1.2.3');
    expect(sent.headers['x-team']).toBe('a');
  });

  it('sends JSON bodies and the idempotency key header', async () => {
    server.replies.push({ status: 201, json: { id: 1, name: 'n' } });
    const client = new TestClient({ baseURL: server.url });
    await client.createThing({ name: 'n' }, { idempotencyKey: 'key-1' });
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(JSON.parse(sent.body)).toEqual({ name: 'n' });
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['idempotency-key']).toBe('key-1');
  });

  it('serialises query values: arrays comma-joined, dates ISO, undefined dropped', async () => {
    const client = new TestClient({ baseURL: server.url });
    await client.request({
      method: 'GET',
      path: '/q',
      query: { include: [1, 2], after: new Date('2026-01-02T03:04:05Z'), skip: undefined, on: true },
    });
    expect(server.requests[0]!.url).toBe('/q?include=1%2C2&after=2026-01-02T03%3A04%3A05.000Z&on=true');
  });
});

describe('errors from real responses', () => {
  const cases = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [418, APIError],
  ] as const;
  for (const [status, ErrorClass] of cases) {
    it(`${status} becomes ${ErrorClass.name}`, async () => {
      server.replies.push({
        status,
        json: { code: `code_${status}`, message: `Message ${status}.` },
        headers: { 'x-request-id': `req_${status}`, 'retry-after': '3600' },
      });
      const client = new TestClient({ baseURL: server.url, maxRetries: 0 });
      const error = await client.getThing(1).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(XError);
      const apiError = error as APIError;
      expect(apiError.status).toBe(status);
      expect(apiError.code).toBe(`code_${status}`);
      expect(apiError.requestId).toBe(`req_${status}`);
      expect(apiError.body).toEqual({ code: `code_${status}`, message: `Message ${status}.` });
      expect(apiError.message).toBe(
        `${status} code_${status}: Message ${status}. (request_id=req_${status})`,
      );
      expect(apiError.headers.get('x-request-id')).toBe(`req_${status}`);
      if (apiError instanceof RateLimitError) expect(apiError.retryAfterMs).toBe(3_600_000);
    });
  }

  it('an HTML error page gives the status text, not the markup', async () => {
    server.replies.push({
      status: 502,
      text: '<html><body>Bad gateway</body></html>',
      headers: { 'content-type': 'text/html' },
    });
    const client = new TestClient({ baseURL: server.url, maxRetries: 0 });
    await expect(client.getThing(1)).rejects.toThrow(/^502 Bad Gateway$/);
  });
});

describe('retries', () => {
  it('honours Retry-After in seconds on 429 and then succeeds', async () => {
    server.replies.push({ status: 429, json: { message: 'slow down' }, headers: { 'retry-after': '1' } });
    server.replies.push({ json: { id: 1, name: 'a' } });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await expect(client.getThing(1)).resolves.toEqual({ id: 1, name: 'a' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('honours Retry-After as an HTTP date', async () => {
    server.replies.push({
      status: 503,
      headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() },
    });
    server.replies.push({ json: { id: 1, name: 'a' } });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await client.getThing(1);
    // HTTP dates have one-second resolution, so the wait is between 1 and 2 seconds.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('retries 500, 502, 503, 504 and 408 for GET', async () => {
    for (const status of [500, 502, 503, 504, 408]) server.replies.push({ status });
    server.replies.push({ json: { id: 1, name: 'a' } });
    const client = new TestClient({ baseURL: server.url, maxRetries: 5, ...fast });
    await expect(client.getThing(1)).resolves.toMatchObject({ id: 1 });
    expect(server.requests).toHaveLength(6);
  });

  it('gives up after maxRetries with the last error', async () => {
    for (let i = 0; i < 3; i++)
      server.replies.push({ status: 500, json: { code: 'boom', message: `try ${i}` } });
    const client = new TestClient({ baseURL: server.url, maxRetries: 2, ...fast });
    await expect(client.getThing(1)).rejects.toThrow('500 boom: try 2');
    expect(server.requests).toHaveLength(3);
  });

  it('does not repeat a POST after a 503 (it may have been processed)', async () => {
    server.replies.push({ status: 503 });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await expect(client.createThing({ name: 'x' })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('repeats a POST after a 429 (provably not processed)', async () => {
    server.replies.push({ status: 429, headers: { 'retry-after': '0' } });
    server.replies.push({ status: 201, json: { id: 2, name: 'x' } });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await expect(client.createThing({ name: 'x' })).resolves.toMatchObject({ id: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('repeats a POST after a 503 when an idempotency key is given', async () => {
    server.replies.push({ status: 503 });
    server.replies.push({ status: 201, json: { id: 3, name: 'x' } });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await expect(client.createThing({ name: 'x' }, { idempotencyKey: 'k' })).resolves.toMatchObject({
      id: 3,
    });
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k', 'k']);
  });

  it('refuses an idempotency key for a service without idempotency keys, before sending', async () => {
    class NoKeys extends BaseClient {
      constructor() {
        super(
          { baseURL: server.url, rateLimit: false },
          { packageName: '@x/no-keys', packageVersion: '1.0.0' },
        );
      }
      create(options: { idempotencyKey?: string }) {
        return this.request({ method: 'POST', path: '/things', body: {}, what: 'things.create', options });
      }
    }
    const error = await new NoKeys().create({ idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('idempotencyKey');
    expect(server.requests).toHaveLength(0);
  });

  it('a reset connection is retried for GET and surfaces as ConnectionError for POST', async () => {
    server.replies.push('reset', { json: { id: 4, name: 'r' } });
    const client = new TestClient({ baseURL: server.url, ...fast });
    await expect(client.getThing(4)).resolves.toMatchObject({ id: 4 });
    server.replies.push('reset');
    const error = await client.createThing({ name: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).unsent).toBe(false);
  });

  it('connection refused is retried even for POST, then fails as ConnectionError with unsent=true', async () => {
    const closed = await startFaultServer();
    const url = closed.url;
    await closed.close();
    const retries: string[] = [];
    const client = new TestClient({
      baseURL: url,
      maxRetries: 2,
      ...fast,
      hooks: { beforeRetry: (e) => void retries.push(e.reason) },
    });
    const error = await client.createThing({ name: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).unsent).toBe(true);
    expect(retries).toEqual(['connection refused', 'connection refused']);
  });

  it('a stalled server gives TimeoutError after the per-request timeout', async () => {
    server.replies.push('stall');
    const client = new TestClient({ baseURL: server.url, maxRetries: 0 });
    const error = await client.getThing(1, { timeout: 200 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('timed out after 200 ms');
  });

  it('the retry budget stops retries once spent', async () => {
    for (let i = 0; i < 6; i++) server.replies.push({ status: 503 });
    const budget = new RetryBudget({ capacity: 10, retryCost: 5 });
    const client = new TestClient({
      baseURL: server.url,
      maxRetries: 5,
      retryBudget: budget,
      logLevel: 'off',
      ...fast,
    });
    await expect(client.getThing(1)).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
    expect(budget.tokens).toBe(0);
  });

  it('a total deadline stops retries that would end past it (retry.deadlineMs is an alias of totalTimeout)', async () => {
    server.replies.push({ status: 503, headers: { 'retry-after': '2' } }, { json: { id: 1, name: 'a' } });
    const client = new TestClient({ baseURL: server.url, retry: { deadlineMs: 1000 } });
    const error = await client.getThing(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'total', phase: 'backoff' });
    expect((error as TimeoutError).cause).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(/totalTimeout of 1000 ms before retry 1 .*last error: 503/);
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 pauses the shared limiter for every request, not just the one retried', async () => {
    server.replies.push({ status: 429, headers: { 'retry-after': '1' } });
    const client = new TestClient({
      baseURL: server.url,
      maxRetries: 0,
      rateLimit: { limit: 100, interval: '1s' },
    });
    await expect(client.getThing(1)).rejects.toBeInstanceOf(RateLimitError);
    await client.getThing(2).catch(() => undefined);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });
});

describe('response validation', () => {
  it('malformed JSON raises ResponseValidationError carrying the raw text and request id', async () => {
    server.replies.push({
      text: '{"id": 1, "name": ',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_bad' },
    });
    const client = new TestClient({ baseURL: server.url });
    const error = (await client.getThing(1).then(
      () => undefined,
      (e: unknown) => e,
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toBe('{"id": 1, "name": ');
    expect(error.requestId).toBe('req_bad');
    expect(error.message).toContain('things.get');
  });

  it('a body of the wrong shape names the fields', async () => {
    server.replies.push({ json: { id: 'one', name: 5 } });
    const client = new TestClient({ baseURL: server.url });
    const error = (await client.getThing(1).then(
      () => undefined,
      (e: unknown) => e,
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual(['id', 'name']);
    expect(error.body).toEqual({ id: 'one', name: 5 });
  });

  it('warn mode logs and returns the body; off mode returns it silently', async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
    server.replies.push({ json: { id: 'one' } }, { json: { id: 'two' } });
    const warn = new TestClient({ baseURL: server.url, validateResponses: 'warn', logger });
    await expect(warn.getThing(1)).resolves.toEqual({ id: 'one' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Unexpected response body for things.get');
    const off = new TestClient({ baseURL: server.url, validateResponses: 'off', logger });
    await expect(off.getThing(1)).resolves.toEqual({ id: 'two' });
    expect(warnings).toHaveLength(1);
  });
});
