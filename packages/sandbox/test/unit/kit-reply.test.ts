/** kit/reply.ts: the one Reply → Response step every emulator's answers go through. */
import { describe, expect, it } from 'vitest';
import { type ReplyFormat, toResponse } from '../../src/kit/reply.js';

describe('toResponse (text or JSON)', () => {
  it('sends a string as text/plain and anything else as JSON', async () => {
    const text = toResponse({ status: 401, body: 'Invalid signature' });
    expect(text.status).toBe(401);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('Invalid signature');
    const json = toResponse({ status: 200, body: { error: 'x', n: [1] } });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ error: 'x', n: [1] });
  });

  it('sends no body and no content type for null or undefined (a 503 with an empty body)', async () => {
    for (const body of [null, undefined]) {
      const res = toResponse({ status: 503, body });
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    }
  });

  it('keeps the reply’s own headers, its content type included, and drops the body for HEAD', async () => {
    const reply = {
      status: 200,
      body: { a: 1 },
      headers: { 'Content-Type': 'audio/wav', 'X-RateLimit-Limit': '5' },
    };
    const head = toResponse(reply, 'HEAD');
    expect(head.headers.get('content-type')).toBe('audio/wav');
    expect(head.headers.get('x-ratelimit-limit')).toBe('5');
    expect(await head.text()).toBe('');
    expect(await toResponse(reply, 'GET').text()).toBe('{"a":1}');
  });
});

describe('toResponse with a service format', () => {
  // The shape a WordPress-like format takes: base headers on every answer, its own encoder, `null` encoded.
  const format: ReplyFormat = {
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'X-Robots-Tag': 'noindex' },
    encode: (body) => (body === undefined ? null : { text: `<${JSON.stringify(body)}>`, type: 'ignored' }),
  };

  it('adds the base headers under the reply’s own and encodes with the format', async () => {
    const res = toResponse({ status: 201, body: null, headers: { 'X-Robots-Tag': 'all' } }, 'POST', format);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('x-robots-tag')).toBe('all');
    expect(await res.text()).toBe('<null>');
  });

  it('sends no body when the format encodes none, keeping the base headers', async () => {
    const res = toResponse({ status: 204, body: undefined }, 'DELETE', format);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.text()).toBe('');
  });
});
