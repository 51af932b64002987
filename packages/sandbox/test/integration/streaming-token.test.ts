/**
 * `GET /v3/token` (streaming-token.yml; docs "Authenticate with a temporary token"): the API key in
 * `Authorization`, `expires_in_seconds` 1..600 required, `max_session_duration_seconds` 60..10800 optional,
 * `{ token, expires_in_seconds }` back; errors are `{"error": ...}` with the spec's statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

let box: Sandbox<false>;
let key: string;

beforeAll(async () => {
  box = await startSandbox({ store: false, transcription: { rateLimit: { limit: 30, intervalMs: 60_000 } } });
  key = box.transcription!.apiKey;
});

afterAll(async () => {
  await box?.close();
});

const token = (query: string, init: RequestInit = {}, auth: string | null = key) =>
  fetch(`${box.url}/v3/token${query}`, {
    ...init,
    headers: auth === null ? {} : { Authorization: auth },
  });

describe('GET /v3/token', () => {
  it('answers a fresh opaque token and the expiry it granted', async () => {
    const a = await token('?expires_in_seconds=60');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toContain('application/json');
    const body = await a.json();
    expect(Object.keys(body).sort()).toEqual(['expires_in_seconds', 'token']);
    expect(body.expires_in_seconds).toBe(60);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const b = await (await token('?expires_in_seconds=600&max_session_duration_seconds=60')).json();
    expect(b.token).not.toBe(body.token);
    expect(b.expires_in_seconds).toBe(600);
  });

  it('refuses a missing or bad key with the 401 body, before looking at the query', async () => {
    for (const auth of [null, 'wrong', `Bearer ${key}`]) {
      const res = await token('?expires_in_seconds=x', {}, auth);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Authentication error, API token missing/invalid' });
    }
  });

  it.each([
    ['', 'expires_in_seconds is required'],
    ['?expires_in_seconds=0', 'expires_in_seconds must be an integer from 1 to 600'],
    ['?expires_in_seconds=601', 'expires_in_seconds must be an integer from 1 to 600'],
    ['?expires_in_seconds=1.5', 'expires_in_seconds must be an integer from 1 to 600'],
    ['?expires_in_seconds=-5', 'expires_in_seconds must be an integer from 1 to 600'],
    ['?expires_in_seconds=1e2', 'expires_in_seconds must be an integer from 1 to 600'],
    ['?expires_in_seconds=5&expires_in_seconds=6', 'expires_in_seconds must be given once'],
    [
      '?expires_in_seconds=60&max_session_duration_seconds=59',
      'max_session_duration_seconds must be an integer from 60 to 10800',
    ],
    [
      '?expires_in_seconds=60&max_session_duration_seconds=10801',
      'max_session_duration_seconds must be an integer from 60 to 10800',
    ],
  ])('%s is a 400 naming the parameter', async (query, message) => {
    const res = await token(query);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toContain(message);
  });

  it('is GET only', async () => {
    const res = await token('?expires_in_seconds=60', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: 'Method not allowed' });
  });

  it('other /v3 paths are 404 in the same shape, /v2 is untouched', async () => {
    const res = await token('/other?expires_in_seconds=60');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found' });
    const v2 = await fetch(`${box.url}/v2/transcript?limit=1`, { headers: { Authorization: key } });
    expect(v2.status).toBe(200);
  });

  it('counts in the key rate window and takes injected faults, as every route of the emulator', async () => {
    box.transcription!.injectFault({ status: 503, path: '/v3/token' });
    const faulted = await token('?expires_in_seconds=60');
    expect(faulted.status).toBe(503);
    expect(await faulted.text()).toBe('');
    let limited: Response | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const res = await token('?expires_in_seconds=60');
      if (res.status === 429) limited = res;
      else await res.body?.cancel();
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited?.json()).toEqual({ error: 'Too Many Requests' });
  });
});
