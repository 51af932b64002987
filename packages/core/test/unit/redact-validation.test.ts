import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { basicAuth, bearerAuth, queryAuth, Secret } from '../../src/auth.js';
import { ValidationError } from '../../src/errors.js';
import { Redactor, redactUrl } from '../../src/internal/redact.js';
import { openEnum, parseInput, toIssues } from '../../src/validation.js';

describe('redactUrl', () => {
  it('removes userinfo and secret query values, keeps the rest', () => {
    expect(
      redactUrl('https://u:p@shop.test/wp-json/wc/v3/products?consumer_key=ck_1&consumer_secret=cs_2&page=2'),
    ).toBe(
      'https://shop.test/wp-json/wc/v3/products?consumer_key=[REDACTED]&consumer_secret=[REDACTED]&page=2',
    );
    expect(redactUrl('http://h/apps/1/events?auth_key=k&auth_signature=s&body_md5=m')).toBe(
      'http://h/apps/1/events?auth_key=[REDACTED]&auth_signature=[REDACTED]&body_md5=m',
    );
    expect(redactUrl('/relative?oauth_signature=abc&x=1')).toBe('/relative?oauth_signature=[REDACTED]&x=1');
  });
});

describe('Redactor', () => {
  it('removes raw, URL-encoded and base64 forms of each secret, longest first', () => {
    const redactor = new Redactor();
    redactor.add('s3cr3t/+=', 'abc', undefined);
    expect(redactor.redact('a s3cr3t/+= b s3cr3t%2F%2B%3D c czNjcjN0Lys9 abc')).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED] abc',
    );
    expect(redactor.redactDeep({ nested: ['x s3cr3t/+='], n: 1 })).toEqual({
      nested: ['x [REDACTED]'],
      n: 1,
    });
  });
});

describe('secrets do not print', () => {
  it('Secret and auth strategies stringify to nothing sensitive', () => {
    const secret = new Secret('hunter2-long');
    expect(`${secret}`).toBe('[REDACTED]');
    expect(JSON.stringify({ secret })).toBe('{"secret":"[REDACTED]"}');
    expect(secret.reveal()).toBe('hunter2-long');
    for (const auth of [
      bearerAuth('tok-123456'),
      basicAuth('u', 'pw-123456'),
      queryAuth({ key: 'q-123456' }),
    ]) {
      expect(JSON.stringify(auth)).toBe(JSON.stringify({ kind: auth.kind }));
      expect(String(auth)).not.toMatch(/123456/);
    }
  });
});

describe('validation', () => {
  it('parseInput names every bad field', () => {
    const schema = z.object({
      name: z.string(),
      quantity: z.number(),
      items: z.array(z.object({ id: z.number() })),
    });
    try {
      parseInput(schema, { name: 1, quantity: 'x', items: [{ id: 'a' }] }, 'order');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual([
        'name',
        'quantity',
        'items.0.id',
      ]);
      expect((error as Error).message).toMatch(/^Invalid order: name: .*; quantity: .*; items\.0\.id: /);
    }
  });

  it('messages say what was wrong although zod/mini ships no locale', () => {
    const schema = z.object({
      per_page: z.number().check(z.int(), z.maximum(100)),
      name: z.string().check(z.minLength(2)),
      email: z.string().check(z.email()),
      order: z.enum(['asc', 'desc']),
      count: z.number(),
      price: z.string().check(z.regex(/^\d+$/, 'expected a decimal string')),
    });
    const messages = schema.safeParse({
      per_page: 101,
      name: 'x',
      email: 'nope',
      order: 'up',
      count: '3',
      price: 'x',
    });
    const issues = messages.success
      ? []
      : Object.fromEntries(toIssues(messages.error).map((i) => [i.path, i.message]));
    expect(issues).toEqual({
      per_page: 'must be at most 100',
      name: 'must be at least 2 characters',
      email: 'must be a valid email',
      order: 'must be one of "asc", "desc"',
      count: 'expected number',
      price: 'expected a decimal string',
    });
  });

  it('open enums accept unknown values, loose objects keep unknown fields', () => {
    const status = openEnum(['pending', 'completed']);
    expect(status.parse('pending')).toBe('pending');
    expect(status.parse('wc-custom-status')).toBe('wc-custom-status');
    expect(() => status.parse(3)).toThrow();
    expect(z.looseObject({ id: z.number() }).parse({ id: 1, added_later: true })).toEqual({
      id: 1,
      added_later: true,
    });
  });
});
