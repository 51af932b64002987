import { describe, expect, it } from 'vitest';
import {
  basicAuth,
  bearerAuth,
  headerAuth,
  queryAuth,
  Secret,
  signerAuth,
  ValidationError,
  XError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';
import { TestClient } from '../helpers/test-client.js';

/**
 * A key pasted with its line break used to pass construction and then fail every request with the raw
 * `TypeError` of `Headers.set`, which quotes the whole header value, key included. Now it fails at
 * construction, naming the option and the problem, never the key.
 */
const KEY = 'sk_live_4f3e2d1c0b9a8f7e6d5c';
const server = useFaultServer();

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function expectRefused(error: unknown, field: string): void {
  expect(error).toBeInstanceOf(ValidationError);
  const text = `${(error as Error).message} ${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
  expect(text).toContain(field);
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(KEY.slice(0, 10));
}

describe('credentials with control characters are refused when the strategy is made', () => {
  for (const [label, bad] of [
    ['a trailing CRLF', `${KEY}\r\n`],
    ['an injected header', `${KEY}\r\nX-Evil: 1`],
    ['a NUL', `${KEY}\u0000`],
    ['a tab', `\t${KEY}`],
  ] as const) {
    it(`bearer with ${label}: a ValidationError naming the option, not the key`, () => {
      const error = caught(() => bearerAuth(bad, { option: 'apiKey' }));
      expectRefused(error, 'apiKey');
      expect((error as ValidationError).issues[0]!.message).toMatch(/position \d+ of \d+/);
    });
  }

  it('every strategy checks its secrets, Secret-wrapped ones included', () => {
    const bad = new Secret(`${KEY}\n`);
    expectRefused(
      caught(() => headerAuth('authorization', bad, { option: 'apiKey' })),
      'apiKey',
    );
    expectRefused(
      caught(() => headerAuth('authorization', bad)),
      'authorization header value',
    );
    expectRefused(
      caught(() => basicAuth('ck_user', bad, { passwordOption: 'consumerSecret' })),
      'consumerSecret',
    );
    expectRefused(
      caught(() => queryAuth({ consumer_secret: bad })),
      'consumer_secret',
    );
    expectRefused(
      caught(() => signerAuth('hmac', () => {}, [bad])),
      'secrets[0]',
    );
  });

  it('a header key beyond ISO-8859-1 is refused too (a header cannot carry it)', () => {
    expectRefused(
      caught(() => bearerAuth(`${KEY}€`)),
      'token',
    );
    // Basic auth base64-encodes UTF-8, so the same password is fine there.
    expect(() => basicAuth('user', `${KEY}€`)).not.toThrow();
  });

  it('a client built with a bad header option fails at construction, naming the header', () => {
    const error = caught(
      () => new TestClient({ baseURL: server.url, headers: { 'x-api-key': `${KEY}\r\n` } }),
    );
    expectRefused(error, 'headers.x-api-key');
  });
});

describe('headers that cannot be built fail as typed, redacted errors before sending', () => {
  it('a per-request header with CR/LF rejects with a ValidationError and sends nothing', async () => {
    const client = new TestClient({ baseURL: server.url, auth: bearerAuth(KEY) });
    const call = client.request({
      method: 'GET',
      path: '/things/1',
      options: { headers: { 'x-trace': `${KEY}\r\nX-Evil: 1` } },
    });
    const error = await call.catch((e: unknown) => e);
    expectRefused(error, 'options.headers.x-trace');
    expect(server.requests).toHaveLength(0);
  });

  it('a custom signer whose header Headers refuses is an XError without the secret', async () => {
    const auth = signerAuth(
      'custom',
      (request) => {
        request.headers.set('x-signature', `${KEY}\nX-Evil: 1`);
      },
      [KEY],
    );
    const client = new TestClient({ baseURL: server.url, auth });
    const error = await client.getThing(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(XError);
    expect(error).not.toBeInstanceOf(TypeError);
    const text = `${(error as Error).message} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(text).toContain('custom auth strategy');
    expect(text).not.toContain(KEY);
    expect(server.requests).toHaveLength(0);
  });

  it('a clean key still authenticates over the wire', async () => {
    const client = new TestClient({ baseURL: server.url, auth: bearerAuth(KEY, { option: 'apiKey' }) });
    server.replies.push({ json: { id: 1, name: 'ok' } });
    await expect(client.getThing(1)).resolves.toEqual({ id: 1, name: 'ok' });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
