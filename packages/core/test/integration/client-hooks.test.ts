import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';
import { TestClient } from '../helpers/test-client.js';

const server = useFaultServer();

const fast = { retry: { baseDelayMs: 10, maxDelayMs: 20 } };

describe('cancellation and hooks', () => {
  it('an aborted signal rejects with AbortError and stops the request', async () => {
    server.replies.push('stall');
    const client = new TestClient({ baseURL: server.url });
    const controller = new AbortController();
    const pending = client.getThing(1, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('hooks see each attempt, response and retry; withOptions shares the limiter', async () => {
    server.replies.push({ status: 500 }, { json: { id: 1, name: 'a' }, headers: { 'x-request-id': 'r2' } });
    const events: string[] = [];
    const client = new TestClient({
      baseURL: server.url,
      ...fast,
      rateLimit: { limit: 10, interval: '1s' },
      hooks: {
        beforeRequest: (e) => void events.push(`request ${e.method} ${e.attempt}`),
        afterResponse: (e) => void events.push(`response ${e.status} ${e.attempt} ${e.requestId ?? '-'}`),
        beforeRetry: (e) => void events.push(`retry ${e.attempt} ${e.reason}`),
      },
    });
    await client.getThing(1);
    expect(events).toEqual([
      'request GET 1',
      'response 500 1 -',
      'retry 1 status 500',
      'request GET 2',
      'response 200 2 r2',
    ]);
    const clone = client.withOptions({ timeout: 5 });
    expect(clone).toBeInstanceOf(TestClient);
    expect(clone.rateLimiter).toBe(client.rateLimiter);
  });

  it('a hook that throws after the limiter granted a slot gives the slot back', async () => {
    let fail = true;
    const client = new TestClient({
      baseURL: server.url,
      rateLimit: { limit: 1, interval: '200ms' },
      hooks: {
        beforeRequest: () => {
          if (fail) {
            fail = false;
            throw new Error('hook failed');
          }
        },
      },
    });
    await expect(client.getThing(1)).rejects.toThrow('hook failed');
    // Without the release the slot would stay taken until its 120 s lease ran out.
    server.replies.push({ json: { id: 1, name: 'a' } });
    await expect(client.getThing(1)).resolves.toMatchObject({ id: 1 });
  });

  it('logs method, redacted URL, status, duration, request id and retries at info', async () => {
    server.replies.push(
      { status: 503 },
      { json: { id: 1, name: 'a' }, headers: { 'x-request-id': 'req_log' } },
    );
    const lines: string[] = [];
    const logger = {
      debug: (m: string) => void lines.push(m),
      info: (m: string) => void lines.push(m),
      warn() {},
      error() {},
    };
    const client = new TestClient({ baseURL: server.url, ...fast, logger, logLevel: 'info' });
    await client.request({
      method: 'GET',
      path: '/things/1',
      query: { consumer_secret: 'cs_hidden_value', page: 2 },
    });
    expect(lines.some((l) => l.startsWith('retrying GET') && l.includes('status 503'))).toBe(true);
    const done = lines.find((l) => l.includes('→ 200'))!;
    expect(done).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/things\/1\?consumer_secret=\[REDACTED\]&page=2 → 200 in \d+ ms \(request_id=req_log\) after 1 retries$/,
    );
    expect(lines.join('\n')).not.toContain('cs_hidden_value');
  });
});
