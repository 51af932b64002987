import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BaseClient,
  type ClientOptions,
  ConnectionError,
  hmac,
  type RateLimiter,
  type ServiceAdapter,
  signerAuth,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/**
 * The ServiceAdapter hooks a package uses instead of wrapping `fetch` (which would cost it the native
 * path): `tlsOption`, `statusInBody` and `sendGate`, over a real server; this file runs on both paths.
 */
const server = useFaultServer();

function client(adapter: Partial<ServiceAdapter>, options: Partial<ClientOptions> = {}) {
  return new BaseClient(
    { baseURL: server.url, rateLimit: false, maxRetries: 0, timeout: 5000, ...options },
    { packageName: '@x/test', packageVersion: '0.0.0', ...adapter },
  );
}

const get = (c: BaseClient, options = {}) => c.request({ method: 'GET', path: '/things', options });

/** soketi's shape: every error is a 200 with the status in the body. */
const statusInBody = (text: string) => {
  const match = /^\{"error":"[^"]*","code":(\d{3})\}$/.exec(text);
  return match ? Number(match[1]) : undefined;
};

describe('tlsOption', () => {
  it('a plain-HTTP answer to https:// names the option to change', async () => {
    const plain = new URL(server.url);
    const error = await get(client({ tlsOption: 'useTLS' }, { baseURL: `https://${plain.host}` })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    const { message } = error as ConnectionError;
    expect(message).toContain('this host speaks plain HTTP: set useTLS: false');
    expect(message).not.toContain('the TLS option');
    expect(message).toContain(`https://${plain.host}/things`);
  });

  it('other connection failures are left as they are', async () => {
    server.replies.push('reset');
    const error = await get(client({ tlsOption: 'useTLS' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).not.toContain('useTLS');
  });
});

describe('statusInBody', () => {
  it('a 200 carrying an error status becomes that typed error, seen so by hooks, saying what was sent', async () => {
    server.replies.push({ json: { error: 'Unknown app', code: 401 } });
    const statuses: number[] = [];
    const c = client(
      { statusInBody },
      { hooks: { afterResponse: (event) => void statuses.push(event.status) } },
    );
    const error = await get(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as APIError).status).toBe(401);
    expect((error as APIError).message).toContain(
      '(the server answered HTTP 200 with this error in its body)',
    );
    expect((error as APIError).body).toEqual({ error: 'Unknown app', code: 401 });
    expect(statuses).toEqual([401]);
  });

  it('a 503 in the body is retried like a 503; a success body stays a success', async () => {
    server.replies.push({ json: { error: 'busy', code: 503 } }, { json: { ok: true } });
    const c = client({ statusInBody }, { maxRetries: 1, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(get(c)).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('a real error status is not consulted', async () => {
    server.replies.push({ status: 404, json: { error: 'x', code: 401 } });
    const error = await get(client({ statusInBody })).catch((e: unknown) => e);
    expect((error as APIError).status).toBe(404);
    expect((error as APIError).message).not.toContain('in its body');
  });
});

describe('sendGate', () => {
  /** A gate that records what it is asked and what is in flight. */
  function recordingGate(refuseAfter = Number.POSITIVE_INFINITY) {
    const log: string[] = [];
    let inFlight = 0;
    return {
      log,
      gate: {
        acquire: async (_signal: AbortSignal | undefined, timeoutMs: number) => {
          if (log.filter((entry) => entry.startsWith('acquire')).length >= refuseAfter)
            throw new ConnectionError('gate refused');
          log.push(`acquire ${timeoutMs} (in flight ${inFlight})`);
          inFlight++;
          return () => {
            inFlight--;
            log.push(`release (server saw ${server.requests.length})`);
          };
        },
      },
    };
  }

  it('each attempt takes the gate after the limiter, with its timeout, and frees it once its body is read', async () => {
    const { log, gate } = recordingGate();
    const limiter: RateLimiter = {
      acquire: async () => {
        log.push('limiter');
        return () => log.push('limiter released');
      },
      pause: () => {},
    };
    server.replies.push({ status: 503, text: 'busy' }, { json: { id: 1 } });
    const c = client(
      { sendGate: gate },
      { rateLimit: limiter, maxRetries: 1, retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );
    await expect(get(c, { timeout: 1234 })).resolves.toEqual({ id: 1 });
    expect(log).toEqual([
      'limiter',
      'acquire 1234 (in flight 0)',
      'release (server saw 1)',
      'limiter released',
      'limiter',
      'acquire 1234 (in flight 0)',
      'release (server saw 2)',
      'limiter released',
    ]);
  });

  it("a gate's refusal ends the call unsent and frees the limiter's slot", async () => {
    const { log, gate } = recordingGate(0);
    let released = 0;
    const limiter: RateLimiter = { acquire: async () => () => void released++, pause: () => {} };
    const error = await get(client({ sendGate: gate }, { rateLimit: limiter })).catch((e: unknown) => e);
    expect((error as Error).message).toBe('gate refused');
    expect(server.requests).toHaveLength(0);
    expect(released).toBe(1);
    expect(log).toEqual([]);
  });
});

it('a hex signature the auth derived is redacted in either case', async () => {
  let signature = '';
  const auth = signerAuth(
    'hmac',
    async (request) => {
      signature = await hmac('SHA-256', 'signing-secret-1234', request.url.pathname, 'hex');
      request.url.searchParams.set('auth_signature', signature);
    },
    ['signing-secret-1234'],
  );
  server.replies.push((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json', 'x-echo': signature.toUpperCase() });
    res.end(JSON.stringify({ message: `expected ${signature.toUpperCase()}`, lower: signature }));
  });
  const error = (await get(client({}, { auth })).catch((e: unknown) => e)) as APIError;
  expect(error).toBeInstanceOf(APIError);
  expect(signature).toMatch(/^[0-9a-f]{64}$/);
  const shown = [
    inspect(error, { depth: 8 }),
    JSON.stringify(error.body),
    JSON.stringify([...error.headers]),
  ];
  for (const text of shown) expect(text.toLowerCase()).not.toContain(signature);
});
