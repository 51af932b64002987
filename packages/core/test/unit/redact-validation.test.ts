import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { basicAuth, bearerAuth, queryAuth, Secret } from '../../src/auth.js';
import { ValidationError } from '../../src/errors.js';
import { isSecretParam, Redactor, redactUrl } from '../../src/internal/redact.js';
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

  it('treats every parameter whose name contains "signature" as secret, in any case', () => {
    for (const name of [
      'oauth_signature',
      'auth_signature',
      'X-Amz-Signature',
      'x-amz-signature',
      'body_signature',
      'Signature',
      'request_signature_v2',
      'signature[0]',
    ])
      expect(isSecretParam(name), name).toBe(true);
    for (const name of ['page', 'signed', 'sign', 'designation', 'X-Amz-Date'])
      expect(isSecretParam(name), name).toBe(false);
    expect(
      redactUrl('https://b.s3.test/k?X-Amz-Date=20260101T000000Z&X-Amz-Signature=abc123&body_signature=def'),
    ).toBe(
      'https://b.s3.test/k?X-Amz-Date=20260101T000000Z&X-Amz-Signature=[REDACTED]&body_signature=[REDACTED]',
    );
    expect(redactUrl('/k?X%2DAmz%2DSignature=abc&n=1')).toBe('/k?X%2DAmz%2DSignature=[REDACTED]&n=1');
  });

  it('leaves a relative URL with malformed percent-encoding readable instead of throwing', () => {
    expect(redactUrl('/x?%E0%A4%A=1&sig=2')).toBe('/x?%E0%A4%A=1&sig=[REDACTED]');
  });
});

describe('Redactor.redactHeaders', () => {
  it('redacts secret parameters in Location, Content-Location and Link URLs', () => {
    const headers = new Headers({
      location: 'https://elsewhere.test/x?oauth_signature=sig-1&page=2',
      'content-location': '/x?X-Amz-Signature=sig-2',
      link: '<https://api.test/x?consumer_key=ck_1&page=3>; rel="next"',
      'x-other': 'oauth_signature=kept-as-is',
    });
    const clean = new Redactor().redactHeaders(headers);
    expect(clean.get('location')).toBe('https://elsewhere.test/x?oauth_signature=[REDACTED]&page=2');
    expect(clean.get('content-location')).toBe('/x?X-Amz-Signature=[REDACTED]');
    expect(clean.get('link')).toBe('<https://api.test/x?consumer_key=[REDACTED]&page=3>; rel="next"');
    expect(clean.get('x-other')).toBe('oauth_signature=kept-as-is');
  });
});

describe('Redactor', () => {
  it('removes raw, URL-encoded and base64 forms of each secret, longest first', () => {
    const redactor = new Redactor();
    redactor.add('s3cr3t/+=', 'abc', undefined);
    expect(redactor.redact('a s3cr3t/+= b s3cr3t%2F%2B%3D c czNjcjN0Lys9 d')).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED] d',
    );
    expect(redactor.redactDeep({ nested: ['x s3cr3t/+='], n: 1 })).toEqual({
      nested: ['x [REDACTED]'],
      n: 1,
    });
  });

  it('a secret under 4 characters is redacted where it stands alone, not inside words', () => {
    // It used to be skipped entirely, so a 3-character key echoed back reached messages whole.
    const redactor = new Redactor();
    redactor.add('abc');
    expect(redactor.redact('key=abc&x=1 "abc" abc. labcd abcabc')).toBe(
      'key=[REDACTED]&x=1 "[REDACTED]" [REDACTED]. labcd abcabc',
    );
    expect(redactor.redactDeep({ key: 'abc', note: 'fabcd' })).toEqual({ key: '[REDACTED]', note: 'fabcd' });
  });

  it('a secret nested deeper than the walk goes is still removed (the subtree is replaced)', () => {
    const redactor = new Redactor();
    redactor.add('deep-secret-value');
    let deep: unknown = 'deep-secret-value';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(JSON.stringify(redactor.redactDeep(deep))).not.toContain('deep-secret-value');
    let clean: unknown = 'nothing here';
    for (let i = 0; i < 200; i++) clean = [clean];
    expect(redactor.redactDeep(clean)).toEqual(clean);
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

describe('Redactor.derive', () => {
  it('reuses the last derived redactor for the same values, and never one that misses a new secret', () => {
    const parent = new Redactor();
    parent.add('sk_parent_secret');
    const first = parent.derive(['Bearer sk_token_1', 'sk_token_1']);
    expect(parent.derive(['Bearer sk_token_1', 'sk_token_1'])).toBe(first);
    const other = parent.derive(['sig_abcdef_2']);
    expect(other.redact('sig_abcdef_2 sk_parent_secret sk_token_1')).toBe('[REDACTED] [REDACTED] sk_token_1');
    // A secret added to the parent later reaches the next derived redactor.
    parent.add('late_secret_3');
    expect(parent.derive(['sig_abcdef_2']).redact('late_secret_3 sig_abcdef_2')).toBe(
      '[REDACTED] [REDACTED]',
    );
  });
});
