import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  type APIError,
  BaseClient,
  type ClientOptions,
  InternalServerError,
  NotFoundError,
  type RequestOptions,
  signerAuth,
  TimeoutError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

class TestClient extends BaseClient {
  constructor(options: Partial<ClientOptions>) {
    super(
      { baseURL: server.url, rateLimit: false, logLevel: 'off', ...options },
      { packageName: '@x/test', packageVersion: '0.0.0' },
    );
  }
  get(options?: RequestOptions) {
    return this.request({ method: 'GET', path: '/things', query: { page: 1 }, options });
  }
}

const server = useFaultServer();

/** Retries without a noticeable backoff, so only the deadline decides when a call ends. */
const quick = { retry: { baseDelayMs: 1, maxDelayMs: 2 } };

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

function abortAfter(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

describe('totalTimeout names the phase it ran out in', () => {
  it('queue: waiting for a rate-limit slot', async () => {
    const client = new TestClient({ rateLimit: { limit: 1, interval: '10s' } });
    try {
      await expect(client.get()).resolves.toEqual({ ok: true });
      const error = await failure(client.get({ totalTimeout: 300 }));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeout: 'total', phase: 'queue' });
      expect(error.message).toContain('totalTimeout of 300 ms while waiting for a rate-limit slot');
      expect(server.requests).toHaveLength(1);
    } finally {
      (client.rateLimiter as { close(): void }).close();
    }
  });

  it('attempt: a stalled response, per-attempt timeout far away (per-request totalTimeout)', async () => {
    server.replies.push('stall');
    const client = new TestClient({ totalTimeout: 60_000 });
    const error = await failure(client.get({ timeout: 10_000, totalTimeout: 300 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
    expect(error.message).toMatch(/^Call exceeded totalTimeout of 300 ms during attempt 1: GET http:\/\//);
    expect(server.requests).toHaveLength(1);
  });

  it('attempt: the deadline spans attempts and backoff (client-level totalTimeout)', async () => {
    server.replies.push(
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 503, headers: { 'retry-after': '0' } },
      'stall',
    );
    const client = new TestClient({ maxRetries: 5, totalTimeout: 500, ...quick });
    const error = await failure(client.get());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
    expect(error.message).toContain('totalTimeout of 500 ms during attempt 3');
    expect(server.requests).toHaveLength(3);
  });

  it('backoff: a Retry-After that ends past the deadline fails at once, with the 503 as cause', async () => {
    server.replies.push({ status: 503, headers: { 'retry-after': '2' } }, { json: { late: true } });
    const client = new TestClient({});
    const error = await failure(client.get({ totalTimeout: 1000 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'total', phase: 'backoff' });
    expect(error.cause).toBeInstanceOf(InternalServerError);
    expect((error.cause as APIError).status).toBe(503);
    expect(error.message).toMatch(/totalTimeout of 1000 ms before retry 1 .*; last error: 503/);
    expect(server.requests).toHaveLength(1);
  });

  it('a call that ends within its totalTimeout succeeds, retries included', async () => {
    server.replies.push({ status: 503, headers: { 'retry-after': '0' } });
    const client = new TestClient({ totalTimeout: 5_000, ...quick });
    await expect(client.get()).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });
});

describe("the caller's signal and the per-attempt timeout keep their own errors", () => {
  it('a signal that fires first during an attempt gives AbortError', async () => {
    const controller = new AbortController();
    // Aborts once the request has arrived, and never answers.
    server.replies.push(() => controller.abort());
    const client = new TestClient({ totalTimeout: 5_000 });
    const error = await failure(client.get({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('a signal that fires first during the backoff gives AbortError', async () => {
    server.replies.push({ status: 503, headers: { 'retry-after': '2' } });
    const controller = new AbortController();
    const client = new TestClient({
      totalTimeout: 5_000,
      hooks: { beforeRetry: () => void setTimeout(() => controller.abort(), 20) },
    });
    const error = await failure(client.get({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error.message).toContain('aborted while waiting to retry');
    expect(server.requests).toHaveLength(1);
  });

  it('a signal that fires first in the rate-limit queue gives AbortError', async () => {
    const client = new TestClient({ rateLimit: { limit: 1, interval: '10s' } });
    try {
      await client.get();
      const error = await failure(client.get({ totalTimeout: 5_000, signal: abortAfter(50) }));
      expect(error).toBeInstanceOf(AbortError);
      expect(error).not.toBeInstanceOf(TimeoutError);
      expect(error.message).toContain('aborted while waiting for a rate-limit slot');
      expect(server.requests).toHaveLength(1);
    } finally {
      (client.rateLimiter as { close(): void }).close();
    }
  });

  it('the per-attempt timeout alone gives timeout "attempt" after the retries', async () => {
    server.replies.push('stall', 'stall', 'stall');
    const client = new TestClient({ maxRetries: 2, ...quick });
    const error = await failure(client.get({ timeout: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'attempt', phase: 'attempt' });
    expect(error.message).toContain('timed out after 200 ms');
    expect(server.requests).toHaveLength(3);
  });

  it('a per-attempt timeout inside a longer totalTimeout is still timeout "attempt"', async () => {
    server.replies.push('stall', 'stall');
    const client = new TestClient({ maxRetries: 1, totalTimeout: 10_000, ...quick });
    const error = await failure(client.get({ timeout: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeout: 'attempt' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('signatures in the URL are redacted from timeout and API errors', () => {
  const SIGNING_KEY = 'signing-key-7a6b5c4d3e2f';
  const SIGNED = ['oauth_signature', 'auth_signature', 'X-Amz-Signature', 'body_signature'];
  const signed = signerAuth(
    'signed',
    (request) => {
      for (const name of SIGNED) {
        const value = createHmac('sha256', SIGNING_KEY).update(`${name} ${request.url}`).digest('hex');
        request.url.searchParams.append(name, value);
      }
    },
    [SIGNING_KEY],
  );

  /**
   * No signature value the server was sent appears in what the error prints; where `shown` has the signed
   * URL, each parameter is there with its value redacted.
   */
  function expectRedacted(error: Error, shown?: string): void {
    const sent = server.requests.flatMap((r) => {
      const query = new URL(r.url, server.url).searchParams;
      return SIGNED.flatMap((name) => query.getAll(name));
    });
    expect(sent.length).toBeGreaterThanOrEqual(SIGNED.length);
    const printed = [error.message, String(shown), JSON.stringify(error), inspect(error, { depth: 8 })];
    for (const value of [...sent, SIGNING_KEY])
      for (const text of printed) expect(text, value).not.toContain(value);
    if (shown === undefined) return;
    for (const name of SIGNED) expect(shown).toContain(`${name}=[REDACTED]`);
    expect(shown).toContain('page=1');
  }

  it('TimeoutError of the whole call (attempt phase)', async () => {
    server.replies.push('stall');
    const client = new TestClient({ auth: signed });
    const error = await failure(client.get({ totalTimeout: 300 }));
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
    // The message names the URL before auth; the aborted attempt in `cause` names the signed one.
    expect(error.message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/things\?page=1$/);
    expectRedacted(error, (error.cause as Error).message);
  });

  it('TimeoutError of the whole call (backoff phase)', async () => {
    server.replies.push({ status: 503, headers: { 'retry-after': '2' } });
    const client = new TestClient({ auth: signed });
    const error = await failure(client.get({ totalTimeout: 1000 }));
    expect(error).toMatchObject({ timeout: 'total', phase: 'backoff' });
    expectRedacted(error, (error.cause as APIError).url);
  });

  it('TimeoutError of one attempt', async () => {
    server.replies.push('stall');
    const client = new TestClient({ auth: signed, maxRetries: 0 });
    const error = await failure(client.get({ timeout: 200 }));
    expect(error).toMatchObject({ timeout: 'attempt' });
    expectRedacted(error, error.message);
  });

  it('APIError: err.url, message and serialised forms', async () => {
    server.replies.push({
      status: 404,
      json: { code: 'not_found', message: 'No such thing.' },
      headers: { 'content-location': '/things?X-Amz-Signature=echoed-signature-value' },
    });
    const client = new TestClient({ auth: signed, maxRetries: 0 });
    const error = await failure(client.get());
    expect(error).toBeInstanceOf(NotFoundError);
    expectRedacted(error, (error as APIError).url);
    expect(inspect(error, { depth: 8 })).not.toContain('echoed-signature-value');
  });
});
